// SweepOutput: a sweep's curves.h5, streamed as cells finish, and its
// summary.csv, written at the end; both published as one set. curves.h5 is
// ragged: per quantity one growing dataset holding every cell's rows in the
// order the cells came, and a start/count table in cell order. One group per
// cell costs about half a millisecond a cell (docs/getting_started.md).
#include "voltaic/io/sweep_output.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <utility>

#include "hdf5_attributes.hpp"
#include "hdf5_datasets.hpp"
#include "hdf5_error.hpp"
#include "hdf5_handle.hpp"
#include "io/csv_text.hpp"
#include "number_format.hpp"
#include "voltaic/core/version.hpp"

namespace voltaic::io {

namespace fs = std::filesystem;

namespace {

using hdf5::ErrorContext;

constexpr const char* kFormat = "voltaic-sweep-1";
constexpr const char* kSummary = "summary.csv";
constexpr const char* kCurves = "curves.h5";
constexpr const char* kCycles = "cycles.csv";

/// One time series of every cell: its dataset in /curves and its PyBaMM name;
/// `values` null for one derived from the others (discharge_capacity).
struct Quantity {
  const char* key;
  const char* name;
  const char* units;
  std::vector<double> BatchCellResult::*values;
};
constexpr std::array<Quantity, 5> kQuantities = {{
    {"time", "Time [s]", "s", &BatchCellResult::time},
    {"voltage", "Voltage [V]", "V", &BatchCellResult::voltage},
    {"current", "Current [A]", "A", &BatchCellResult::current},
    {"temperature", "Cell temperature [K]", "K", &BatchCellResult::temperature},
    {"discharge_capacity", "Discharge capacity [A.h]", "A.h", nullptr},
}};

/// The charge through the terminals since the start [A h], row by row: the
/// trapezoidal rule on the current, as the engines count the summary's
/// discharge capacity (stepping::account).
std::vector<double> discharge_capacity(const BatchCellResult& r) {
  std::vector<double> q(r.time.size(), 0.0);
  for (std::size_t i = 1; i < q.size(); ++i)
    q[i] = q[i - 1] + 0.5 * (r.current[i - 1] + r.current[i]) * (r.time[i] - r.time[i - 1]) / 3600.0;
  return q;
}

/// Rows per chunk of the curve datasets: about 64 per cell, from 1 Ki rows
/// (8 KiB, a small sweep's file stays small) to 64 Ki rows (512 KiB, within
/// HDF5's default chunk cache of 1 MiB per dataset).
hsize_t chunk_rows(std::size_t cells) {
  constexpr hsize_t kFewest = hsize_t{1} << 10, kMost = hsize_t{1} << 16;
  hsize_t rows = kFewest;
  while (rows < kMost && rows < hsize_t{64} * cells) rows *= 2;
  return rows;
}

/// An empty float64 dataset of shape [0] growing without bound, chunked by `chunk` rows.
hdf5::Dataset create_growing(hid_t parent, const std::string& name, hsize_t chunk, const ErrorContext& ctx) {
  const std::string operation = "create dataset " + name;
  const hsize_t dims = 0, max_dims = H5S_UNLIMITED;
  hdf5::Dataspace space(ctx.require(H5Screate_simple(1, &dims, &max_dims), operation));
  hdf5::PropertyList create(ctx.require(H5Pcreate(H5P_DATASET_CREATE), operation));
  ctx.check(H5Pset_chunk(create.get(), 1, &chunk), operation);
  // Every element is written before anyone reads it: skip the fill values.
  ctx.check(H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER), operation);
  return hdf5::Dataset(
      ctx.require(H5Dcreate2(parent, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, create.get(), H5P_DEFAULT),
                  operation));
}

/// Grows the 1D `dataset` from `at` to at + n values and writes `values` there with a single H5Dwrite.
void append_values(hid_t dataset, hsize_t at, hsize_t n, const double* values, const std::string& name,
                   const ErrorContext& ctx) {
  const std::string operation = "append " + std::to_string(n) + " rows to " + name;
  const hsize_t extent = at + n;
  ctx.check(H5Dset_extent(dataset, &extent), operation);
  hdf5::Dataspace file_space(ctx.require(H5Dget_space(dataset), operation));
  ctx.check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &at, nullptr, &n, nullptr), operation);
  hdf5::Dataspace memory_space(ctx.require(H5Screate_simple(1, &n, nullptr), operation));
  ctx.check(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, memory_space.get(), file_space.get(), H5P_DEFAULT, values), operation);
}

/// A number of summary.csv: shortest round-trip form, empty for NaN (a value the cell does not have).
void append_number(std::string& line, double value) {
  if (!std::isnan(value)) append_shortest(line, value);
}

