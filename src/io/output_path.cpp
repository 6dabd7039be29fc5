#include "voltaic/io/output_path.hpp"

#include <limits.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace voltaic::io {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxNameBytes = 255;  // NAME_MAX of Linux file systems

[[noreturn]] void refuse(const std::string& dir, const std::string& why) {
  throw FileError("'" + one_line(dir) + "'", "check_output_directory",
                  why + "; allowed: a directory, or a path where one can be created");
}

std::string shown(const fs::path& part) {
  const std::string s = one_line(part.string());
  return "'" + (s.size() > 48 ? "..." + s.substr(s.size() - 45) : s) + "'";  // the end names the part
}

}  // namespace

void check_output_directory(const std::string& dir) {
  if (dir.size() >= PATH_MAX)
    refuse(dir.substr(0, 60) + "...", "is " + std::to_string(dir.size()) + " bytes long, more than a path may have");
  for (const fs::path& part : fs::path(dir)) {
    if (part.native().size() > kMaxNameBytes)
      refuse(dir, "has a part of " + std::to_string(part.native().size()) + " bytes (" + shown(part) +
                      "), more than the " + std::to_string(kMaxNameBytes) + " bytes a file name may have");
  }
  // From the directory up to the first part that exists: that one must be a directory.
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) refuse(dir, (p == dir ? "is" : shown(p) + " is") + std::string(" not a directory"));
      return;
    }
    if (errno == ELOOP) refuse(dir, "holds a symbolic link loop (" + shown(p) + ")");
    if (errno == ENOTDIR) continue;  // the part above it says which is not a directory
    if (errno != ENOENT) refuse(dir, shown(p) + " cannot be examined: " + std::strerror(errno));
    if (::lstat(p.c_str(), &st) == 0) refuse(dir, shown(p) + " is a symbolic link to nothing");
    if (p == p.parent_path()) return;
  }
}

}  // namespace voltaic::io
