#include "io/checkpoint_seal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

#include "io/crc32c.hpp"
#include "io/input_file.hpp"
#include "voltaic/io/atomic_file.hpp"

namespace voltaic::io::detail {

namespace {

constexpr const char* kAllowed = "a checkpoint.h5 written by this voltaic version (format 2, with its CRC-32C header)";
constexpr std::string_view kHdf5Signature{"\x89HDF\r\n\x1a\n", 8};
constexpr std::size_t kDigitsAt = 21 + 7;  // after "voltaic-checkpoint-2\n" and "crc32c "

/// The header for a file of `bytes` bytes, its checksum written as `crc`.
std::string header_text(std::uint32_t crc, std::uint64_t bytes) {
  char text[128];
  const int n = std::snprintf(text, sizeof text, "%s\ncrc32c %08" PRIx32 "\nbytes %020" PRIu64 "\n", kCheckpointFormat,
                              crc, bytes);
  std::string header(text, static_cast<std::size_t>(n));
  header.resize(kCheckpointHeaderBytes, '\0');
  return header;
}

[[noreturn]] void fail_sealing(const std::string& path, const std::string& why) {
  throw FileError("'" + one_line(path) + "'", "write_checkpoint", "cannot write the checksum header: " + why);
}

/// Bytes of `fd` from `offset` to its end, through `crc`.
std::uint32_t crc_from(int fd, std::uint64_t offset, std::uint32_t crc, const std::string& path) {
  std::vector<char> buffer(std::size_t(1) << 20);
  for (;;) {
    const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_sealing(path, std::strerror(errno));
    if (n == 0) return crc;
    crc = crc32c(crc, buffer.data(), static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
}

/// `n` bytes of the header, or fewer at the end of the file.
std::string read_header(InputFile& in) {
  std::string header(kCheckpointHeaderBytes, '\0');
  std::size_t got = 0;
  while (got < header.size()) {
    const std::size_t n = in.read(header.data() + got, header.size() - got);
    if (n == 0) break;
    got += n;
  }
  header.resize(got);
  return header;
}

/// The header's checksum and size, checked against the layout; fails with
/// what it finds instead.
void parse_header(const InputFile& in, const std::string& header, std::uint32_t& crc, std::uint64_t& bytes) {
  const std::string format = kCheckpointFormat;
  if (std::string_view(header).substr(0, kHdf5Signature.size()) == kHdf5Signature)
    in.fail("is an HDF5 file without voltaic's checksum header: not a voltaic checkpoint of this version");
  if (header.compare(0, 19, "voltaic-checkpoint-") != 0)
    in.fail("is not a voltaic checkpoint (it does not start with '" + format + "')");
  if (header.size() < kCheckpointHeaderBytes || header.compare(0, format.size() + 1, format + "\n") != 0)
    in.fail("has a damaged header or another format than '" + format + "'");
  char hex[9] = {}, digits[21] = {};
  const bool parsed =
      std::sscanf(header.c_str() + format.size() + 1, "crc32c %8[0-9a-f]\nbytes %20[0-9]\n", hex, digits) == 2 &&
      std::strlen(hex) == 8 && std::strlen(digits) == 20;
  if (!parsed) in.fail("has a damaged header (its checksum or size line)");
  crc = static_cast<std::uint32_t>(std::strtoul(hex, nullptr, 16));
  bytes = std::strtoull(digits, nullptr, 10);
  if (header != header_text(crc, bytes)) in.fail("has a damaged header (bytes after its three lines)");
}

}  // namespace

void seal_checkpoint(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) fail_sealing(path, std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  const off_t end = ::lseek(fd, 0, SEEK_END);
  if (end < static_cast<off_t>(kCheckpointHeaderBytes)) fail_sealing(path, "the file is shorter than its user block");
  const auto bytes = static_cast<std::uint64_t>(end);
  const std::string blank = header_text(0, bytes);
  const std::uint32_t crc = crc_from(fd, kCheckpointHeaderBytes, crc32c(0, blank.data(), blank.size()), path);
  const std::string header = header_text(crc, bytes);
  if (::pwrite(fd, header.data(), header.size(), 0) != static_cast<ssize_t>(header.size()))
    fail_sealing(path, std::strerror(errno));
  if (::fsync(fd) != 0) fail_sealing(path, std::strerror(errno));
}

void verify_checkpoint(const std::string& path) {
  InputFile in(path, std::numeric_limits<std::uintmax_t>::max(), "read_checkpoint", kAllowed);
  const std::string header = read_header(in);
  std::uint32_t stored = 0;
  std::uint64_t bytes = 0;
  parse_header(in, header, stored, bytes);
  if (bytes != in.size()) {
    in.fail("is " + std::to_string(in.size()) + " bytes long, its header says " + std::to_string(bytes) +
            ": it was truncated or extended");
  }
  std::string blank = header;
  blank.replace(kDigitsAt, 8, "00000000");
  std::uint32_t crc = crc32c(0, blank.data(), blank.size());
  std::vector<char> buffer(std::size_t(1) << 20);
  while (const std::size_t n = in.read(buffer.data(), buffer.size())) crc = crc32c(crc, buffer.data(), n);
  if (crc != stored) {
    char why[160];
    std::snprintf(why, sizeof why, "is corrupt: its CRC-32C is %08" PRIx32 ", its header says %08" PRIx32, crc, stored);
    in.fail(why);
  }
}

}  // namespace voltaic::io::detail