std::string summary_csv(const CellParameters& cells, const std::vector<std::size_t>& numbers,
                        const std::vector<BatchCellResult>& results) {
  std::vector<std::string> header = {"cell"};
  header.insert(header.end(), cells.names.begin(), cells.names.end());
  header.push_back("status");
  const std::vector<std::string>& columns = sweep_summary_columns();
  header.insert(header.end(), columns.begin(), columns.end());
  std::string text = csv_header_line(header);
  for (std::size_t i = 0; i < results.size(); ++i) {
    const BatchCellResult& r = results[i];
    text += std::to_string(numbers[i]);
    for (std::size_t k = 0; k < cells.names.size(); ++k) {
      text += ',';
      append_number(text, cells.value(i, k));
    }
    text += ',';
    text += to_string(r.status);
    for (const double v :
         {r.discharge_capacity_ah, r.discharge_energy_wh, r.final_voltage, r.max_temperature, r.simulated_time}) {
      text += ',';
      append_number(text, v);
    }
    text += ',' + std::to_string(r.steps_taken) + ',' + std::to_string(r.steps_rejected) + ',';
    text += csv_quoted_line(r.termination);
    text += '\n';
  }
  return text;
}

/// One row per cell per cycle it ended: the cell, then CycleSummary's
/// columns by PyBaMM's names (a cell without summaries has no rows).
std::string cycles_csv(const std::vector<std::size_t>& numbers, const std::vector<BatchCellResult>& results) {
  std::vector<std::string> header = {"cell"};
  const std::vector<std::string>& names = CycleSummary::names();
  header.insert(header.end(), names.begin(), names.end());
  std::string text = csv_header_line(header);
  for (std::size_t i = 0; i < results.size(); ++i) {
    for (const CycleSummary& c : results[i].cycles) {
      text += std::to_string(numbers[i]);
      for (const double v : c.values()) {
        text += ',';
        append_number(text, v);
      }
      text += '\n';
    }
  }
  return text;
}

/// `cells`, when they are at least one whole cell (checked before the directory is locked).
const CellParameters& checked_cells(const CellParameters& cells, const std::string& directory) {
  if (cells.names.empty() || cells.values.empty())
    throw InvalidArgument("sweep cells", "SweepOutput", "'" + directory + "': no cells to write");
  if (cells.values.size() % cells.names.size() != 0)
    throw SizeMismatch("sweep cells", "SweepOutput",
                       "'" + directory + "': " + std::to_string(cells.values.size()) + " values for " +
                           std::to_string(cells.names.size()) + " parameters are not a whole number of cells");
  return cells;
}

/// SweepOutputInfo::numbers, one per cell (0, 1, ... when it gives none).
std::vector<std::size_t> checked_numbers(const std::vector<std::size_t>& numbers, std::size_t cells,
                                         const std::string& directory) {
  if (numbers.empty()) {
    std::vector<std::size_t> all(cells);
    for (std::size_t i = 0; i < cells; ++i) all[i] = i;
    return all;
  }
  if (numbers.size() != cells)
    throw SizeMismatch(
        "cell numbers", "SweepOutput",
        "'" + directory + "': " + std::to_string(numbers.size()) + " numbers for " + std::to_string(cells) + " cells");
  return numbers;
}

}  // namespace

const std::vector<std::string>& sweep_summary_columns() {
  static const std::vector<std::string> columns = {"Discharge capacity [A.h]", "Discharge energy [W.h]",
                                                   "Final voltage [V]",        "Maximum temperature [K]",
                                                   "Simulated time [s]",       "Steps",
                                                   "Rejected steps",           "Termination"};
  return columns;
}

/// curves.h5 while the sweep runs: the file, its curve datasets, the rows not
/// yet written (whole chunks are written as they fill) and where each cell's
/// rows are.
struct SweepOutput::Curves {
  Curves(std::string file_path, std::size_t cells)
      : path(std::move(file_path)), chunk(chunk_rows(cells)), start(cells, 0), count(cells, 0), seen(cells, 0) {}

  std::string path;
  hsize_t chunk;
  hdf5::File file;
  std::array<hdf5::Dataset, kQuantities.size()> datasets;
  std::array<std::vector<double>, kQuantities.size()> pending;
  hsize_t written = 0;  // rows in the datasets
  std::vector<std::int64_t> start, count;
  std::vector<char> seen;
  bool closed = false;

  void create(const CellParameters& cells, const std::vector<std::size_t>& numbers, const SweepOutputInfo& info,
              const ErrorContext& ctx);
  void append(std::size_t index, const BatchCellResult& r, const ErrorContext& ctx);
  /// Writes the first `rows` pending rows of every curve.
  void flush(hsize_t rows, const ErrorContext& ctx);
  void close(const std::vector<BatchCellResult>& results, const ErrorContext& ctx);
};

