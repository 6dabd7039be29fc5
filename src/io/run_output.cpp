#include "voltaic/io/run_output.hpp"

#include <algorithm>
#include <filesystem>

#include "voltaic/io/checkpoint_file.hpp"
#include "voltaic/solver/field_catalog.hpp"

namespace voltaic::io {

namespace fs = std::filesystem;

namespace {
std::string in(const std::string& dir, const char* name) { return (fs::path(dir) / name).string(); }
}  // namespace

std::vector<std::string> timeseries_columns() {
  std::vector<std::string> columns = Solution::variable_names();
  for (std::string& c : columns)
    if (c == "Volume-averaged cell temperature [K]") c = "Cell temperature [K]";
  return columns;
}

FieldGrid field_grid(const CellLayout& layout) {
  // The whole cell's (a cut plane's layout is a block of it).
  const Grid3D& g = *layout.grid();
  const int nx = layout.spec().nx, ny = layout.spec().ny;
  FieldGrid f;
  for (int i = 0; i <= nx; ++i) f.x_nodes.push_back(i * g.dx());
  for (int j = 0; j <= ny; ++j) f.y_nodes.push_back(j * g.dy());
  f.z_nodes.push_back(0.0);
  for (double dz : g.dz()) f.z_nodes.push_back(f.z_nodes.back() + dz);
  // The column fields are shown on the positive collector foil (a slab as
  // thick as the last layer where a parameter set gives the foil no thickness).
  const double foil = layout.parameters().positive_current_collector.thickness;
  const double top = f.z_nodes.back();
  f.plane_z_nodes = {top, top + (foil > 0.0 ? foil : g.dz().back())};
  const std::size_t columns = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  f.region.resize(columns * static_cast<std::size_t>(g.nz()));
  for (std::size_t c = 0; c < f.region.size(); ++c) f.region[c] = g.region_of_layer()[c / columns];
  return f;
}

const std::vector<std::string>& RunOutput::file_names() {
  static const std::vector<std::string> names = {"timeseries.csv", "fields.h5", "fields.xdmf", "checkpoint.h5"};
  return names;
}

RunOutput::RunOutput(const OutputConfig& output, const CellLayout& layout, double start_time)
    : config_(output), directory_(output.directory), last_checkpoint_(start_time) {
  csv_ = std::make_unique<TimeseriesCsvWriter>(directory_.staged("timeseries.csv"), timeseries_columns());
  const bool fields_asked = !config_.field_times.empty() || config_.field_period > 0.0;
  if (!fields_asked) return;
  std::vector<FieldDescription> described;
  for (const FieldInfo& f : field_catalog()) {
    const bool wanted = config_.fields.empty() ||
                        std::find(config_.fields.begin(), config_.fields.end(), f.key) != config_.fields.end();
    if (!wanted) continue;
    fields_.push_back(f.key);
    described.push_back({f.key, f.name, f.unit, f.kind == FieldKind::column ? FieldMesh::columns : FieldMesh::cells});
  }
  field_writer_ = std::make_unique<FieldWriter>(directory_.staged("fields.h5"), field_grid(layout), described);
}

RunOutput::~RunOutput() = default;

template <class Write>
void RunOutput::guarded(Write&& write) {
  try {
    write();
  } catch (...) {
    intact_ = false;
    throw;
  }
}

void RunOutput::on_row(const Solution& solution) {
  const auto& names = Solution::variable_names();
  std::vector<const std::vector<double>*> columns;
  for (const std::string& n : names) columns.push_back(&solution[n]);
  std::vector<double> row(names.size());
  guarded([&] {
    for (; rows_written_ < solution.rows(); ++rows_written_) {
      for (std::size_t k = 0; k < names.size(); ++k) row[k] = (*columns[k])[rows_written_];
      csv_->append(row);
    }
  });
}

std::vector<std::string> RunOutput::streamed_fields() const { return fields_; }

void RunOutput::on_fields(double time, const std::vector<const double*>& fields) {
  guarded([&] { field_writer_->write(time, fields); });
}

bool RunOutput::checkpoint_due(double time) {
  return config_.checkpoint_period > 0.0 && time >= last_checkpoint_ + config_.checkpoint_period;
}

void RunOutput::on_checkpoint(const Checkpoint& checkpoint) {
  guarded([&] { write_checkpoint(directory_.staged("checkpoint.h5"), checkpoint); });
  last_checkpoint_ = checkpoint.scalars.at("time");
  wrote_checkpoint_ = true;
}

std::string RunOutput::checkpoint_path() const { return in(config_.directory, "checkpoint.h5"); }

void RunOutput::finish(const Solution& solution) {
  on_row(solution);
  commit();
}

void RunOutput::commit() {
  if (!intact_)
    throw FileError("commit", "RunOutput::commit",
                    "'" + config_.directory + "': an output file failed earlier; the earlier files are kept");
  guarded([&] {
    if (csv_) csv_->commit();
    if (field_writer_) field_writer_->commit();
  });
  std::vector<std::string> names;
  for (const std::string& f : files()) names.push_back(fs::path(f).filename().string());
  directory_.publish(names, file_names());
}

void RunOutput::abandon() {
  csv_.reset();
  field_writer_.reset();
  directory_.abandon();
}

std::vector<std::string> RunOutput::files() const {
  std::vector<std::string> f = {in(config_.directory, "timeseries.csv")};
  if (field_writer_) {
    f.push_back(in(config_.directory, "fields.h5"));
    f.push_back(in(config_.directory, "fields.xdmf"));
  }
  if (wrote_checkpoint_) f.push_back(checkpoint_path());
  return f;
}

}  // namespace voltaic::io
