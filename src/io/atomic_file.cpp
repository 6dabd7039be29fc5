#include "voltaic/io/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

namespace voltaic::io {

namespace fs = std::filesystem;

namespace {
std::string temporary_of(const std::string& final_path) {
  const fs::path p(final_path);
  return (p.parent_path() / ("." + p.filename().string() + ".part")).string();
}
}  // namespace

std::string system_reason(int error) {
  if (error == ENOSPC) return std::string("disk full (") + std::strerror(error) + ")";
  if (error == EDQUOT) return std::string("disk quota exceeded (") + std::strerror(error) + ")";
  return std::strerror(error);
}

AtomicFile::AtomicFile(std::string final_path) : final_(std::move(final_path)), temporary_(temporary_of(final_)) {}

AtomicFile::~AtomicFile() {
  if (!committed_ && !temporary_.empty()) std::remove(temporary_.c_str());
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : final_(std::move(other.final_)), temporary_(std::move(other.temporary_)), committed_(other.committed_) {
  other.temporary_.clear();
}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    if (!committed_ && !temporary_.empty()) std::remove(temporary_.c_str());
    final_ = std::move(other.final_);
    temporary_ = std::move(other.temporary_);
    committed_ = other.committed_;
    other.temporary_.clear();
  }
  return *this;
}

void AtomicFile::commit() {
  if (std::rename(temporary_.c_str(), final_.c_str()) != 0)
    throw FileError("rename", "AtomicFile::commit",
                    "cannot rename '" + temporary_ + "' to '" + final_ + "': " + system_reason(errno));
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  AtomicFile file(path);
  std::FILE* out = std::fopen(file.temporary_path().c_str(), "wb");
  bool written = out != nullptr && std::fwrite(contents.data(), 1, contents.size(), out) == contents.size();
  int error = errno;
  if (out != nullptr && std::fclose(out) != 0 && written) {  // fclose reports a failed write-back
    written = false;
    error = errno;
  }
  if (!written)
    throw FileError("write", "write_file_atomically",
                    "cannot write '" + file.temporary_path() + "': " + system_reason(error));
  file.commit();
}

void create_directories(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw FileError(
        "create directory", "create_directories",
        "cannot create directory '" + dir + "'" + (ec ? ": " + ec.message() : ": a file of that name exists"));
}

}  // namespace voltaic::io
