#include "hdf5_error.hpp"

#include <algorithm>

namespace voltaic::io::hdf5 {

namespace {
/// H5Ewalk2 callback: keeps the first entry of an upward walk, the innermost.
herr_t keep_first(unsigned n, const H5E_error2_t* entry, void* out) {
  if (n == 0 && entry->desc != nullptr) *static_cast<std::string*>(out) = entry->desc;
  return 0;
}
}  // namespace

std::string innermost_error() {
  std::string reason;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keep_first, &reason);
  // Keep the message on one line whatever HDF5 put in it.
  std::replace(reason.begin(), reason.end(), '\n', ' ');
  return reason.empty() ? std::string("HDF5 gave no reason") : reason;
}

namespace {
/// HDF5's sec2 driver describes a failed read or write in one long line
/// ("file write failed: time = ..., filename = ..., errno = 28, error
/// message = 'No space left on device', buf = 0x..., ..."): its head and the
/// system's message are what a user needs; other reasons stay whole.
std::string short_reason(const std::string& reason) {
  const std::string key = "error message = '";
  const std::size_t at = reason.find(key), colon = reason.find(':');
  if (at == std::string::npos || colon == std::string::npos || colon > at) return reason;
  const std::size_t end = reason.find('\'', at + key.size());
  if (end == std::string::npos) return reason;
  return reason.substr(0, colon) + ": " + reason.substr(at + key.size(), end - at - key.size());
}
}  // namespace

void ErrorContext::fail(const std::string& operation) const {
  const std::string reason = innermost_error();
  // HDF5's sec2 driver reports the errno of a failed write in its text.
  const bool full = reason.find("errno = 28,") != std::string::npos;
  fail(operation, full ? "disk full (" + short_reason(reason) + ")" : short_reason(reason));
}

void ErrorContext::fail(const std::string& operation, const std::string& reason) const {
  throw FileError(operation, where_, "'" + path_ + "': cannot " + operation + ": " + reason);
}

}  // namespace voltaic::io::hdf5

namespace voltaic::io {

void skip_hdf5_exit_cleanup() { H5dont_atexit(); }

}  // namespace voltaic::io
