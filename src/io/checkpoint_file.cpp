// Checkpoints in HDF5. Every value is stored in a type that holds it exactly
// (IEEE float64, int64, the text's own bytes) and read back with no
// conversion, so that a restarted run continues bit for bit. The file's
// CRC-32C header (checkpoint_seal.hpp) is checked before HDF5 opens it.
#include "voltaic/io/checkpoint_file.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "hdf5_attributes.hpp"
#include "hdf5_error.hpp"
#include "hdf5_handle.hpp"
#include "hdf5_names.hpp"
#include "io/checkpoint_seal.hpp"
#include "voltaic/io/atomic_file.hpp"

namespace voltaic::io {

namespace {

using hdf5::ErrorContext;

using detail::kCheckpointFormat;

// ---- writing ---------------------------------------------------------------

/// Creates dataset `name` (escaped into a link name) in `group` and writes
/// `data` through `memory_type`. Zero-size arrays get a dataset and no write.
void write_dataset(hid_t group, const std::string& name, hid_t file_type, hid_t memory_type, hid_t space,
                   const void* data, bool empty, const ErrorContext& ctx) {
  const std::string operation = "write '" + name + "'";
  const std::string link = hdf5::encode_link_name(name);
  const hdf5::PropertyList links = hdf5::utf8_link_names(ctx);
  hdf5::Dataset dataset(
      ctx.require(H5Dcreate2(group, link.c_str(), file_type, space, links.get(), H5P_DEFAULT, H5P_DEFAULT), operation));
  if (!empty) ctx.check(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), operation);
}

hdf5::Dataspace scalar_space(const ErrorContext& ctx) {
  return hdf5::Dataspace(ctx.require(H5Screate(H5S_SCALAR), "create a dataspace"));
}

void write_arrays(hid_t group, const std::map<std::string, std::vector<double>>& arrays, const ErrorContext& ctx) {
  for (const auto& [name, values] : arrays) {
    const hsize_t n = values.size();
    hdf5::Dataspace space(ctx.require(H5Screate_simple(1, &n, nullptr), "create a dataspace"));
    write_dataset(group, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, space.get(), values.data(), n == 0, ctx);
  }
}

void write_scalars(hid_t group, const std::map<std::string, double>& scalars, const ErrorContext& ctx) {
  const hdf5::Dataspace space = scalar_space(ctx);
  for (const auto& [name, value] : scalars)
    write_dataset(group, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, space.get(), &value, false, ctx);
}

void write_integers(hid_t group, const std::map<std::string, std::int64_t>& integers, const ErrorContext& ctx) {
  const hdf5::Dataspace space = scalar_space(ctx);
  for (const auto& [name, value] : integers)
    write_dataset(group, name, H5T_STD_I64LE, H5T_NATIVE_INT64, space.get(), &value, false, ctx);
}

/// A fixed-length string type one byte longer than `length`: the text's bytes
/// (NULs included) and a terminator, so that readers of NUL-terminated
/// strings (h5py) see the text and read_checkpoint gets every byte back.
hdf5::Datatype text_type(std::size_t length, const ErrorContext& ctx) {
  hdf5::Datatype type(ctx.require(H5Tcopy(H5T_C_S1), "create a string type"));
  ctx.check(H5Tset_size(type.get(), length + 1), "create a string type");
  ctx.check(H5Tset_strpad(type.get(), H5T_STR_NULLTERM), "create a string type");
  ctx.check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "create a string type");
  return type;
}

void write_texts(hid_t group, const std::map<std::string, std::string>& texts, const ErrorContext& ctx) {
  const hdf5::Dataspace space = scalar_space(ctx);
  for (const auto& [name, text] : texts) {
    const hdf5::Datatype type = text_type(text.size(), ctx);
    // c_str() has the terminator after size() bytes: exactly size() + 1 bytes.
    write_dataset(group, name, type.get(), type.get(), space.get(), text.c_str(), false, ctx);
  }
}

hdf5::Group create_group(hid_t file, const char* name, const ErrorContext& ctx) {
  return hdf5::Group(
      ctx.require(H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), std::string("create group /") + name));
}

