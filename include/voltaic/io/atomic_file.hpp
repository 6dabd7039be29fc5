#pragma once
/// @file atomic_file.hpp
/// @brief FileError, and AtomicFile: a file written under a temporary name in
/// its final directory and renamed into place by commit(), so that a reader
/// (or a crash) never sees it half-written.

#include <string>

#include "voltaic/core/error.hpp"

namespace voltaic::io {

/// A file that cannot be opened, read, written or renamed; why() holds the
/// path and the system's reason.
class FileError : public Error {
  using Error::Error;
};

/// The system's reason for `error` (an errno), "disk full" first where the
/// disk is full, so that a message says what to do about it.
std::string system_reason(int error);

/// The temporary path of `final_path`: ".NAME.part" beside it. Writers create
/// the temporary, fill it, then commit(); the destructor removes a temporary
/// that was never committed.
class AtomicFile {
 public:
  explicit AtomicFile(std::string final_path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;

  const std::string& path() const { return final_; }
  /// Where to write until commit().
  const std::string& temporary_path() const { return temporary_; }
  /// Renames the temporary onto the final path (atomic on POSIX file systems,
  /// replacing an older file of that name). Call after the writer has closed it.
  /// @throws FileError when the rename fails
  void commit();
  bool committed() const { return committed_; }

 private:
  std::string final_, temporary_;
  bool committed_ = false;
};

/// Writes `contents` to `path` through an AtomicFile.
/// @throws FileError when it cannot be written
void write_file_atomically(const std::string& path, const std::string& contents);

/// Creates `dir` and its parents if missing.
/// @throws FileError when it cannot (or when `dir` exists and is not a directory)
void create_directories(const std::string& dir);

}  // namespace voltaic::io
