// FieldWriter: fields.h5 (grid, /time, one growing dataset per field:
// [frames, cells] under /fields, [frames, columns] under /planes) and
// fields.xdmf describing it for ParaView. Both live under their
// temporary names until commit(); the XDMF temporary is replaced atomically
// after every frame so that it always matches the frames in the HDF5 file.
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "hdf5_attributes.hpp"
#include "hdf5_datasets.hpp"
#include "hdf5_error.hpp"
#include "hdf5_handle.hpp"
#include "hdf5_names.hpp"
#include "voltaic/io/output_writers.hpp"
#include "xdmf.hpp"

namespace voltaic::io {

namespace {

namespace fs = std::filesystem;
using hdf5::ErrorContext;

constexpr const char* kFormat = "voltaic-fields-1";
/// A chunk larger than this is split along cells: HDF5's chunk index and
/// readers' caches work best with chunks of a few MiB.
constexpr hsize_t kMaxChunkBytes = hsize_t{4} << 20;
/// Frames per chunk of /time (8 bytes each).
constexpr hsize_t kTimeChunk = 512;

std::size_t cells_along(const std::vector<double>& nodes, const char* axis, const std::string& path) {
  if (nodes.size() < 2)
    throw InvalidArgument(std::string("field grid ") + axis + "_nodes", "FieldWriter",
                          "'" + path + "': " + std::to_string(nodes.size()) + " nodes, at least 2 needed");
  return nodes.size() - 1;
}

void validate_grid(const FieldGrid& grid, const std::string& path) {
  const std::size_t cells = cells_along(grid.x_nodes, "x", path) * cells_along(grid.y_nodes, "y", path) *
                            cells_along(grid.z_nodes, "z", path);
  if (grid.region.size() != cells)
    throw SizeMismatch("field grid region", "FieldWriter",
                       "'" + path + "': " + std::to_string(grid.region.size()) + " region entries for " +
                           std::to_string(cells) + " cells");
  const bool inside = grid.plane_nx == 0 ? grid.plane_ny == 0 && grid.i_begin == 0 && grid.j_begin == 0
                                         : grid.i_begin >= 0 && grid.j_begin >= 0 &&
                                               grid.i_begin + grid.x_nodes.size() - 1 <= std::size_t(grid.plane_nx) &&
                                               grid.j_begin + grid.y_nodes.size() - 1 <= std::size_t(grid.plane_ny);
  if (!inside)
    throw InvalidArgument("field grid block", "FieldWriter",
                          "'" + path + "': columns from (" + std::to_string(grid.i_begin) + ", " +
                              std::to_string(grid.j_begin) + ") do not fit a plane of " +
                              std::to_string(grid.plane_nx) + " x " + std::to_string(grid.plane_ny));
  if (!grid.plane_z_nodes.empty() && grid.plane_z_nodes.size() != 2)
    throw SizeMismatch("field grid plane_z_nodes", "FieldWriter",
                       "'" + path + "': " + std::to_string(grid.plane_z_nodes.size()) +
                           " nodes; a slab of one cell has 2 (or none: the default slab)");
}

/// The slab the column fields are shown on: the grid's, or the last layer's
/// thickness on top of the grid.
std::vector<double> plane_z_nodes(const FieldGrid& grid) {
  if (!grid.plane_z_nodes.empty()) return grid.plane_z_nodes;
  const std::vector<double>& z = grid.z_nodes;
  return {z.back(), z.back() + (z.back() - z[z.size() - 2])};
}

/// Keys become dataset names and names ParaView attributes: both must be
/// usable as such and unique ("region" is the writer's own attribute).
void validate_fields(const std::vector<FieldDescription>& fields, const std::string& path) {
  std::set<std::string> keys, names{"region"};
  for (const FieldDescription& f : fields) {
    if (f.key.empty() || f.key == "." || f.key.find_first_of(std::string("/\0", 2)) != std::string::npos)
      throw InvalidArgument("field key", "FieldWriter",
                            "'" + path + "': key '" + f.key + "' cannot name a dataset (empty, '.', '/' or NUL)");
    if (f.name.empty())
      throw InvalidArgument("field name", "FieldWriter", "'" + path + "': field '" + f.key + "' has no name");
    if (!keys.insert(f.key).second)
      throw InvalidArgument("field key", "FieldWriter", "'" + path + "': key '" + f.key + "' appears twice");
    if (!names.insert(f.name).second)
      throw InvalidArgument("field name", "FieldWriter",
                            "'" + path + "': name '" + f.name + "' appears twice or is reserved");
  }
}

/// Cells per chunk: one frame's row in the fewest equal pieces of at most kMaxChunkBytes.
hsize_t chunk_cells(hsize_t cells) {
  const hsize_t most = kMaxChunkBytes / sizeof(double);
  const hsize_t pieces = (cells + most - 1) / most;
  return (cells + pieces - 1) / pieces;
}

/// An empty float64 dataset that grows by rows: shape [0] (row_length 0) or
/// [0, row_length], chunked one row (or part of one) per chunk.
hdf5::Dataset create_growing(hid_t parent, const std::string& name, hsize_t row_length, const ErrorContext& ctx) {
  const std::string operation = "create dataset " + name;
  const int rank = row_length == 0 ? 1 : 2;
  const hsize_t dims[2] = {0, row_length};
  const hsize_t max_dims[2] = {H5S_UNLIMITED, row_length};
  const hsize_t chunk[2] = {rank == 1 ? kTimeChunk : 1, rank == 1 ? 0 : chunk_cells(row_length)};
  hdf5::Dataspace space(ctx.require(H5Screate_simple(rank, dims, max_dims), operation));
  hdf5::PropertyList create(ctx.require(H5Pcreate(H5P_DATASET_CREATE), operation));
  ctx.check(H5Pset_chunk(create.get(), rank, chunk), operation);
  // Every element is written before anyone reads it: skip the fill values.
  ctx.check(H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER), operation);
  const hdf5::PropertyList links = hdf5::utf8_link_names(ctx);
  return hdf5::Dataset(
      ctx.require(H5Dcreate2(parent, name.c_str(), H5T_IEEE_F64LE, space.get(), links.get(), create.get(), H5P_DEFAULT),
                  operation));
}

/// Grows `dataset` to frame + 1 rows and writes `values` (row_length of them;
/// 1 for the rank-1 /time) into row `frame` with a single H5Dwrite.
void append_frame(hid_t dataset, hsize_t frame, hsize_t row_length, const double* values, const std::string& name,
                  const ErrorContext& ctx) {
  const std::string operation = "append frame " + std::to_string(frame) + " to " + name;
  const hsize_t extent[2] = {frame + 1, row_length};
  const hsize_t start[2] = {frame, 0};
  const hsize_t count[2] = {1, row_length};
  ctx.check(H5Dset_extent(dataset, extent), operation);
  hdf5::Dataspace file_space(ctx.require(H5Dget_space(dataset), operation));
  ctx.check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), operation);
  hdf5::Dataspace memory_space(ctx.require(H5Screate_simple(1, &row_length, nullptr), operation));
  ctx.check(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, memory_space.get(), file_space.get(), H5P_DEFAULT, values), operation);
}

}  // namespace

