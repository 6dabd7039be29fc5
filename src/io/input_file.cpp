#include "io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "voltaic/io/atomic_file.hpp"

namespace voltaic::io::detail {

namespace {

std::string describe_mode(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISFIFO(mode)) return "is a FIFO (a named pipe)";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device";
  if (S_ISSOCK(mode)) return "is a socket";
  return "is not a regular file";
}

std::string describe_errno(int error) {
  switch (error) {
    case ENOENT: return "does not exist";
    case ELOOP: return "is a symbolic link loop (or has too many levels of links)";
    case ENAMETOOLONG: return "has a name too long for the file system";
    case ENOTDIR: return "has a part that is not a directory";
    case EACCES: return "cannot be accessed: permission denied";
    default: return std::string("cannot be examined: ") + std::strerror(error);
  }
}

}  // namespace

std::string mebibytes(std::uintmax_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

std::string not_regular_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return describe_errno(errno);
  return S_ISREG(st.st_mode) ? "" : describe_mode(st.st_mode);
}

InputFile::InputFile(const std::string& path, std::uintmax_t max_bytes, std::string where, std::string allowed)
    : path_(path), where_(std::move(where)), allowed_(std::move(allowed)), max_bytes_(max_bytes) {
  if (const std::string why = not_regular_file(path); !why.empty()) fail(why);
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd_ < 0) fail(std::string("cannot be opened: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail(std::string("cannot be examined: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail(describe_mode(st.st_mode));
  size_ = static_cast<std::uintmax_t>(st.st_size);
  if (size_ > max_bytes_) {
    fail("is " + mebibytes(size_) + " (" + std::to_string(size_) + " bytes), larger than the " + mebibytes(max_bytes_) +
         " such a file may have");
  }
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void InputFile::fail(const std::string& why) const {
  throw FileError("'" + one_line(path_) + "'", where_, why + "; allowed: " + allowed_);
}

std::size_t InputFile::read(char* buffer, std::size_t n) {
  for (;;) {
    const ssize_t got = ::read(fd_, buffer, n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(std::string("cannot be read: ") + std::strerror(errno));
    read_ += static_cast<std::uintmax_t>(got);
    if (read_ > max_bytes_) fail("grew beyond " + mebibytes(max_bytes_) + " while it was read");
    return static_cast<std::size_t>(got);
  }
}

std::string InputFile::read_all() {
  std::string text;
  text.reserve(static_cast<std::size_t>(size_));
  char buffer[1 << 16];
  while (const std::size_t n = read(buffer, sizeof buffer)) text.append(buffer, n);
  return text;
}

std::string read_input_file(const std::string& path, std::uintmax_t max_bytes, const std::string& where,
                            const std::string& allowed) {
  return InputFile(path, max_bytes, where, allowed).read_all();
}

}  // namespace voltaic::io::detail
