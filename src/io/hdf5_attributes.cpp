#include "hdf5_attributes.hpp"

#include <vector>

#include "hdf5_handle.hpp"

namespace voltaic::io::hdf5 {

Datatype variable_utf8_string(const ErrorContext& ctx) {
  Datatype type(ctx.require(H5Tcopy(H5T_C_S1), "create a string type"));
  ctx.check(H5Tset_size(type.get(), H5T_VARIABLE), "create a string type");
  ctx.check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "create a string type");
  return type;
}

namespace {

/// Creates the scalar attribute `name` of `file_type` on `object` and writes
/// `value` (of `memory_type`) into it.
void write_scalar_attribute(hid_t object, const char* name, hid_t file_type, hid_t memory_type, const void* value,
                            const ErrorContext& ctx) {
  const std::string operation = std::string("write attribute '") + name + "'";
  Dataspace space(ctx.require(H5Screate(H5S_SCALAR), operation));
  Attribute attribute(
      ctx.require(H5Acreate2(object, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT), operation));
  ctx.check(H5Awrite(attribute.get(), memory_type, value), operation);
}

std::string read_variable_string(hid_t attribute, hid_t file_type, const std::string& operation,
                                 const ErrorContext& ctx) {
  // Read with the file's own type so that HDF5 converts nothing.
  char* text = nullptr;
  ctx.check(H5Aread(attribute, file_type, &text), operation);
  std::string value = text != nullptr ? text : "";
  H5free_memory(text);
  return value;
}

std::string read_fixed_string(hid_t attribute, hid_t file_type, const std::string& operation, const ErrorContext& ctx) {
  std::vector<char> bytes(H5Tget_size(file_type) + 1, '\0');
  ctx.check(H5Aread(attribute, file_type, bytes.data()), operation);
  return std::string(bytes.data());  // up to the first NUL: padding or terminator
}

}  // namespace

void write_string_attribute(hid_t object, const char* name, const std::string& value, const ErrorContext& ctx) {
  const Datatype type = variable_utf8_string(ctx);
  const char* text = value.c_str();
  write_scalar_attribute(object, name, type.get(), type.get(), &text, ctx);
}

void write_string_array_attribute(hid_t object, const char* name, const std::vector<std::string>& values,
                                  const ErrorContext& ctx) {
  const std::string operation = std::string("write attribute '") + name + "'";
  const Datatype type = variable_utf8_string(ctx);
  std::vector<const char*> texts;
  for (const std::string& v : values) texts.push_back(v.c_str());
  const hsize_t n = texts.size();
  Dataspace space(ctx.require(H5Screate_simple(1, &n, nullptr), operation));
  Attribute attribute(
      ctx.require(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), operation));
  if (n > 0) ctx.check(H5Awrite(attribute.get(), type.get(), texts.data()), operation);
}

void write_int64_attribute(hid_t object, const char* name, std::int64_t value, const ErrorContext& ctx) {
  write_scalar_attribute(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value, ctx);
}

std::optional<std::string> read_string_attribute(hid_t object, const char* name, const ErrorContext& ctx) {
  const std::string operation = std::string("read attribute '") + name + "'";
  const htri_t exists = H5Aexists(object, name);
  ctx.check(exists, operation);
  if (exists == 0) return std::nullopt;
  Attribute attribute(ctx.require(H5Aopen(object, name, H5P_DEFAULT), operation));
  Datatype type(ctx.require(H5Aget_type(attribute.get()), operation));
  Dataspace space(ctx.require(H5Aget_space(attribute.get()), operation));
  if (H5Tget_class(type.get()) != H5T_STRING || H5Sget_simple_extent_npoints(space.get()) != 1)
    ctx.fail(operation, "it is not a single string");
  const htri_t variable = H5Tis_variable_str(type.get());
  ctx.check(variable, operation);
  return variable > 0 ? read_variable_string(attribute.get(), type.get(), operation, ctx)
                      : read_fixed_string(attribute.get(), type.get(), operation, ctx);
}

}  // namespace voltaic::io::hdf5
