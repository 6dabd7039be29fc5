#pragma once
/// @file hdf5_attributes.hpp
/// @brief Attributes as voltaic's files use them: variable-length UTF-8
/// strings (h5py reads them as str), lists of them, and 64-bit integers.

#include <hdf5.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hdf5_error.hpp"
#include "hdf5_handle.hpp"

namespace voltaic::io::hdf5 {

/// The variable-length UTF-8 string type (h5py reads its values as str).
Datatype variable_utf8_string(const ErrorContext& ctx);

/// Attaches the string attribute `name` = `value` to `object`.
void write_string_attribute(hid_t object, const char* name, const std::string& value, const ErrorContext& ctx);

/// Attaches the 1D string attribute `name` = `values` to `object` (h5py reads
/// it as an array of str; an empty list is an empty array).
void write_string_array_attribute(hid_t object, const char* name, const std::vector<std::string>& values,
                                  const ErrorContext& ctx);

/// Attaches the int64 attribute `name` = `value` to `object`.
void write_int64_attribute(hid_t object, const char* name, std::int64_t value, const ErrorContext& ctx);

/// The string attribute `name` of `object` (variable- or fixed-length), or
/// nullopt when there is none. @throws FileError when it exists but is not a string
std::optional<std::string> read_string_attribute(hid_t object, const char* name, const ErrorContext& ctx);

}  // namespace voltaic::io::hdf5