struct FieldWriter::Impl {
  enum class State { open, committed, failed };

  Impl(const std::string& h5_path, const std::string& xdmf_path) : h5_target(h5_path), xdmf_target(xdmf_path) {}

  // The targets come first so that they are destroyed last: the handles below
  // close the file before an uncommitted temporary is removed.
  AtomicFile h5_target, xdmf_target;
  XdmfSeries series;
  hdf5::File file;
  hdf5::Dataset time;
  std::vector<hdf5::Dataset> fields;   // in the order of the descriptions
  std::vector<hsize_t> row_lengths;    // values per frame of each: cells or columns
  std::vector<std::string> locations;  // "/fields/KEY" or "/planes/KEY", for messages
  State state = State::open;
  bool xdmf = true;  // write the XDMF file

  void create(const FieldGrid& grid, const std::vector<FieldDescription>& descriptions, const ErrorContext& ctx);
  void write_grid(const FieldGrid& grid, const ErrorContext& ctx);
  void write_xdmf() const;
  void require_open(const char* where) const;
};

void FieldWriter::Impl::create(const FieldGrid& grid, const std::vector<FieldDescription>& descriptions,
                               const ErrorContext& ctx) {
  hdf5::PropertyList access(ctx.require(H5Pcreate(H5P_FILE_ACCESS), "create the file"));
  // Closing the file closes whatever is still open in it, so that commit()
  // really has the file closed (and flushed) before renaming it.
  ctx.check(H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG), "create the file");
  file = hdf5::File(ctx.require(H5Fcreate(h5_target.temporary_path().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()),
                                "create the file"));
  hdf5::write_string_attribute(file.get(), "format", kFormat, ctx);
  hdf5::write_int64_attribute(file.get(), "nx", static_cast<std::int64_t>(series.nx), ctx);
  hdf5::write_int64_attribute(file.get(), "ny", static_cast<std::int64_t>(series.ny), ctx);
  hdf5::write_int64_attribute(file.get(), "nz", static_cast<std::int64_t>(series.nz), ctx);
  // Where this grid lies in the cell's plane (a piece of a cut plane, or all of it).
  hdf5::write_int64_attribute(file.get(), "i_begin", grid.i_begin, ctx);
  hdf5::write_int64_attribute(file.get(), "j_begin", grid.j_begin, ctx);
  hdf5::write_int64_attribute(file.get(), "plane_nx", grid.plane_nx > 0 ? grid.plane_nx : std::int64_t(series.nx), ctx);
  hdf5::write_int64_attribute(file.get(), "plane_ny", grid.plane_ny > 0 ? grid.plane_ny : std::int64_t(series.ny), ctx);
  write_grid(grid, ctx);

  time = create_growing(file.get(), "time", 0, ctx);
  hdf5::write_string_attribute(time.get(), "units", "s", ctx);

  const hdf5::Group cell_group = hdf5::create_group(file.get(), "fields", ctx);
  const hdf5::Group column_group = hdf5::create_group(file.get(), "planes", ctx);
  const hsize_t cells = series.nx * series.ny * series.nz, columns = series.nx * series.ny;
  for (const FieldDescription& d : descriptions) {
    const bool on_columns = d.mesh == FieldMesh::columns;
    row_lengths.push_back(on_columns ? columns : cells);
    locations.push_back((on_columns ? "/planes/" : "/fields/") + d.key);
    fields.push_back(create_growing((on_columns ? column_group : cell_group).get(), d.key, row_lengths.back(), ctx));
    hdf5::write_string_attribute(fields.back().get(), "name", d.name, ctx);
    hdf5::write_string_attribute(fields.back().get(), "units", d.unit, ctx);
  }
  ctx.check(H5Fflush(file.get(), H5F_SCOPE_LOCAL), "flush");
  write_xdmf();
}