void SweepOutput::Curves::create(const CellParameters& cells, const std::vector<std::size_t>& numbers,
                                 const SweepOutputInfo& info, const ErrorContext& ctx) {
  hdf5::PropertyList access(ctx.require(H5Pcreate(H5P_FILE_ACCESS), "create the file"));
  // Closing the file closes whatever is still open in it, so that finish()
  // really has the file closed (and flushed) before publishing it.
  ctx.check(H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG), "create the file");
  file = hdf5::File(ctx.require(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), "create the file"));
  const hid_t root = file.get();
  hdf5::write_string_attribute(root, "format", kFormat, ctx);
  hdf5::write_string_attribute(root, "voltaic_version", version(), ctx);
  hdf5::write_string_attribute(root, "parameter_set", info.parameter_set, ctx);
  hdf5::write_string_array_attribute(root, "experiment", info.experiment, ctx);
  hdf5::write_string_attribute(root, "method", info.method, ctx);
  if (info.seed) hdf5::write_int64_attribute(root, "seed", *info.seed, ctx);
  hdf5::write_string_attribute(root, "note", info.note, ctx);
  hdf5::write_int64_attribute(root, "cells", static_cast<std::int64_t>(cells.num_cells()), ctx);

  const hdf5::Dataset parameters = hdf5::write_array(root, "parameters", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                                     cells.values.data(), {cells.num_cells(), cells.names.size()}, ctx);
  hdf5::write_string_array_attribute(parameters.get(), "names", cells.names, ctx);
  const std::vector<std::int64_t> cell(numbers.begin(), numbers.end());
  hdf5::write_array(root, "cell", H5T_STD_I64LE, H5T_NATIVE_INT64, cell.data(), {cell.size()}, ctx);

  const hdf5::Group group = hdf5::create_group(root, "curves", ctx);
  for (std::size_t q = 0; q < kQuantities.size(); ++q) {
    datasets[q] = create_growing(group.get(), kQuantities[q].key, chunk, ctx);
    hdf5::write_string_attribute(datasets[q].get(), "name", kQuantities[q].name, ctx);
    hdf5::write_string_attribute(datasets[q].get(), "units", kQuantities[q].units, ctx);
    pending[q].reserve(2 * chunk);
  }
}

void SweepOutput::Curves::append(std::size_t index, const BatchCellResult& r, const ErrorContext& ctx) {
  const std::size_t rows = (r.*kQuantities[0].values).size();
  seen[index] = 1;
  start[index] = static_cast<std::int64_t>(written + pending[0].size());
  count[index] = static_cast<std::int64_t>(rows);
  for (std::size_t q = 0; q < kQuantities.size(); ++q) {
    const std::vector<double> derived = kQuantities[q].values ? std::vector<double>() : discharge_capacity(r);
    const std::vector<double>& v = kQuantities[q].values ? r.*kQuantities[q].values : derived;
    pending[q].insert(pending[q].end(), v.begin(), v.end());
  }
  // Whole chunks only: each is written once, never read back and rewritten.
  if (pending[0].size() >= chunk) flush(pending[0].size() / chunk * chunk, ctx);
}

void SweepOutput::Curves::flush(hsize_t rows, const ErrorContext& ctx) {
  if (rows == 0) return;
  for (std::size_t q = 0; q < kQuantities.size(); ++q)
    append_values(datasets[q].get(), written, rows, pending[q].data(), std::string("/curves/") + kQuantities[q].key,
                  ctx);
  for (std::vector<double>& p : pending) p.erase(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(rows));
  written += rows;
}

void SweepOutput::Curves::close(const std::vector<BatchCellResult>& results, const ErrorContext& ctx) {
  closed = true;  // whatever happens below, no more rows
  flush(pending[0].size(), ctx);
  const hid_t root = file.get();
  std::vector<std::string> status, termination;
  for (const BatchCellResult& r : results) {
    status.emplace_back(to_string(r.status));
    termination.push_back(r.termination);
  }
  hdf5::write_strings(root, "status", status, ctx);
  hdf5::write_strings(root, "termination", termination, ctx);
  const hsize_t n = start.size();
  hdf5::write_array(root, "start", H5T_STD_I64LE, H5T_NATIVE_INT64, start.data(), {n}, ctx);
  hdf5::write_array(root, "count", H5T_STD_I64LE, H5T_NATIVE_INT64, count.data(), {n}, ctx);
  for (hdf5::Dataset& d : datasets) d.close();
  if (!file.close()) ctx.fail("close");
}

const std::vector<std::string>& SweepOutput::file_names() {
  static const std::vector<std::string> names = {kSummary, kCurves, kCycles};
  return names;
}

