#pragma once
/// @file hdf5_handle.hpp
/// @brief RAII owners of HDF5 identifiers (hid_t), and QuietErrors, which
/// keeps HDF5 from printing its error stack to stderr while voltaic turns
/// failures into FileError itself. Header-only so that tests can use it too.

#include <hdf5.h>

#include <utility>

namespace voltaic::io::hdf5 {

/// Switches off HDF5's automatic error printing for the lifetime of the guard
/// and restores whatever handler was installed before. Scoped rather than
/// process-wide so that a program using HDF5 for its own purposes keeps its
/// settings outside voltaic's calls.
class QuietErrors {
 public:
  QuietErrors() noexcept {
    restore_ = H5Eget_auto2(H5E_DEFAULT, &func_, &data_) >= 0;
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() {
    if (restore_) H5Eset_auto2(H5E_DEFAULT, func_, data_);
  }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
  bool restore_ = false;
};

/// Owns one HDF5 identifier and closes it with `Close` (H5Fclose, H5Dclose, ...).
template <herr_t (*Close)(hid_t)>
class Handle {
 public:
  Handle() = default;
  /// Takes ownership of `id` (negative: owns nothing).
  explicit Handle(hid_t id) noexcept : id_(id) {}
  ~Handle() { close(); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      close();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
    }
    return *this;
  }

  hid_t get() const noexcept { return id_; }
  explicit operator bool() const noexcept { return id_ >= 0; }

  /// Closes the identifier now. Returns false when HDF5 reports a failure,
  /// which matters for files: H5Fclose is where the last data is flushed.
  /// An identifier that HDF5 already invalidated (a file closed with
  /// H5F_CLOSE_STRONG closes its objects) is only forgotten.
  bool close() noexcept {
    if (id_ < 0) return true;
    QuietErrors quiet;
    const hid_t id = std::exchange(id_, H5I_INVALID_HID);
    if (H5Iis_valid(id) <= 0) return true;
    return Close(id) >= 0;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
};

using File = Handle<H5Fclose>;
using Group = Handle<H5Gclose>;
using Dataset = Handle<H5Dclose>;
using Dataspace = Handle<H5Sclose>;
using Datatype = Handle<H5Tclose>;
using Attribute = Handle<H5Aclose>;
using PropertyList = Handle<H5Pclose>;

}  // namespace voltaic::io::hdf5