void write_contents(hid_t file, const Checkpoint& c, const ErrorContext& ctx) {
  hdf5::write_string_attribute(file, "format", kCheckpointFormat, ctx);
  write_arrays(create_group(file, "arrays", ctx).get(), c.arrays, ctx);
  write_scalars(create_group(file, "scalars", ctx).get(), c.scalars, ctx);
  write_integers(create_group(file, "integers", ctx).get(), c.integers, ctx);
  write_texts(create_group(file, "texts", ctx).get(), c.texts, ctx);
}

// ---- reading ---------------------------------------------------------------

herr_t collect_link_name(hid_t, const char* name, const H5L_info_t*, void* names) {
  try {
    static_cast<std::vector<std::string>*>(names)->emplace_back(name);
    return 0;
  } catch (...) {
    return -1;  // no exception may cross HDF5's C frames
  }
}

/// The names stored in `group`, decoded, in the order of the escaped names.
std::vector<std::pair<std::string, std::string>> entries(hid_t group, const std::string& group_name,
                                                         const ErrorContext& ctx) {
  std::vector<std::string> links;
  ctx.check(H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_link_name, &links), "list /" + group_name);
  std::vector<std::pair<std::string, std::string>> result;  // {link, name}
  std::set<std::string> seen;
  for (const std::string& link : links) {
    const std::optional<std::string> name = hdf5::decode_link_name(link);
    if (!name || !seen.insert(*name).second)
      ctx.fail("read /" + group_name, "'" + link + "' is not a name voltaic writes");
    result.emplace_back(link, *name);
  }
  return result;
}

/// An open dataset with its type and shape, checked against what the group
/// holds: `type_class` and `type_size` (0: any size), rank 1 or scalar.
struct StoredValue {
  hdf5::Dataset dataset;
  hdf5::Datatype type;
  hssize_t points = 0;
};

StoredValue open_value(hid_t group, const std::string& link, const std::string& where_name, H5T_class_t type_class,
                       std::size_t type_size, bool array, const ErrorContext& ctx) {
  const std::string operation = "read " + where_name;
  StoredValue v;
  v.dataset = hdf5::Dataset(ctx.require(H5Dopen2(group, link.c_str(), H5P_DEFAULT), operation));
  v.type = hdf5::Datatype(ctx.require(H5Dget_type(v.dataset.get()), operation));
  hdf5::Dataspace space(ctx.require(H5Dget_space(v.dataset.get()), operation));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  v.points = H5Sget_simple_extent_npoints(space.get());
  const bool shape_ok = array ? rank == 1 : (rank == 0 && v.points == 1);
  const bool type_ok =
      H5Tget_class(v.type.get()) == type_class && (type_size == 0 || H5Tget_size(v.type.get()) == type_size);
  if (!shape_ok || !type_ok) ctx.fail(operation, "it has not the type or shape voltaic writes there");
  return v;
}