void FieldWriter::Impl::write_grid(const FieldGrid& grid, const ErrorContext& ctx) {
  const hdf5::Group group = hdf5::create_group(file.get(), "grid", ctx);
  const std::vector<double> plane = plane_z_nodes(grid);
  const std::pair<const char*, const std::vector<double>*> axes[] = {
      {"x_nodes", &grid.x_nodes}, {"y_nodes", &grid.y_nodes}, {"z_nodes", &grid.z_nodes}, {"plane_z_nodes", &plane}};
  for (const auto& [name, nodes] : axes) {
    const hdf5::Dataset d =
        hdf5::write_array(group.get(), name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, nodes->data(), {nodes->size()}, ctx);
    hdf5::write_string_attribute(d.get(), "units", "m", ctx);
  }
  // H5T_NATIVE_INT describes std::vector<int>; HDF5 converts it to int32 if int is wider.
  hdf5::write_array(group.get(), "region", H5T_STD_I32LE, H5T_NATIVE_INT, grid.region.data(), {grid.region.size()},
                    ctx);
}

void FieldWriter::Impl::write_xdmf() const {
  if (!xdmf) return;
  try {
    write_file_atomically(xdmf_target.temporary_path(), xdmf_document(series));
  } catch (const FileError& e) {
    // Named as the file it becomes, as the HDF5 file's errors name theirs,
    // not as the temporary of its temporary; the system's reason kept.
    const std::string& why = e.why();
    const std::size_t reason = why.find("': ");
    throw FileError(e.what_failed(), "FieldWriter",
                    "cannot write '" + xdmf_target.path() + "'" +
                        (reason == std::string::npos ? ": " + why : why.substr(reason + 1)));
  }
}

