#pragma once
/// @file hdf5_datasets.hpp
/// @brief Groups and whole datasets written in one call, as voltaic's output
/// files use them.

#include <hdf5.h>

#include <string>
#include <vector>

#include "hdf5_error.hpp"
#include "hdf5_handle.hpp"

namespace voltaic::io::hdf5 {

/// Creates the group `name` in `parent`.
Group create_group(hid_t parent, const char* name, const ErrorContext& ctx);

/// A contiguous dataset of shape `dims` (row-major) stored as `file_type`,
/// written from `data` (of `memory_type`) with a single H5Dwrite.
Dataset write_array(hid_t parent, const std::string& name, hid_t file_type, hid_t memory_type, const void* data,
                    const std::vector<hsize_t>& dims, const ErrorContext& ctx);

/// A 1D dataset of variable-length UTF-8 strings (h5py: `d.asstr()[...]`).
Dataset write_strings(hid_t parent, const std::string& name, const std::vector<std::string>& values,
                      const ErrorContext& ctx);

}  // namespace voltaic::io::hdf5