void read_arrays(hid_t group, Checkpoint& c, const ErrorContext& ctx) {
  for (const auto& [link, name] : entries(group, "arrays", ctx)) {
    const StoredValue v = open_value(group, link, "/arrays/" + link, H5T_FLOAT, 8, true, ctx);
    // voltaic stores arrays contiguous and uncompressed: a dataset that
    // declares more values than it holds (a crafted file whose checksum
    // matches) is refused before memory is set aside for its points.
    const hsize_t stored = H5Dget_storage_size(v.dataset.get());
    if (v.points < 0 || stored != static_cast<hsize_t>(v.points) * sizeof(double))
      ctx.fail("read /arrays/" + link,
               "it declares " + std::to_string(v.points) + " values but stores " + std::to_string(stored) + " bytes");
    std::vector<double>& values = c.arrays[name];
    values.resize(static_cast<std::size_t>(v.points));
    if (!values.empty())
      ctx.check(H5Dread(v.dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                "read /arrays/" + link);
  }
}

void read_scalars(hid_t group, Checkpoint& c, const ErrorContext& ctx) {
  for (const auto& [link, name] : entries(group, "scalars", ctx)) {
    const StoredValue v = open_value(group, link, "/scalars/" + link, H5T_FLOAT, 8, false, ctx);
    ctx.check(H5Dread(v.dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &c.scalars[name]),
              "read /scalars/" + link);
  }
}

void read_integers(hid_t group, Checkpoint& c, const ErrorContext& ctx) {
  for (const auto& [link, name] : entries(group, "integers", ctx)) {
    const StoredValue v = open_value(group, link, "/integers/" + link, H5T_INTEGER, 8, false, ctx);
    ctx.check(H5Dread(v.dataset.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &c.integers[name]),
              "read /integers/" + link);
  }
}

/// A text in voltaic's fixed-length layout (see text_type): all bytes but the
/// terminator. Variable-length strings (from other writers) up to their NUL.
std::string read_text(const StoredValue& v, const std::string& operation, const ErrorContext& ctx) {
  const htri_t variable = H5Tis_variable_str(v.type.get());
  ctx.check(variable, operation);
  if (variable > 0) {
    char* text = nullptr;
    ctx.check(H5Dread(v.dataset.get(), v.type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &text), operation);
    std::string value = text != nullptr ? text : "";
    H5free_memory(text);
    return value;
  }
  std::string bytes(H5Tget_size(v.type.get()), '\0');
  ctx.check(H5Dread(v.dataset.get(), v.type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), operation);
  if (H5Tget_strpad(v.type.get()) == H5T_STR_NULLTERM) bytes.pop_back();
  return bytes;
}

void read_texts(hid_t group, Checkpoint& c, const ErrorContext& ctx) {
  for (const auto& [link, name] : entries(group, "texts", ctx)) {
    const StoredValue v = open_value(group, link, "/texts/" + link, H5T_STRING, 0, false, ctx);
    c.texts[name] = read_text(v, "read /texts/" + link, ctx);
  }
}

void require_format(hid_t file, const ErrorContext& ctx) {
  const std::optional<std::string> format = hdf5::read_string_attribute(file, "format", ctx);
  if (!format) ctx.fail("open", std::string("not a voltaic checkpoint (no 'format' attribute)"));
  if (*format != kCheckpointFormat)
    ctx.fail("open", "not a voltaic checkpoint (format '" + *format + "', expected '" + kCheckpointFormat + "')");
}

hdf5::Group open_group(hid_t file, const char* name, const ErrorContext& ctx) {
  return hdf5::Group(ctx.require(H5Gopen2(file, name, H5P_DEFAULT), std::string("open group /") + name));
}

}  // namespace

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  const ErrorContext ctx(path, "write_checkpoint");
  hdf5::QuietErrors quiet;
  AtomicFile target(path);  // before `file`: removes the temporary after the file is closed
  // The user block holds the checksum header (checkpoint_seal.hpp).
  const hdf5::PropertyList create(ctx.require(H5Pcreate(H5P_FILE_CREATE), "create the file"));
  ctx.check(H5Pset_userblock(create.get(), detail::kCheckpointHeaderBytes), "create the file");
  hdf5::File file(ctx.require(H5Fcreate(target.temporary_path().c_str(), H5F_ACC_TRUNC, create.get(), H5P_DEFAULT),
                              "create the file"));
  write_contents(file.get(), c, ctx);
  if (!file.close()) ctx.fail("close");
  detail::seal_checkpoint(target.temporary_path());
  target.commit();
}

Checkpoint read_checkpoint(const std::string& path) {
  const ErrorContext ctx(path, "read_checkpoint");
  hdf5::QuietErrors quiet;
  detail::verify_checkpoint(path);  // every byte checked before HDF5 parses one
  hdf5::File file(ctx.require(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open"));
  require_format(file.get(), ctx);
  Checkpoint c;
  read_arrays(open_group(file.get(), "arrays", ctx).get(), c, ctx);
  read_scalars(open_group(file.get(), "scalars", ctx).get(), c, ctx);
  read_integers(open_group(file.get(), "integers", ctx).get(), c, ctx);
  read_texts(open_group(file.get(), "texts", ctx).get(), c, ctx);
  return c;
}

}  // namespace voltaic::io