void FieldWriter::Impl::require_open(const char* where) const {
  if (state == State::open) return;
  throw FileError("write fields", where,
                  "'" + h5_target.path() + "': the writer is " +
                      (state == State::committed ? "committed" : "unusable after an earlier failure"));
}

FieldWriter::FieldWriter(const std::string& h5_path, const FieldGrid& grid, std::vector<FieldDescription> fields,
                         bool xdmf) {
  const fs::path xdmf_path = fs::path(h5_path).replace_extension(".xdmf");
  if (xdmf_path == fs::path(h5_path))
    throw InvalidArgument("field file name", "FieldWriter", "'" + h5_path + "' would be its own XDMF file");
  validate_grid(grid, h5_path);
  validate_fields(fields, h5_path);

  impl_ = std::make_unique<Impl>(h5_path, xdmf_path.string());
  impl_->xdmf = xdmf;
  XdmfSeries& s = impl_->series;
  s.h5_file = fs::path(h5_path).filename().string();
  s.nx = grid.x_nodes.size() - 1;
  s.ny = grid.y_nodes.size() - 1;
  s.nz = grid.z_nodes.size() - 1;
  for (const FieldDescription& f : fields) {
    const bool on_columns = f.mesh == FieldMesh::columns;
    (on_columns ? s.plane_keys : s.keys).push_back(f.key);
    (on_columns ? s.plane_names : s.names).push_back(f.name);
  }

  hdf5::QuietErrors quiet;
  impl_->create(grid, fields, ErrorContext(h5_path, "FieldWriter"));
}

FieldWriter::~FieldWriter() = default;

void FieldWriter::write(double time, const std::vector<const double*>& data) {
  constexpr const char* where = "FieldWriter::write";
  Impl& w = *impl_;
  w.require_open(where);
  if (data.size() != w.fields.size())
    throw SizeMismatch("field data", where,
                       "'" + w.h5_target.path() + "': " + std::to_string(data.size()) + " arrays for " +
                           std::to_string(w.fields.size()) + " fields");
  for (std::size_t i = 0; i < data.size(); ++i)
    if (data[i] == nullptr)
      throw InvalidArgument("field data", where, "'" + w.h5_target.path() + "': no data for " + w.locations[i]);

  const ErrorContext ctx(w.h5_target.path(), where);
  const hsize_t frame = w.series.times.size();
  hdf5::QuietErrors quiet;
  try {
    for (std::size_t i = 0; i < data.size(); ++i)
      append_frame(w.fields[i].get(), frame, w.row_lengths[i], data[i], w.locations[i], ctx);
    append_frame(w.time.get(), frame, 1, &time, "/time", ctx);
    // Flushed so that the temporary file matches the XDMF written next.
    ctx.check(H5Fflush(w.file.get(), H5F_SCOPE_LOCAL), "flush");
    w.series.times.push_back(time);
    w.write_xdmf();
  } catch (...) {
    // Some datasets may have the new row and others not: refuse to go on.
    w.state = Impl::State::failed;
    throw;
  }
}

std::size_t FieldWriter::frames() const { return impl_->series.times.size(); }

const XdmfSeries& FieldWriter::series() const { return impl_->series; }

void FieldWriter::commit() {
  constexpr const char* where = "FieldWriter::commit";
  Impl& w = *impl_;
  w.require_open(where);
  hdf5::QuietErrors quiet;
  w.state = Impl::State::failed;  // until both renames are done
  w.fields.clear();
  w.time.close();
  if (!w.file.close()) ErrorContext(w.h5_target.path(), where).fail("close");
  // The HDF5 file first: a reader that finds the new XDMF finds its data.
  w.h5_target.commit();
  if (w.xdmf) w.xdmf_target.commit();
  w.state = Impl::State::committed;
}

}  // namespace voltaic::io
