#include "voltaic/io/checkpoint_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "io/checkpoint_seal.hpp"
#include "io/crc32c.hpp"
#include "io/hdf5_test_read.hpp"
#include "io/output_test_support.hpp"

using voltaic::Checkpoint;
using voltaic::io::FileError;
using voltaic::io::read_checkpoint;
using voltaic::io::write_checkpoint;
using voltaic::test::entries_of;
using voltaic::test::fresh_dir;
namespace hdf5 = voltaic::io::hdf5;
using Names = std::set<std::string>;

namespace {

double from_bits(std::uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

/// Doubles that a careless format would not keep: NaN payloads (a signalling
/// one too), both zeros, denormals, extremes.
std::vector<double> awkward_doubles() {
  return {from_bits(0x7FF8000000000001ULL),  // quiet NaN with a payload
          from_bits(0xFFF4000000000123ULL),  // signalling NaN, negative
          -0.0,
          0.0,
          from_bits(1),                      // smallest denormal
          from_bits(0x000FFFFFFFFFFFFFULL),  // largest denormal
          std::numeric_limits<double>::max(),
          -std::numeric_limits<double>::infinity(),
          0.1,
          1.0 / 3.0};
}

/// Map keys HDF5 cannot take as they are: '/', "." and "", '%', NUL.
std::vector<std::string> awkward_names() {
  return {
      "phi_s",     "c_s surface [mol.m-3]",   "a/b",       "/leading", "trailing/", ".", "..", "", "%", "%2F", "100%",
      "tab\there", std::string("nul\0in", 6), "Zeit (°C)", " spaced ", "x[0][1]"};
}

Checkpoint awkward_checkpoint() {
  Checkpoint c;
  const auto doubles = awkward_doubles();
  std::int64_t i = 0;
  for (const std::string& name : awkward_names()) {
    c.arrays[name] = doubles;
    c.arrays[name].push_back(static_cast<double>(i));
    c.scalars[name] = doubles[i % doubles.size()];
    c.integers[name] = i * 1000003 - 7;
    c.texts[name] = "text of " + name;
    ++i;
  }
  c.arrays["empty"] = {};
  c.integers["min"] = std::numeric_limits<std::int64_t>::min();
  c.integers["max"] = std::numeric_limits<std::int64_t>::max();
  c.texts["empty"] = "";
  c.texts["embedded NULs"] = std::string("a\0b\0\0", 5);
  c.texts["long"] = std::string(100000, 'x') + "\n[solver]\ntolerance = 1e-8\n";
  return c;
}

void expect_bitwise_equal(const Checkpoint& a, const Checkpoint& b) {
  ASSERT_EQ(a.arrays.size(), b.arrays.size());
  for (const auto& [name, values] : a.arrays) {
    ASSERT_EQ(b.arrays.count(name), 1u) << name;
    const auto& other = b.arrays.at(name);
    ASSERT_EQ(values.size(), other.size()) << name;
    for (std::size_t k = 0; k < values.size(); ++k) EXPECT_EQ(bits(values[k]), bits(other[k])) << name << " " << k;
  }
  ASSERT_EQ(a.scalars.size(), b.scalars.size());
  for (const auto& [name, value] : a.scalars) {
    ASSERT_EQ(b.scalars.count(name), 1u) << name;
    EXPECT_EQ(bits(value), bits(b.scalars.at(name))) << name;
  }
  EXPECT_EQ(a.integers, b.integers);
  EXPECT_EQ(a.texts, b.texts);
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string message_of(const std::string& path) {
  try {
    read_checkpoint(path);
  } catch (const FileError& e) {
    return e.what();
  }
  return "no FileError";
}

}  // namespace

TEST(CheckpointFile, RoundTripIsBitForBit) {
  const auto d = fresh_dir("checkpoint_round_trip");
  const std::string path = (d / "checkpoint.h5").string();
  const Checkpoint written = awkward_checkpoint();
  write_checkpoint(path, written);
  EXPECT_EQ(entries_of(d), Names{"checkpoint.h5"});
  expect_bitwise_equal(written, read_checkpoint(path));
  EXPECT_EQ(voltaic::test::h5::open_hdf5_objects(), 0);
}

TEST(CheckpointFile, EmptyCheckpointRoundTrips) {
  const auto d = fresh_dir("checkpoint_empty");
  const std::string path = (d / "c.h5").string();
  write_checkpoint(path, Checkpoint{});
  expect_bitwise_equal(Checkpoint{}, read_checkpoint(path));
}

TEST(CheckpointFile, LayoutIsTheDocumentedOne) {
  const auto d = fresh_dir("checkpoint_layout");
  const std::string path = (d / "c.h5").string();
  Checkpoint c;
  c.arrays["state/c_e"] = {1.0, 2.0};
  c.scalars["time"] = 3.5;
  c.integers["step"] = 42;
  c.texts["config"] = "[run]";
  write_checkpoint(path, c);

  const auto file = voltaic::test::h5::open(path);
  EXPECT_EQ(voltaic::test::h5::string_attribute(file.get(), "format"), "voltaic-checkpoint-2");
  // '/' in a name is escaped, not a subgroup.
  const auto array = voltaic::test::h5::dataset(file.get(), "/arrays/state%2Fc_e");
  EXPECT_EQ(voltaic::test::h5::stored_type(array.get()), std::make_pair(H5T_FLOAT, std::size_t{8}));
  EXPECT_EQ(voltaic::test::h5::values<double>(array.get(), H5T_NATIVE_DOUBLE), (std::vector<double>{1.0, 2.0}));
  const auto scalar = voltaic::test::h5::dataset(file.get(), "/scalars/time");
  EXPECT_TRUE(voltaic::test::h5::shape(scalar.get()).empty());  // a scalar dataspace
  EXPECT_EQ(voltaic::test::h5::values<double>(scalar.get(), H5T_NATIVE_DOUBLE), std::vector<double>{3.5});
  const auto integer = voltaic::test::h5::dataset(file.get(), "/integers/step");
  EXPECT_EQ(voltaic::test::h5::stored_type(integer.get()), std::make_pair(H5T_INTEGER, std::size_t{8}));
  const auto text = voltaic::test::h5::dataset(file.get(), "/texts/config");
  EXPECT_EQ(voltaic::test::h5::stored_type(text.get()), std::make_pair(H5T_STRING, std::size_t{6}));
}

TEST(CheckpointFile, WritingReplacesTheOldCheckpointAtomically) {
  const auto d = fresh_dir("checkpoint_replace");
  const std::string path = (d / "c.h5").string();
  Checkpoint first, second;
  first.integers["step"] = 1;
  second.integers["step"] = 2;
  write_checkpoint(path, first);
  write_checkpoint(path, second);
  EXPECT_EQ(entries_of(d), Names{"c.h5"});
  EXPECT_EQ(read_checkpoint(path).integers.at("step"), 2);
}

TEST(CheckpointFile, AFailedWriteLeavesNoTemporaryAndTheOldFile) {
  const auto d = fresh_dir("checkpoint_failed_write");
  // Unwritable: the directory does not exist.
  EXPECT_THROW(write_checkpoint((d / "missing" / "c.h5").string(), Checkpoint{}), FileError);
  // The final rename fails: a directory stands where the file should go.
  voltaic::test::fs::create_directory(d / "c.h5");
  EXPECT_THROW(write_checkpoint((d / "c.h5").string(), awkward_checkpoint()), FileError);
  EXPECT_EQ(entries_of(d), Names{"c.h5"});
  EXPECT_TRUE(voltaic::test::fs::is_directory(d / "c.h5"));
  EXPECT_EQ(voltaic::test::h5::open_hdf5_objects(), 0);
}

TEST(CheckpointFile, MissingFileIsAOneLineFileErrorNamingThePath) {
  const auto d = fresh_dir("checkpoint_missing");
  const std::string path = (d / "nothing.h5").string();
  const std::string message = message_of(path);
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(CheckpointFile, AFileThatIsNotHdf5IsAFileError) {
  const auto d = fresh_dir("checkpoint_not_hdf5");
  const std::string path = (d / "c.h5").string();
  std::ofstream(path) << "step = 3\n";
  const std::string message = message_of(path);
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("is not a voltaic checkpoint"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(CheckpointFile, Hdf5FilesOfOtherWritersAreRefusedByTheirHeader) {
  const auto d = fresh_dir("checkpoint_no_header");
  const std::string plain = (d / "plain.h5").string();
  {
    hdf5::File f(H5Fcreate(plain.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    ASSERT_TRUE(f);
  }
  const std::string message = message_of(plain);
  EXPECT_NE(message.find(plain), std::string::npos) << message;
  EXPECT_NE(message.find("HDF5 file without voltaic's checksum header"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(CheckpointFile, ASealedHdf5FileWithoutTheFormatAttributeIsAFileError) {
  const auto d = fresh_dir("checkpoint_no_format");
  const std::string plain = (d / "plain.h5").string();
  {
    hdf5::PropertyList create(H5Pcreate(H5P_FILE_CREATE));
    ASSERT_GE(H5Pset_userblock(create.get(), voltaic::io::detail::kCheckpointHeaderBytes), 0);
    hdf5::File f(H5Fcreate(plain.c_str(), H5F_ACC_TRUNC, create.get(), H5P_DEFAULT));
    ASSERT_TRUE(f);
  }
  voltaic::io::detail::seal_checkpoint(plain);
  const std::string message = message_of(plain);
  EXPECT_NE(message.find(plain), std::string::npos) << message;
  EXPECT_NE(message.find("not a voltaic checkpoint (no 'format' attribute)"), std::string::npos) << message;
  EXPECT_EQ(voltaic::test::h5::open_hdf5_objects(), 0);  // the refused file was closed
}

// A crafted file whose checksum matches: an array that declares 2^40 values
// and stores none (chunked, never written) used to be resized to 8 TB before
// it was read (std::bad_alloc, not a FileError).
TEST(CheckpointFile, AnArrayDeclaringMoreValuesThanItStoresIsRefused) {
  const auto d = fresh_dir("checkpoint_hollow_array");
  const std::string path = (d / "c.h5").string();
  Checkpoint c;
  c.arrays["x"] = {1.0, 2.0, 3.0};
  write_checkpoint(path, c);
  {
    hdf5::File f(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_TRUE(f);
    ASSERT_GE(H5Ldelete(f.get(), "/arrays/x", H5P_DEFAULT), 0);
    const hsize_t points = hsize_t(1) << 40, chunk = 1024;
    hdf5::Dataspace space(H5Screate_simple(1, &points, nullptr));
    hdf5::PropertyList layout(H5Pcreate(H5P_DATASET_CREATE));
    ASSERT_GE(H5Pset_chunk(layout.get(), 1, &chunk), 0);
    hdf5::Dataset x(
        H5Dcreate2(f.get(), "/arrays/x", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, layout.get(), H5P_DEFAULT));
    ASSERT_TRUE(x);
  }
  voltaic::io::detail::seal_checkpoint(path);
  const std::string message = message_of(path);
  EXPECT_NE(message.find("it declares 1099511627776 values but stores 0 bytes"), std::string::npos) << message;
  EXPECT_EQ(voltaic::test::h5::open_hdf5_objects(), 0);
}

TEST(CheckpointFile, TheHeaderIsTheDocumentedText) {
  const auto d = fresh_dir("checkpoint_header");
  const std::string path = (d / "c.h5").string();
  write_checkpoint(path, Checkpoint{});
  const std::string bytes = read_bytes(path);
  ASSERT_GT(bytes.size(), 512u);
  const std::string size = std::to_string(bytes.size());
  EXPECT_EQ(bytes.substr(0, 28), "voltaic-checkpoint-2\ncrc32c ");
  EXPECT_EQ(bytes.substr(28, 8).find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(bytes.substr(36, 28), "\nbytes " + std::string(20 - size.size(), '0') + size + "\n");
  EXPECT_EQ(bytes.substr(64, 512 - 64), std::string(512 - 64, '\0'));
}

TEST(CheckpointFile, Crc32cIsTheCastagnoliChecksum) {
  EXPECT_EQ(voltaic::io::detail::crc32c(0, "123456789", 9), 0xE3069283u);  // the standard check value
  EXPECT_EQ(voltaic::io::detail::crc32c(voltaic::io::detail::crc32c(0, "1234", 4), "56789", 5), 0xE3069283u);
}

// Every single-bit flip, at every byte of a real checkpoint, is refused with
// a FileError naming the file: the checksum is checked before HDF5 parses
// the file (a flip in its link tables used to crash HDF5).
TEST(CheckpointFile, AFlippedBitAnywhereIsRefused) {
  const auto d = fresh_dir("checkpoint_bit_flips");
  const std::string good = (d / "good.h5").string(), bad = (d / "bad.h5").string();
  Checkpoint c;
  c.arrays["state/c_e"] = {1.0, 2.0, 3.0};
  c.scalars["time"] = 3.5;
  c.integers["step index"] = 2;
  c.texts["format"] = "voltaic simulation state 2";
  write_checkpoint(good, c);
  const std::string bytes = read_bytes(good);
  int refused = 0;
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ (1 << (at % 8)));
    std::ofstream(bad, std::ios::binary | std::ios::trunc) << flipped;
    const std::string message = message_of(bad);
    refused += message.find("'" + bad + "'") != std::string::npos;
    if (message.find("'" + bad + "'") == std::string::npos) ADD_FAILURE() << "byte " << at << ": " << message;
  }
  EXPECT_EQ(refused, static_cast<int>(bytes.size()));
  // Truncated and extended files are refused by their size.
  std::ofstream(bad, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() - 1);
  EXPECT_NE(message_of(bad).find("truncated or extended"), std::string::npos) << message_of(bad);
  std::ofstream(bad, std::ios::binary | std::ios::trunc) << bytes << '\0';
  EXPECT_NE(message_of(bad).find("truncated or extended"), std::string::npos) << message_of(bad);
  expect_bitwise_equal(c, read_checkpoint(good));
}

TEST(CheckpointFile, OnlyRegularFilesAreOpened) {
  const auto d = fresh_dir("checkpoint_fifo");
  const std::string fifo = (d / "pipe.h5").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(message_of(fifo).find("is a FIFO"), std::string::npos) << message_of(fifo);  // and does not block
  EXPECT_NE(message_of(d.string()).find("is a directory"), std::string::npos);
  EXPECT_NE(message_of("/dev/zero").find("is a device"), std::string::npos);
}
