#pragma once
/// @file hdf5_names.hpp
/// @brief HDF5 link names for arbitrary strings. HDF5 reads '/' as a path
/// separator, a lone "." as the group itself, and ends a name at NUL; an
/// empty name is refused. encode_link_name escapes exactly those cases with
/// %XX (and '%' itself), so that every other name is stored as it is.

#include <optional>
#include <string>

#include "hdf5_error.hpp"
#include "hdf5_handle.hpp"

namespace voltaic::io::hdf5 {

/// A valid HDF5 link name that decode_link_name maps back to `name`:
/// '%' -> "%25", '/' -> "%2F", NUL -> "%00", "." -> "%2E", "" -> "%".
std::string encode_link_name(const std::string& name);

/// The inverse of encode_link_name; nullopt for a name it cannot have made
/// (a '%' not followed by two hexadecimal digits).
std::optional<std::string> decode_link_name(const std::string& link);

/// A link creation property list that marks names as UTF-8 (h5py then shows
/// them as str) and creates no intermediate groups.
PropertyList utf8_link_names(const ErrorContext& ctx);

}  // namespace voltaic::io::hdf5
