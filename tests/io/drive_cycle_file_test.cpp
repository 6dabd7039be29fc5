// Drive-cycle tables from CSV files: the format's latitude (header, comments,
// spaces) and every refusal, each naming FILE:LINE.
#include "voltaic/io/drive_cycle_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "voltaic/io/atomic_file.hpp"

namespace fs = std::filesystem;
using voltaic::DriveCycle;
using voltaic::InvalidArgument;
using voltaic::io::FileError;
using voltaic::io::load_drive_cycle;
using voltaic::io::parse_drive_cycle;

namespace {

/// The message of the error that parsing `csv` throws ("" if none).
std::string error_of(const std::string& csv) {
  try {
    parse_drive_cycle(csv, "t.csv", "T");
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

/// The message of the FileError that loading `file` throws ("" if none).
std::string file_error_of(const fs::path& file) {
  try {
    load_drive_cycle(file, "T");
  } catch (const FileError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// A directory of this process's own (suites of other checkouts may run at the same time).
class DriveCycleFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("voltaic_drive_cycle_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return dir_ / name;
  }
  fs::path dir_;
};

}  // namespace

TEST(DriveCycleCsv, ReadsTheSampleTable) {
  const DriveCycle t = load_drive_cycle(fs::path(VOLTAIC_TEST_DATA_DIR) / "drive_cycles" / "pulses.csv", "pulses");
  EXPECT_EQ(t.name(), "pulses");
  EXPECT_EQ(t.rows(), 41u);
  EXPECT_EQ(t.duration(), 300.0);
  EXPECT_EQ(t.value_at(10.0), 10.0);
  EXPECT_EQ(t.value_at(40.0), -5.0);
  EXPECT_EQ(t.value_at(25.0), 0.0);
  EXPECT_DOUBLE_EQ(t.value_at(0.5), 5.0);  // on the ramp
}

TEST(DriveCycleCsv, HeaderCommentsSpacesAndLineEndsAreTolerated) {
  const DriveCycle t = parse_drive_cycle(
      "\xEF\xBB\xBF# made by hand\r\n"
      "\n"
      "  Time [s] , Current [A]\r\n"
      "# a comment between rows\n"
      "0,1.5\r\n"
      "\t10 ,\t-2e0   # the rest of a line after '#' too\n"
      "+20, .5\n"
      "\n",
      "t.csv", "T");
  EXPECT_EQ(t.times(), (std::vector<double>{0, 10, 20}));
  EXPECT_EQ(t.values(), (std::vector<double>{1.5, -2, 0.5}));
  // Without a header, and without a newline at the end.
  EXPECT_EQ(parse_drive_cycle("0,0\n1,1", "t.csv", "T").rows(), 2u);
  // A classic Mac's line ends (CR alone), lines numbered as written.
  EXPECT_EQ(parse_drive_cycle("Time,Current\r0,0\r1,1\r", "t.csv", "T").rows(), 2u);
  EXPECT_TRUE(has(error_of("Time,Current\r0,0\rx,1\r"), "t.csv:3: the time 'x' is not a number"));
}

TEST(DriveCycleCsv, BadRowsAreNamedByFileAndLine) {
  const std::string three = error_of("# header\n0,0\n1,2,3\n");
  EXPECT_TRUE(has(three, "t.csv:3: '1,2,3' has 3 fields; allowed: two numbers")) << three;
  const std::string one = error_of("0,0\n1 2\n");
  EXPECT_TRUE(has(one, "t.csv:2: '1 2' has 1 field (separate them by a comma)")) << one;
  EXPECT_TRUE(has(error_of("0,0\n1,\n"), "t.csv:2: the value '' is not a number"));
  EXPECT_TRUE(has(error_of("0,0\n1,abc\n"), "t.csv:2: the value 'abc' is not a number")) << error_of("0,0\n1,abc\n");
  // Only the first line can be a header.
  EXPECT_TRUE(has(error_of("Time,Current\nt,c\n0,0\n1,1\n"), "t.csv:2: the time 't' is not a number"));
  EXPECT_TRUE(has(error_of("0,0\nx,1\n"), "t.csv:2: the time 'x' is not a number"));
  EXPECT_TRUE(has(error_of("0,0\n1,inf\n"), "t.csv:2: the value is inf; allowed: a finite number"));
  EXPECT_TRUE(has(error_of("0,0\nnan,1\n"), "t.csv:2: the time is nan"));
  EXPECT_TRUE(has(error_of("0,0\n0x10,1\n"), "the time '0x10' is not a number"));
  const std::string order = error_of("0,0\n5,1\n# a comment\n5,2\n");
  EXPECT_TRUE(has(order, "t.csv:4: the time 5 is not after that of line 2 (5); allowed: strictly increasing")) << order;
  EXPECT_TRUE(has(error_of("0,0\n5,1\n4,2\n"), "t.csv:3: the time 4 is not after that of line 2 (5)"));
  EXPECT_TRUE(has(error_of("Time,Current\n1,0\n2,1\n"), "t.csv:2: the first time is 1; allowed: 0"));
  // Rows closer than a microsecond leave a time step the solver cannot take.
  const std::string close = error_of("0,1\n1,1\n1.0000001,5\n10,5\n");
  EXPECT_TRUE(has(
      close, "t.csv:3: the time 1.0000001 is 1.0000000005838672e-07 s after that of line 2; allowed: 1e-06 s or more"))
      << close;
  EXPECT_TRUE(has(error_of("0,0\n5e-324,1\n"), "t.csv:2: the time 5e-324 is 5e-324 s after"))
      << error_of("0,0\n5e-324,1\n");
  EXPECT_FALSE(has(error_of("0,1\n1e-6,1\n1,x\n"), "after that of line")) << "1e-6 s apart is allowed";
  EXPECT_TRUE(has(error_of("# a comment\n0,1\n"), "t.csv:2: holds 1 row; allowed: at least 2 rows"));
  EXPECT_TRUE(has(error_of(""), "t.csv:1: holds no rows"));
  EXPECT_TRUE(has(error_of("Time,Current\n# nothing else\n"), "holds no rows"));
  // A binary file: its bytes are escaped, the message stays one line.
  const std::string binary = error_of(std::string("0,0\n1,\x01\x02\n", 9));
  EXPECT_EQ(binary.find('\x01'), std::string::npos) << binary;
  EXPECT_TRUE(has(binary, "t.csv:2:")) << binary;
  // Every message names where it was detected, on one line.
  EXPECT_TRUE(has(three, "[at voltaic::io::load_drive_cycle]")) << three;
}

TEST_F(DriveCycleFile, LoadsAFileAndNamesItInErrors) {
  const fs::path good = write("good.csv", "0,0\n10,2\n");
  EXPECT_EQ(load_drive_cycle(good, "US06").name(), "US06");
  const fs::path bad = write("bad.csv", "0,0\n10,2\n5,1\n");
  try {
    load_drive_cycle(bad, "US06");
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), bad.string() + ":3");
    EXPECT_TRUE(has(e.why(), "the time 5 is not after that of line 2 (10)")) << e.why();
  }
  EXPECT_THROW(load_drive_cycle(good, "US 06"), InvalidArgument);  // no step could name it
}

TEST_F(DriveCycleFile, RefusesWhatIsNotARegularFile) {
  const std::string missing = file_error_of(dir_ / "none.csv");
  EXPECT_TRUE(has(missing, "none.csv': does not exist; allowed: a regular file")) << missing;
  EXPECT_TRUE(has(file_error_of(dir_), "': is a directory")) << file_error_of(dir_);
  // A FIFO would block the open until a writer came: refused before opening.
  const fs::path fifo = dir_ / "pipe.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string pipe = file_error_of(fifo);
  EXPECT_TRUE(has(pipe, "pipe.csv': is a FIFO (a named pipe)")) << pipe;
  EXPECT_TRUE(has(file_error_of("/dev/null"), "'/dev/null': is a device")) << file_error_of("/dev/null");
  EXPECT_EQ(file_error_of(write("ok.csv", "0,0\n1,1\n")), "");
}

TEST_F(DriveCycleFile, RefusesAHugeFileWithoutReadingIt) {
  // Sparse: 65 MiB of size, no blocks, and read never.
  const fs::path huge = write("huge.csv", "0,0\n1,1\n");
  fs::resize_file(huge, voltaic::io::kMaxDriveCycleBytes + (std::uintmax_t(1) << 20));
  const std::string e = file_error_of(huge);
  EXPECT_TRUE(has(e, "huge.csv': is 65 MiB (68157440 bytes), larger than the 64 MiB")) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
  // Exactly the limit is read (and then refused for the NUL bytes of the hole on its second line).
  fs::resize_file(huge, voltaic::io::kMaxDriveCycleBytes);
  EXPECT_THROW(load_drive_cycle(huge, "T"), InvalidArgument);
}
