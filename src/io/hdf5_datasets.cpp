#include "hdf5_datasets.hpp"

#include "hdf5_attributes.hpp"

namespace voltaic::io::hdf5 {

Group create_group(hid_t parent, const char* name, const ErrorContext& ctx) {
  return Group(ctx.require(H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                           std::string("create group ") + name));
}

Dataset write_array(hid_t parent, const std::string& name, hid_t file_type, hid_t memory_type, const void* data,
                    const std::vector<hsize_t>& dims, const ErrorContext& ctx) {
  const std::string operation = "write dataset " + name;
  Dataspace space(ctx.require(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), operation));
  Dataset dataset(ctx.require(
      H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), operation));
  hsize_t n = 1;
  for (const hsize_t d : dims) n *= d;
  // An empty dataset has nothing to write (and no buffer to write from).
  if (n > 0) ctx.check(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), operation);
  return dataset;
}

Dataset write_strings(hid_t parent, const std::string& name, const std::vector<std::string>& values,
                      const ErrorContext& ctx) {
  const Datatype type = variable_utf8_string(ctx);
  std::vector<const char*> texts;
  texts.reserve(values.size());
  for (const std::string& v : values) texts.push_back(v.c_str());
  return write_array(parent, name, type.get(), type.get(), texts.data(), {texts.size()}, ctx);
}

}  // namespace voltaic::io::hdf5
