#include "voltaic/io/run_output.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

#include "voltaic/io/atomic_file.hpp"
#include "voltaic/io/checkpoint_file.hpp"
#include "voltaic/io/checkpoint_pieces.hpp"
#include "voltaic/solver/field_catalog.hpp"
#include "xdmf.hpp"

namespace voltaic::io {

namespace fs = std::filesystem;

namespace {

std::string in(const std::string& dir, const std::string& name) { return (fs::path(dir) / name).string(); }

/// The part of `whole` over the columns of `b`.
FieldGrid block_grid(const FieldGrid& whole, const PlaneBlock& b) {
  FieldGrid g = whole;
  g.i_begin = b.i_begin;
  g.j_begin = b.j_begin;
  g.plane_nx = static_cast<int>(whole.x_nodes.size()) - 1;
  g.plane_ny = static_cast<int>(whole.y_nodes.size()) - 1;
  g.x_nodes.assign(whole.x_nodes.begin() + b.i_begin, whole.x_nodes.begin() + b.i_end + 1);
  g.y_nodes.assign(whole.y_nodes.begin() + b.j_begin, whole.y_nodes.begin() + b.j_end + 1);
  const std::size_t nx = whole.x_nodes.size() - 1, columns = nx * (whole.y_nodes.size() - 1);
  g.region.clear();
  for (std::size_t k = 0; k + 1 < whole.z_nodes.size(); ++k)
    for (int j = b.j_begin; j < b.j_end; ++j)
      for (int i = b.i_begin; i < b.i_end; ++i)
        g.region.push_back(whole.region[static_cast<std::size_t>(i) + nx * static_cast<std::size_t>(j) + columns * k]);
  return g;
}

/// The checkpoint piece names of one generation, every rank's.
std::vector<std::string> piece_names(std::size_t ranks, int generation) {
  std::vector<std::string> names;
  for (std::size_t r = 0; r < ranks; ++r)
    names.push_back(checkpoint_piece_path("checkpoint.h5", generation, static_cast<int>(r)));
  return names;
}

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
  static const std::vector<std::string> names = {"timeseries.csv", "cycles.csv", "fields.h5", "fields.xdmf",
                                                 "checkpoint.h5"};
  return names;
}

std::string RunOutput::field_piece_name(int rank) { return "fields.rank-" + std::to_string(rank) + ".h5"; }

RunOutput::RunOutput(const OutputConfig& output, const CellLayout& layout, double start_time,
                     std::optional<RankShare> share)
    : config_(output),
      share_(std::move(share)),
      plane_nx_(layout.spec().nx),
      plane_ny_(layout.spec().ny),
      last_checkpoint_(start_time) {
  if (root()) {
    directory_ = std::make_unique<OutputDirectory>(output.directory);
    staging_ = directory_->staging_path();
    if (share_) share_->staging = staging_;
    csv_ = std::make_unique<TimeseriesCsvWriter>(staged("timeseries.csv"), timeseries_columns());
  } else {
    staging_ = share_->staging;
  }
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
  if (!share_) {
    field_writer_ = std::make_unique<FieldWriter>(staged("fields.h5"), field_grid(layout), described);
    return;
  }
  const PlaneBlock& mine = share_->blocks.at(static_cast<std::size_t>(share_->rank));
  field_writer_ = std::make_unique<FieldWriter>(staged(field_piece_name(share_->rank)),
                                                block_grid(field_grid(layout), mine), described, false);
  if (root()) write_joined_xdmf();
}

std::string RunOutput::staged(const std::string& name) const { return in(staging_, name); }

void RunOutput::write_joined_xdmf() const {
  std::vector<XdmfSeries> pieces;
  for (std::size_t r = 0; r < share_->blocks.size(); ++r) {
    XdmfSeries s = field_writer_->series();
    s.h5_file = field_piece_name(static_cast<int>(r));
    s.nx = static_cast<std::size_t>(share_->blocks[r].nx());
    s.ny = static_cast<std::size_t>(share_->blocks[r].ny());
    pieces.push_back(std::move(s));
  }
  write_file_atomically(staged("fields.xdmf"), xdmf_document(pieces));
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
  if (!csv_) return;  // rank 0 writes the rows
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
  guarded([&] {
    field_writer_->write(time, fields);
    // The other ranks write the same frame of their pieces now.
    if (share_ && root()) write_joined_xdmf();
  });
}

bool RunOutput::checkpoint_due(double time) {
  return config_.checkpoint_period > 0.0 && time >= last_checkpoint_ + config_.checkpoint_period;
}

void RunOutput::on_checkpoint(const Checkpoint& checkpoint) {
  last_checkpoint_ = checkpoint.scalars.at("time");
  if (!share_) {
    guarded([&] { write_checkpoint(staged("checkpoint.h5"), checkpoint); });
    wrote_checkpoint_ = true;
    return;
  }
  guarded([&] {
    write_checkpoint_piece(staged(checkpoint_piece_path("checkpoint.h5", generation_, share_->rank)), checkpoint);
  });
  if (!root()) return;
  unsealed_ = std::make_unique<Checkpoint>();
  *unsealed_ = checkpoint;
  for (auto it = unsealed_->arrays.begin(); it != unsealed_->arrays.end();)
    it = it->first.rfind("state/", 0) == 0 ? unsealed_->arrays.erase(it) : std::next(it);
}

void RunOutput::seal_checkpoint() {
  if (!share_) return;
  if (root()) {
    if (!unsealed_) throw InvalidArgument("checkpoint", "RunOutput::seal_checkpoint", "no piece was written to seal");
    std::vector<CheckpointWindow> windows;
    for (const PlaneBlock& b : share_->blocks) windows.push_back({plane_nx_, plane_ny_, b});
    // Written last, under its temporary name: until renamed, the manifest
    // names the other generation's complete pieces.
    guarded([&] {
      write_checkpoint_manifest(staged("checkpoint.h5"), *unsealed_, piece_names(share_->blocks.size(), generation_),
                                windows);
    });
    unsealed_.reset();
  }
  sealed_ = generation_;
  generation_ = 1 - generation_;
  wrote_checkpoint_ = true;
}

std::string RunOutput::checkpoint_path() const { return in(config_.directory, "checkpoint.h5"); }

void RunOutput::finish(const Solution& solution) {
  on_row(solution);
  if (root() && !solution.cycles.empty()) guarded([&] { write_cycles(solution); });
  commit();
}

void RunOutput::write_cycles(const Solution& solution) {
  std::ostringstream csv;
  csv.precision(17);
  const std::vector<std::string>& names = CycleSummary::names();
  for (std::size_t i = 0; i < names.size(); ++i) csv << (i ? "," : "") << names[i];
  csv << '\n';
  for (const CycleSummary& c : solution.cycles) {
    const std::vector<double> v = c.values();
    csv << c.cycle;  // an integer, as before
    for (std::size_t i = 1; i < v.size(); ++i) csv << ',' << v[i];
    csv << '\n';
  }
  write_file_atomically(staged("cycles.csv"), csv.str());
  wrote_cycles_ = true;
}

void RunOutput::commit() {
  close();
  publish();
}

void RunOutput::close() {
  if (!intact_)
    throw FileError("commit", "RunOutput::commit",
                    "'" + config_.directory + "': an output file failed earlier; the earlier files are kept");
  guarded([&] {
    if (csv_) csv_->commit();
    if (field_writer_) field_writer_->commit();
  });
}

void RunOutput::publish() {
  if (!root()) return;
  std::vector<std::string> names;
  for (const std::string& f : files()) names.push_back(fs::path(f).filename().string());
  directory_->publish(names, replaced_set());
}

std::vector<std::string> RunOutput::replaced_set() const {
  // Exactly the names a run writes: a user's own file beside them stays.
  static const std::regex piece(R"((fields\.rank-[0-9]+|checkpoint\.g[01]\.rank-[0-9]+)\.h5)");
  static const std::regex checkpoint_piece(R"(checkpoint\.g[01]\.rank-[0-9]+\.h5)");
  // A run restarted from this directory's checkpoint that wrote none of its
  // own keeps its source: it is an earlier point of this very run.
  std::error_code ec;
  const bool keep_source =
      !wrote_checkpoint_ && !restarted_from_.empty() && fs::equivalent(restarted_from_, checkpoint_path(), ec);
  std::vector<std::string> set;
  for (const std::string& name : file_names())
    if (!(keep_source && name == "checkpoint.h5")) set.push_back(name);
  for (const auto& entry : fs::directory_iterator(config_.directory, ec)) {
    const std::string name = entry.path().filename().string();
    if (std::regex_match(name, piece) && !(keep_source && std::regex_match(name, checkpoint_piece)))
      set.push_back(name);
  }
  return set;
}

void RunOutput::abandon() {
  csv_.reset();
  field_writer_.reset();
  if (directory_) directory_->abandon();
}

std::vector<std::string> RunOutput::files() const {
  std::vector<std::string> f = {in(config_.directory, "timeseries.csv")};
  if (wrote_cycles_) f.push_back(in(config_.directory, "cycles.csv"));
  const std::size_t ranks = share_ ? share_->blocks.size() : 0;
  if (field_writer_) {
    if (!share_) f.push_back(in(config_.directory, "fields.h5"));
    f.push_back(in(config_.directory, "fields.xdmf"));
    for (std::size_t r = 0; r < ranks; ++r) f.push_back(in(config_.directory, field_piece_name(static_cast<int>(r))));
  }
  if (wrote_checkpoint_) {
    f.push_back(checkpoint_path());
    if (share_)
      for (const std::string& piece : piece_names(ranks, sealed_)) f.push_back(in(config_.directory, piece));
  }
  return f;
}

}  // namespace voltaic::io
