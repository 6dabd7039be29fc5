#pragma once
/// @file hdf5_test_read.hpp
/// @brief Reading HDF5 files back in tests with the plain C API (so that the
/// tests check the files, not voltaic's own readers). gtest assertions
/// report what does not match; the functions return empty values then.

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/hdf5_handle.hpp"

namespace voltaic::test::h5 {

namespace hdf5 = voltaic::io::hdf5;

/// How many HDF5 files and objects this process has open: 0 between
/// voltaic's calls, whether they succeeded or threw.
inline ssize_t open_hdf5_objects() { return H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL); }

inline hdf5::File open(const std::string& path) {
  hdf5::QuietErrors quiet;
  hdf5::File f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  EXPECT_TRUE(f) << "cannot open " << path;
  return f;
}

inline hdf5::Dataset dataset(hid_t file, const std::string& path) {
  hdf5::QuietErrors quiet;
  hdf5::Dataset d(H5Dopen2(file, path.c_str(), H5P_DEFAULT));
  EXPECT_TRUE(d) << "no dataset " << path;
  return d;
}

/// A scalar variable-length string attribute (what h5py reads as str).
inline std::string string_attribute(hid_t object, const char* name) {
  hdf5::QuietErrors quiet;
  hdf5::Attribute a(H5Aopen(object, name, H5P_DEFAULT));
  if (!a) {
    ADD_FAILURE() << "no attribute " << name;
    return {};
  }
  hdf5::Datatype type(H5Aget_type(a.get()));
  EXPECT_EQ(H5Tget_class(type.get()), H5T_STRING) << name;
  EXPECT_GT(H5Tis_variable_str(type.get()), 0) << name << " is not a variable-length string";
  char* text = nullptr;
  if (H5Aread(a.get(), type.get(), &text) < 0) return {};
  std::string value = text;
  H5free_memory(text);
  return value;
}

/// A scalar attribute stored as a 64-bit signed integer.
inline std::int64_t int64_attribute(hid_t object, const char* name) {
  hdf5::QuietErrors quiet;
  hdf5::Attribute a(H5Aopen(object, name, H5P_DEFAULT));
  if (!a) {
    ADD_FAILURE() << "no attribute " << name;
    return -1;
  }
  hdf5::Datatype type(H5Aget_type(a.get()));
  EXPECT_EQ(H5Tget_class(type.get()), H5T_INTEGER) << name;
  EXPECT_EQ(H5Tget_size(type.get()), 8u) << name;
  EXPECT_EQ(H5Tget_sign(type.get()), H5T_SGN_2) << name;
  std::int64_t value = -1;
  H5Aread(a.get(), H5T_NATIVE_INT64, &value);
  return value;
}

inline std::vector<hsize_t> shape(hid_t dataset, bool maximum = false) {
  hdf5::Dataspace space(H5Dget_space(dataset));
  std::vector<hsize_t> dims(H5Sget_simple_extent_ndims(space.get())), max_dims(dims.size());
  H5Sget_simple_extent_dims(space.get(), dims.data(), max_dims.data());
  return maximum ? max_dims : dims;
}

/// The chunk shape, or nothing when the dataset is not chunked.
inline std::vector<hsize_t> chunk_shape(hid_t dataset) {
  hdf5::PropertyList create(H5Dget_create_plist(dataset));
  if (H5Pget_layout(create.get()) != H5D_CHUNKED) return {};
  std::vector<hsize_t> chunk(8);
  chunk.resize(H5Pget_chunk(create.get(), 8, chunk.data()));
  return chunk;
}

/// The class and size of a dataset's stored type.
inline std::pair<H5T_class_t, std::size_t> stored_type(hid_t dataset) {
  hdf5::Datatype type(H5Dget_type(dataset));
  return {H5Tget_class(type.get()), H5Tget_size(type.get())};
}

/// All values of a dataset, read through `memory_type` into a vector of T.
template <class T>
std::vector<T> values(hid_t dataset, hid_t memory_type) {
  hdf5::Dataspace space(H5Dget_space(dataset));
  std::vector<T> out(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get())));
  if (!out.empty()) {
    EXPECT_GE(H5Dread(dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), 0);
  }
  return out;
}

}  // namespace voltaic::test::h5
