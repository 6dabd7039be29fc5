// OutputDirectory: the lock, the staging directory and the publishing of a
// run's files as one set. The files are renamed from the staging directory,
// which lies inside the output directory and so on the same file system:
// each rename is atomic, and every target is checked before the first one.
#include "voltaic/io/output_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <system_error>
#include <utility>

namespace voltaic::io {

namespace fs = std::filesystem;

namespace {

constexpr const char* kWhere = "OutputDirectory";

[[noreturn]] void fail(const std::string& operation, const std::string& what, int error) {
  throw FileError(operation, kWhere, what + ": " + system_reason(error));
}

/// A name no other run uses: the pid (unique among live processes) and a
/// random part (unique across runs that reuse a pid).
std::string run_name() {
  std::random_device device;
  const auto now = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
  char name[64];
  std::snprintf(name, sizeof name, "%ld-%08x%04llx", static_cast<long>(getpid()), device(), now & 0xffffu);
  return name;
}

/// The pid written in the lock file by the run holding it.
std::string holder_of(int fd) {
  char text[32] = {};
  const ssize_t n = pread(fd, text, sizeof text - 1, 0);
  const long pid = n > 0 ? std::strtol(text, nullptr, 10) : 0;
  return pid > 0 ? "pid " + std::to_string(pid) : "pid unknown";
}

/// Writes this process's pid into the held lock file; returns fd.
int write_pid(int fd, const std::string& path) {
  const std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    const int error = errno;
    close(fd);
    fail("lock", "cannot write the lock file '" + path + "'", error);
  }
  return fd;
}

/// Whether `fd` is the file at `path` now (not one unlinked since it was opened).
bool still_at(int fd, const std::string& path) {
  struct stat opened {
  }, named{};
  return fstat(fd, &opened) == 0 && stat(path.c_str(), &named) == 0 && opened.st_dev == named.st_dev &&
         opened.st_ino == named.st_ino;
}

int lock_directory(const std::string& dir) {
  const std::string path = (fs::path(dir) / OutputDirectory::kLockName).string();
  // The run that ends removes its lock file while holding the lock, so a
  // lock taken on a file that is no longer at the path (removed between
  // this open and this flock) locks nothing: open the new one and try again.
  for (int attempt = 0;; ++attempt) {
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) fail("lock", "cannot create the lock file '" + path + "'", errno);
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const std::string holder = error == EWOULDBLOCK ? holder_of(fd) : "";
      close(fd);
      if (error != EWOULDBLOCK) fail("lock", "cannot lock '" + path + "'", error);
      throw OutputLocked("lock", kWhere,
                         "output directory '" + dir + "' is in use by another voltaic run (" + holder +
                             "); wait for it to end or choose another --output");
    }
    if (still_at(fd, path)) return write_pid(fd, path);
    close(fd);
    if (attempt == 100) fail("lock", "the lock file '" + path + "' keeps being replaced", EAGAIN);
  }
}

std::vector<std::string> earlier_stagings(const std::string& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind(OutputDirectory::kStagingPrefix, 0) == 0) found.push_back(e.path().string());
  std::sort(found.begin(), found.end());
  return found;
}

/// fsync of a file or directory: its data (or entries) are on the disk when it returns.
void sync_path(const std::string& path, bool directory) {
  const int fd = open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) fail("sync", "cannot open '" + path + "'", errno);
  const int status = fsync(fd);
  const int error = errno;
  close(fd);
  if (status != 0) fail("sync", "cannot flush '" + path + "' to disk", error);
}

/// Why `target` cannot be replaced by a rename, or "" when it can.
std::string obstacle(const fs::path& target) {
  std::error_code ec;
  const fs::file_status s = fs::symlink_status(target, ec);
  if (ec || s.type() == fs::file_type::not_found || s.type() == fs::file_type::regular) return "";
  if (s.type() == fs::file_type::symlink) return "";  // the rename replaces the link itself
  return s.type() == fs::file_type::directory ? "it is a directory" : "it is not a regular file";
}

}  // namespace

OutputDirectory::OutputDirectory(std::string dir) : dir_(std::move(dir)) {
  create_directories(dir_);
  lock_fd_ = lock_directory(dir_);
  leftovers_ = earlier_stagings(dir_);
  staging_ = (fs::path(dir_) / (std::string(kStagingPrefix) + run_name())).string();
  std::error_code ec;
  if (!fs::create_directory(staging_, ec)) {
    close(lock_fd_);
    throw FileError(
        "create directory", kWhere,
        "cannot create the staging directory '" + staging_ + "': " + (ec ? ec.message() : std::string("it exists")));
  }
}

OutputDirectory::~OutputDirectory() {
  if (!keep_staging_) abandon();
  if (lock_fd_ < 0) return;
  // Removed while still held: a run that opened the file before this and
  // locks it after sees it is no longer at the path and opens the new one
  // (lock_directory), so two runs never hold the directory at once.
  std::remove((fs::path(dir_) / kLockName).c_str());
  close(lock_fd_);  // releases the lock
}

std::string OutputDirectory::staged(const std::string& name) const { return (fs::path(staging_) / name).string(); }

void OutputDirectory::publish(const std::vector<std::string>& names, const std::vector<std::string>& set) {
  keep_staging_ = true;  // from here on the staged files are the run's only copy
  for (const std::string& name : names) sync_path(staged(name), false);
  for (const std::string& name : set) {
    const fs::path target = fs::path(dir_) / name;
    const std::string why = obstacle(target);
    if (!why.empty())
      throw FileError("publish", kWhere,
                      "cannot replace '" + target.string() + "': " + why + "; the earlier files are kept and this " +
                          "run's complete files are in '" + staging_ + "'");
  }
  for (const std::string& name : names)
    if (std::rename(staged(name).c_str(), (fs::path(dir_) / name).c_str()) != 0)
      fail("publish", "cannot rename '" + staged(name) + "' into '" + dir_ + "'", errno);
  for (const std::string& name : set)
    if (std::find(names.begin(), names.end(), name) == names.end()) std::remove((fs::path(dir_) / name).c_str());
  sync_path(dir_, true);
  keep_staging_ = false;
  abandon();
}

void OutputDirectory::abandon() noexcept {
  std::error_code ec;
  if (!staging_.empty()) fs::remove_all(staging_, ec);
}

}  // namespace voltaic::io
