#pragma once
/// @file hdf5_error.hpp
/// @brief Turns a failed HDF5 call into a FileError that names the file, the
/// operation and HDF5's own (innermost) reason, in one line.

#include <hdf5.h>

#include <string>
#include <utility>

#include "voltaic/io/atomic_file.hpp"

namespace voltaic::io::hdf5 {

/// Where HDF5 failures are reported from: the file as the user named it and
/// the voltaic function that was working on it.
class ErrorContext {
 public:
  ErrorContext(std::string path, const char* where) : path_(std::move(path)), where_(where) {}

  const std::string& path() const { return path_; }
  const char* where() const { return where_; }

  /// Throws FileError for `operation` ("create /time"), with the reason read
  /// from HDF5's error stack. Call it right after the failing HDF5 call: any
  /// later call (closing a handle included) clears the stack.
  [[noreturn]] void fail(const std::string& operation) const;
  /// Throws FileError for `operation` with a reason of voltaic's own.
  [[noreturn]] void fail(const std::string& operation, const std::string& reason) const;
  /// `id` when it is a valid identifier, else fail(operation).
  hid_t require(hid_t id, const std::string& operation) const {
    if (id < 0) fail(operation);
    return id;
  }
  /// fail(operation) when `status` is negative.
  void check(herr_t status, const std::string& operation) const {
    if (status < 0) fail(operation);
  }

 private:
  std::string path_;
  const char* where_;
};

/// The description of the innermost entry of HDF5's default error stack (the
/// call that actually failed, e.g. "unable to open file: ... No such file"),
/// or a fixed text when the stack is empty.
std::string innermost_error();

}  // namespace voltaic::io::hdf5