SweepOutput::SweepOutput(const std::string& directory, const CellParameters& cells, const SweepOutputInfo& info)
    : cells_(checked_cells(cells, directory)),
      numbers_(checked_numbers(info.numbers, cells_.num_cells(), directory)),
      directory_(directory) {
  curves_ = std::make_unique<Curves>(directory_.staged(kCurves), cells_.num_cells());
  hdf5::QuietErrors quiet;
  curves_->create(cells_, numbers_, info, ErrorContext(curves_->path, "SweepOutput"));
}

SweepOutput::~SweepOutput() = default;

template <class Write>
void SweepOutput::guarded(Write&& write) {
  try {
    write();
  } catch (...) {
    intact_ = false;
    throw;
  }
}

SweepOutput::Curves& SweepOutput::writer(const char* where) {
  if (!curves_ || curves_->closed || !intact_)
    throw FileError("write", where,
                    "'" + directory_.path() + "': the sweep output is " +
                        (!curves_          ? "abandoned"
                         : curves_->closed ? "finished"
                                           : "unusable after an earlier failure"));
  return *curves_;
}

void SweepOutput::on_cell(std::size_t index, const BatchCellResult& result) {
  constexpr const char* where = "SweepOutput::on_cell";
  Curves& c = writer(where);
  if (index >= c.seen.size())
    throw InvalidArgument("cell index", where,
                          "'" + directory_.path() + "': cell " + std::to_string(index) + " of a sweep of " +
                              std::to_string(c.seen.size()) + " cells");
  if (c.seen[index])
    throw InvalidArgument("cell index", where,
                          "'" + directory_.path() + "': cell " + std::to_string(index) + " was written before");
  const std::size_t rows = (result.*kQuantities[0].values).size();
  for (const Quantity& q : kQuantities)
    if (q.values && (result.*q.values).size() != rows)
      throw SizeMismatch("cell curves", where,
                         "'" + directory_.path() + "': cell " + std::to_string(index) + " has " + std::to_string(rows) +
                             " times and " + std::to_string((result.*q.values).size()) + " values of " + q.name);
  hdf5::QuietErrors quiet;
  guarded([&] { c.append(index, result, ErrorContext(c.path, where)); });
}

void SweepOutput::finish(const std::vector<BatchCellResult>& results) {
  constexpr const char* where = "SweepOutput::finish";
  if (!intact_)
    throw FileError("finish", where,
                    "'" + directory_.path() + "': an output file failed earlier; the earlier files are kept");
  Curves& c = writer(where);
  if (results.size() != c.seen.size())
    throw SizeMismatch("sweep results", where,
                       "'" + directory_.path() + "': " + std::to_string(results.size()) + " results for " +
                           std::to_string(c.seen.size()) + " cells");
  // A cell on_cell did not see (an observer attached to part of the run) keeps its curves too.
  for (std::size_t i = 0; i < results.size(); ++i)
    if (!c.seen[i] && results[i].status != BatchCellResult::Status::not_run) on_cell(i, results[i]);
  hdf5::QuietErrors quiet;
  guarded([&] {
    c.close(results, ErrorContext(c.path, where));
    write_file_atomically(directory_.staged(kSummary), summary_csv(cells_, numbers_, results));
    write_file_atomically(directory_.staged(kCycles), cycles_csv(numbers_, results));
  });
  directory_.publish(file_names(), file_names());
}

SweepOutputInfo sweep_output_info(const SweepRunConfig& config) {
  SweepOutputInfo info;
  info.parameter_set = config.run.cell_source;
  info.experiment = config.run.experiment_steps;
  if (config.run.cycles > 1) info.note = "the experiment repeated " + std::to_string(config.run.cycles) + " times";
  info.method = to_string(config.sweep.method);
  const bool random =
      config.sweep.method == SweepConfig::Method::random || config.sweep.method == SweepConfig::Method::latin_hypercube;
  if (random) info.seed = static_cast<std::int64_t>(config.sweep.seed);
  info.numbers = config.sweep.numbers;
  if (config.sweep.total_cells > 0) {
    if (!info.note.empty()) info.note += "; ";
    info.note += std::to_string(config.sweep.cells.num_cells()) + " of the sweep's " +
                 std::to_string(config.sweep.total_cells) + " cells (their numbers in /cell)";
  }
  return info;
}

void SweepOutput::abandon() {
  curves_.reset();
  directory_.abandon();
}

std::vector<std::string> SweepOutput::files() const {
  std::vector<std::string> f;
  for (const std::string& name : file_names()) f.push_back((fs::path(directory_.path()) / name).string());
  return f;
}

}  // namespace voltaic::io
