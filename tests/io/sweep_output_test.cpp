// SweepOutput: summary.csv and curves.h5 read back (cells delivered out of
// order, failed and not-run cells), and the files published as one set.
#include "voltaic/io/sweep_output.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "io/hdf5_test_read.hpp"
#include "io/output_test_support.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/version.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::io {
namespace {

namespace fs = std::filesystem;
namespace h5 = voltaic::test::h5;
using Status = BatchCellResult::Status;
using voltaic::test::entries_of;
using voltaic::test::fresh_dir;
using voltaic::test::read_text;

const std::vector<std::string> kNames = {"Negative electrode thickness [m]", "Ambient temperature [K]"};

CellParameters cells_of(std::size_t n) {
  CellParameters c;
  c.names = kNames;
  for (std::size_t i = 0; i < n; ++i) {
    c.values.push_back(8.52e-05 * (1.0 + 0.1 * static_cast<double>(i)));
    c.values.push_back(298.15 + static_cast<double>(i));
  }
  return c;
}

SweepOutputInfo info() {
  SweepOutputInfo i;
  i.parameter_set = "Chen2020";
  i.experiment = {"Discharge at 1C until 2.5 V", "Rest for 10 minutes"};
  i.method = "grid";
  i.seed = 42;
  i.note = "a note";
  return i;
}

/// A completed cell whose `rows` rows are made from its index, so that every
/// value tells which cell and row it belongs to.
BatchCellResult completed(std::size_t cell, std::size_t rows) {
  BatchCellResult r;
  r.status = Status::completed;
  r.termination = "end of experiment";
  for (std::size_t k = 0; k < rows; ++k) {
    r.time.push_back(10.0 * static_cast<double>(k) + 0.1);
    r.voltage.push_back(4.0 - 1e-3 * static_cast<double>(k) - 0.01 * static_cast<double>(cell));
    r.current.push_back(5.0 + static_cast<double>(cell));
    r.temperature.push_back(298.15 + 0.001 * static_cast<double>(k * (cell + 1)));
  }
  r.discharge_capacity_ah = 0.1 * static_cast<double>(cell + 1);
  r.discharge_energy_wh = 3.7 * r.discharge_capacity_ah;
  r.final_voltage = r.voltage.empty() ? BatchCellResult::kNaN : r.voltage.back();
  r.max_temperature = r.temperature.empty() ? BatchCellResult::kNaN : r.temperature.back();
  r.simulated_time = r.time.empty() ? BatchCellResult::kNaN : r.time.back();
  r.steps_taken = static_cast<int>(rows);
  r.steps_rejected = static_cast<int>(cell);
  return r;
}

BatchCellResult failed(const std::string& why) {
  BatchCellResult r;
  r.status = Status::failed;
  r.termination = why;
  return r;
}

/// The rows of a CSV text, each split into its cells (RFC 4180: a quoted cell
/// may hold commas and doubled quotes).
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        rows.back().back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        rows.back().back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().emplace_back();
    } else if (c == '\n') {
      rows.emplace_back(1);
    } else {
      rows.back().back() += c;
    }
  }
  if (rows.back() == std::vector<std::string>(1)) rows.pop_back();  // after the last '\n'
  return rows;
}

/// A 1D dataset (or attribute) of variable-length strings.
std::vector<std::string> strings_of(hid_t object, bool attribute) {
  hdf5::QuietErrors quiet;
  hdf5::Datatype type(attribute ? H5Aget_type(object) : H5Dget_type(object));
  hdf5::Dataspace space(attribute ? H5Aget_space(object) : H5Dget_space(object));
  EXPECT_GT(H5Tis_variable_str(type.get()), 0);
  std::vector<char*> texts(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get())));
  if (texts.empty()) return {};
  const herr_t status = attribute ? H5Aread(object, type.get(), texts.data())
                                  : H5Dread(object, type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data());
  EXPECT_GE(status, 0);
  std::vector<std::string> out;
  for (char* t : texts) {
    out.emplace_back(t != nullptr ? t : "");
    H5free_memory(t);
  }
  return out;
}

std::vector<std::string> string_array_attribute(hid_t object, const char* name) {
  hdf5::Attribute a(H5Aopen(object, name, H5P_DEFAULT));
  EXPECT_TRUE(a) << "no attribute " << name;
  return a ? strings_of(a.get(), true) : std::vector<std::string>{};
}

std::vector<double> doubles(hid_t file, const std::string& path) {
  const hdf5::Dataset d = h5::dataset(file, path);
  return d ? h5::values<double>(d.get(), H5T_NATIVE_DOUBLE) : std::vector<double>{};
}

std::vector<std::int64_t> int64s(hid_t file, const std::string& path) {
  const hdf5::Dataset d = h5::dataset(file, path);
  return d ? h5::values<std::int64_t>(d.get(), H5T_NATIVE_INT64) : std::vector<std::int64_t>{};
}

std::vector<std::string> strings(hid_t file, const std::string& path) {
  const hdf5::Dataset d = h5::dataset(file, path);
  return d ? strings_of(d.get(), false) : std::vector<std::string>{};
}

bool has_staging(const fs::path& dir) {
  for (const std::string& name : entries_of(dir))
    if (name.rfind(OutputDirectory::kStagingPrefix, 0) == 0) return true;
  return false;
}

TEST(SweepOutput, StatusNames) {
  EXPECT_STREQ(to_string(Status::not_run), "not run");
  EXPECT_STREQ(to_string(Status::completed), "completed");
  EXPECT_STREQ(to_string(Status::stopped), "stopped");
  EXPECT_STREQ(to_string(Status::failed), "failed");
  EXPECT_STREQ(to_string(Status::interrupted), "interrupted");
}

TEST(SweepOutput, SummaryHasOneRowPerCellInIndexOrder) {
  const auto d = fresh_dir("sweep_summary");
  const CellParameters cells = cells_of(3);
  std::vector<BatchCellResult> results = {completed(0, 4), failed("cannot build: a \"bad\", value\nsecond line"),
                                          BatchCellResult{}};
  {
    SweepOutput out(d.string(), cells, info());
    out.on_cell(1, results[1]);
    out.on_cell(0, results[0]);
    out.finish(results);
    EXPECT_TRUE(out.intact());
  }
  const std::string text = read_text(d / "summary.csv");
  const std::string header =
      "cell,Negative electrode thickness [m],Ambient temperature [K],status,Discharge capacity [A.h],"
      "Discharge energy [W.h],Final voltage [V],Maximum temperature [K],Simulated time [s],Steps,Rejected steps,"
      "Termination\n";
  ASSERT_EQ(text.substr(0, header.size()), header);
  // Shortest round-trip numbers; the failed cell's NaNs empty; its termination
  // quoted with its quotes doubled and its line break escaped.
  const std::string rows = text.substr(header.size());
  EXPECT_EQ(
      rows,
      "0,8.52e-05,298.15,completed,0.1,0.37000000000000005,3.997,298.15299999999996,30.1,4,0,\"end of experiment\"\n"
      "1,9.372e-05,299.15,failed,,,,,,0,0,\"cannot build: a \"\"bad\"\", value\\nsecond line\"\n"
      "2,0.00010224,300.15,not run,,,,,,0,0,\"\"\n");

  const auto parsed = parse_csv(text);
  ASSERT_EQ(parsed.size(), 4u);
  for (const auto& row : parsed) EXPECT_EQ(row.size(), 2u + kNames.size() + sweep_summary_columns().size());
  EXPECT_EQ(parsed[2][3], "failed");
  EXPECT_EQ(parsed[2].back(), "cannot build: a \"bad\", value\\nsecond line");
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(parsed[i + 1][0], std::to_string(i));
    for (std::size_t k = 0; k < kNames.size(); ++k)
      EXPECT_EQ(std::strtod(parsed[i + 1][1 + k].c_str(), nullptr), cells.value(i, k)) << i << " " << k;
  }
  EXPECT_EQ(std::strtod(parsed[1][8].c_str(), nullptr), results[0].simulated_time);
}

TEST(SweepOutput, CurvesOfCellsDeliveredOutOfOrderReadBack) {
  const auto d = fresh_dir("sweep_curves");
  const std::size_t n = 5;
  const CellParameters cells = cells_of(n);
  // 5 cells: 1024-row chunks, so that rows are written while cells still come.
  const std::vector<std::size_t> rows = {700, 0, 0, 1, 650};
  std::vector<BatchCellResult> results;
  for (std::size_t i = 0; i < n; ++i) results.push_back(completed(i, rows[i]));
  results[1] = failed("no first row");
  results[2] = BatchCellResult{};  // not run
  results[3].status = Status::interrupted;
  {
    SweepOutput out(d.string(), cells, info());
    for (const std::size_t i : {3u, 0u, 4u, 1u}) out.on_cell(i, results[i]);
    out.finish(results);
  }
  EXPECT_EQ(h5::open_hdf5_objects(), 0);
  EXPECT_EQ(entries_of(d), (std::set<std::string>{"curves.h5", "cycles.csv", "summary.csv"}));  // no lock left

  const hdf5::File f = h5::open((d / "curves.h5").string());
  ASSERT_TRUE(f);
  EXPECT_EQ(h5::string_attribute(f.get(), "format"), "voltaic-sweep-1");
  EXPECT_EQ(h5::string_attribute(f.get(), "voltaic_version"), std::string(version()));
  EXPECT_EQ(h5::string_attribute(f.get(), "parameter_set"), "Chen2020");
  EXPECT_EQ(string_array_attribute(f.get(), "experiment"), info().experiment);
  EXPECT_EQ(h5::string_attribute(f.get(), "method"), "grid");
  EXPECT_EQ(h5::int64_attribute(f.get(), "seed"), 42);
  EXPECT_EQ(h5::string_attribute(f.get(), "note"), "a note");
  EXPECT_EQ(h5::int64_attribute(f.get(), "cells"), 5);

  const hdf5::Dataset parameters = h5::dataset(f.get(), "parameters");
  ASSERT_TRUE(parameters);
  EXPECT_EQ(h5::shape(parameters.get()), (std::vector<hsize_t>{n, kNames.size()}));
  EXPECT_EQ(h5::values<double>(parameters.get(), H5T_NATIVE_DOUBLE), cells.values);
  EXPECT_EQ(string_array_attribute(parameters.get(), "names"), kNames);
  EXPECT_EQ(strings(f.get(), "status"),
            (std::vector<std::string>{"completed", "failed", "not run", "interrupted", "completed"}));
  EXPECT_EQ(strings(f.get(), "termination"), (std::vector<std::string>{"end of experiment", "no first row", "",
                                                                       "end of experiment", "end of experiment"}));

  const std::vector<std::int64_t> start = int64s(f.get(), "start"), count = int64s(f.get(), "count");
  ASSERT_EQ(start.size(), n);
  ASSERT_EQ(count.size(), n);
  const std::vector<double> time = doubles(f.get(), "curves/time"), voltage = doubles(f.get(), "curves/voltage"),
                            current = doubles(f.get(), "curves/current"),
                            temperature = doubles(f.get(), "curves/temperature"),
                            capacity = doubles(f.get(), "curves/discharge_capacity");
  ASSERT_EQ(time.size(), 700u + 1u + 650u);
  for (const auto* v : {&voltage, &current, &temperature, &capacity}) ASSERT_EQ(v->size(), time.size());
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(count[i], static_cast<std::int64_t>(results[i].time.size())) << i;
    ASSERT_LE(start[i] + count[i], static_cast<std::int64_t>(time.size())) << i;
    const auto slice = [&](const std::vector<double>& all) {
      return std::vector<double>(all.begin() + start[i], all.begin() + start[i] + count[i]);
    };
    EXPECT_EQ(slice(time), results[i].time) << i;
    EXPECT_EQ(slice(voltage), results[i].voltage) << i;
    EXPECT_EQ(slice(current), results[i].current) << i;
    EXPECT_EQ(slice(temperature), results[i].temperature) << i;
    // The charge since the start: a constant current of 5 + i A over rows 10 s apart.
    const std::vector<double> q = slice(capacity);
    for (std::size_t k = 0; k < q.size(); ++k)
      EXPECT_NEAR(q[k], (5.0 + static_cast<double>(i)) * 10.0 * static_cast<double>(k) / 3600.0, 1e-12) << i;
  }
  EXPECT_EQ(start[3], 0);  // rows in the order the cells came
  EXPECT_EQ(start[0], 1);
  EXPECT_EQ(start[4], 701);
  for (const char* name :
       {"curves/time", "curves/voltage", "curves/current", "curves/temperature", "curves/discharge_capacity"}) {
    const hdf5::Dataset c = h5::dataset(f.get(), name);
    EXPECT_FALSE(h5::chunk_shape(c.get()).empty()) << name;
    EXPECT_FALSE(h5::string_attribute(c.get(), "name").empty()) << name;
  }
  const hdf5::Dataset t = h5::dataset(f.get(), "curves/temperature");
  EXPECT_EQ(h5::string_attribute(t.get(), "name"), "Cell temperature [K]");
  EXPECT_EQ(h5::string_attribute(t.get(), "units"), "K");
}

// A real cell's capacity curve ends where the summary's discharge capacity
// does: the same trapezoidal rule on the same rows.
TEST(SweepOutput, TheCapacityCurveEndsAtTheSummarysCapacity) {
  const auto d = fresh_dir("sweep_capacity");
  CellParameters cells;
  cells.names = {kNames[0]};
  cells.values = {7e-5, 8.5e-5};
  SimulationOptions o;
  o.grid = {8, 6, 8, 8, 1, 1};
  BatchSimulation batch(parameter_sets::chen2020(), cells, o, CpuExecutor::create(), BatchOptions{1, true});
  const std::vector<BatchCellResult> results =
      batch.run(Experiment({"Discharge at 1C until 3.3 V", "Rest for 5 minutes", "Charge at 0.5C for 10 minutes"}));
  {
    SweepOutput out(d.string(), cells, info());
    for (std::size_t i = 0; i < results.size(); ++i) out.on_cell(i, results[i]);
    out.finish(results);
  }
  const hdf5::File f = h5::open((d / "curves.h5").string());
  ASSERT_TRUE(f);
  const std::vector<double> capacity = doubles(f.get(), "curves/discharge_capacity");
  const std::vector<std::int64_t> start = int64s(f.get(), "start"), count = int64s(f.get(), "count");
  for (std::size_t i = 0; i < results.size(); ++i) {
    ASSERT_EQ(results[i].status, Status::completed) << results[i].termination;
    ASSERT_GT(count[i], 2);
    const double last = capacity[static_cast<std::size_t>(start[i] + count[i] - 1)];
    EXPECT_NEAR(last, results[i].discharge_capacity_ah, 1e-12 * std::fabs(results[i].discharge_capacity_ah)) << i;
  }
}

TEST(SweepOutput, ABatchStoppedBeforeAnyCellListsEveryCellAsNotRun) {
  const auto d = fresh_dir("sweep_not_run");
  const CellParameters cells = cells_of(4);
  {
    SweepOutput out(d.string(), cells, SweepOutputInfo{});
    out.finish(std::vector<BatchCellResult>(4));
  }
  const auto rows = parse_csv(read_text(d / "summary.csv"));
  ASSERT_EQ(rows.size(), 5u);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][3], "not run") << i;
    EXPECT_EQ(rows[i][4], "") << i;
  }
  const hdf5::File f = h5::open((d / "curves.h5").string());
  ASSERT_TRUE(f);
  EXPECT_EQ(strings(f.get(), "status"), std::vector<std::string>(4, "not run"));
  EXPECT_EQ(int64s(f.get(), "count"), std::vector<std::int64_t>(4, 0));
  EXPECT_TRUE(doubles(f.get(), "curves/voltage").empty());
  EXPECT_TRUE(string_array_attribute(f.get(), "experiment").empty());
  EXPECT_EQ(H5Aexists(f.get(), "seed"), 0);  // no seed given, none written
}

TEST(SweepOutput, AbandonKeepsTheEarlierSet) {
  const auto d = fresh_dir("sweep_abandon");
  const CellParameters cells = cells_of(2);
  {
    SweepOutput out(d.string(), cells, info());
    out.on_cell(0, completed(0, 3));
    out.finish({completed(0, 3), completed(1, 2)});
  }
  const std::string summary = read_text(d / "summary.csv"), curves = read_text(d / "curves.h5");
  {
    SweepOutput out(d.string(), cells_of(2), info());
    out.on_cell(1, completed(1, 9));
    EXPECT_TRUE(has_staging(d));
    out.abandon();
    EXPECT_FALSE(has_staging(d));
    EXPECT_THROW(out.on_cell(0, completed(0, 1)), FileError);
  }
  EXPECT_EQ(read_text(d / "summary.csv"), summary);
  EXPECT_EQ(read_text(d / "curves.h5"), curves);
  EXPECT_FALSE(has_staging(d));
}

TEST(SweepOutput, AFailedWriteNamesTheFileAndKeepsTheEarlierSet) {
  const auto d = fresh_dir("sweep_failed_write");
  {
    SweepOutput out(d.string(), cells_of(1), info());
    out.finish({completed(0, 2)});
  }
  const std::string summary = read_text(d / "summary.csv");
  {
    SweepOutput out(d.string(), cells_of(1), info());
    out.on_cell(0, completed(0, 5));
    // A directory in place of summary.csv's temporary: writing it fails.
    const fs::path obstacle = fs::path(out.directory().staging_path()) / ".summary.csv.part";
    fs::create_directory(obstacle);
    try {
      out.finish({completed(0, 5)});
      ADD_FAILURE() << "finish wrote summary.csv through a directory";
    } catch (const FileError& e) {
      EXPECT_NE(e.why().find(out.directory().staging_path()), std::string::npos) << e.why();
    }
    EXPECT_FALSE(out.intact());
    EXPECT_THROW(out.finish({completed(0, 5)}), FileError);
    out.abandon();
  }
  EXPECT_EQ(read_text(d / "summary.csv"), summary);
  EXPECT_FALSE(has_staging(d));
  EXPECT_EQ(h5::open_hdf5_objects(), 0);
}

TEST(SweepOutput, ALockedDirectoryIsRefused) {
  const auto d = fresh_dir("sweep_locked");
  SweepOutput first(d.string(), cells_of(1), info());
  EXPECT_THROW(SweepOutput(d.string(), cells_of(1), info()), OutputLocked);
  first.finish({completed(0, 2)});
  EXPECT_TRUE(fs::exists(d / "curves.h5"));
}

TEST(SweepOutput, RefusesWrongCellsAndResults) {
  const auto d = fresh_dir("sweep_refuses");
  CellParameters ragged = cells_of(2);
  ragged.values.pop_back();
  EXPECT_THROW(SweepOutput(d.string(), ragged, info()), SizeMismatch);
  EXPECT_THROW(SweepOutput(d.string(), CellParameters{}, info()), InvalidArgument);

  SweepOutput out(d.string(), cells_of(2), info());
  EXPECT_THROW(out.on_cell(2, completed(0, 1)), InvalidArgument);
  BatchCellResult uneven = completed(0, 3);
  uneven.current.pop_back();
  EXPECT_THROW(out.on_cell(0, uneven), SizeMismatch);
  out.on_cell(0, completed(0, 3));
  EXPECT_THROW(out.on_cell(0, completed(0, 3)), InvalidArgument);
  EXPECT_THROW(out.finish({completed(0, 3)}), SizeMismatch);
  EXPECT_TRUE(out.intact());
  out.finish({completed(0, 3), completed(1, 1)});
  EXPECT_THROW(out.on_cell(1, completed(1, 1)), FileError);  // finished
  EXPECT_EQ(out.files(), (std::vector<std::string>{(d / "summary.csv").string(), (d / "curves.h5").string(),
                                                   (d / "cycles.csv").string()}));
}

// Batched ageing: one row per cell per cycle it ended, by PyBaMM's summary
// names, in cell order; a cell without summaries (failed, or the cell
// program's) has no rows.
TEST(SweepOutput, CyclesHaveOneRowPerCellPerCycle) {
  const auto d = fresh_dir("sweep_cycles");
  std::vector<BatchCellResult> results = {completed(0, 4), failed("no cell"), completed(2, 3)};
  for (int c = 1; c <= 3; ++c) {
    CycleSummary s;
    s.cycle = c;
    s.capacity = 5.0 - 0.1 * c;
    results[0].cycles.push_back(s);
    if (c <= 2) {
      s.capacity = 4.0 - 0.25 * c;
      results[2].cycles.push_back(s);
    }
  }
  {
    SweepOutput out(d.string(), cells_of(3), info());
    out.finish(results);
  }
  const auto rows = parse_csv(read_text(d / "cycles.csv"));
  ASSERT_EQ(rows.size(), 6u);  // the header, three cycles of cell 0, two of cell 2
  ASSERT_EQ(rows[0].size(), CycleSummary::names().size() + 1);
  EXPECT_EQ(rows[0][0], "cell");
  EXPECT_EQ(rows[0][1], "Cycle number");
  const auto capacity =
      static_cast<std::size_t>(std::find(CycleSummary::names().begin(), CycleSummary::names().end(), "Capacity [A.h]") -
                               CycleSummary::names().begin() + 1);
  const std::vector<std::pair<std::string, double>> expected = {
      {"0", 4.9}, {"0", 4.8}, {"0", 4.7}, {"2", 3.75}, {"2", 3.5}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(rows[i + 1][0], expected[i].first);
    EXPECT_EQ(std::strtod(rows[i + 1][capacity].c_str(), nullptr), expected[i].second) << i;
  }
}

// The cells `voltaic sweep --cells` kept carry their numbers in the whole sweep into every file.
TEST(SweepOutput, KeptCellsGoByTheirNumbersInTheWholeSweep) {
  const auto d = fresh_dir("sweep_numbers");
  std::vector<BatchCellResult> results = {completed(0, 2), completed(1, 3)};
  CycleSummary s;
  s.cycle = 1;
  results[1].cycles.push_back(s);
  SweepOutputInfo kept = info();
  kept.numbers = {7, 42};
  {
    SweepOutput out(d.string(), cells_of(2), kept);
    out.finish(results);
  }
  const auto summary = parse_csv(read_text(d / "summary.csv"));
  ASSERT_EQ(summary.size(), 3u);
  EXPECT_EQ(summary[1][0], "7");
  EXPECT_EQ(summary[2][0], "42");
  const auto cycles = parse_csv(read_text(d / "cycles.csv"));
  ASSERT_EQ(cycles.size(), 2u);
  EXPECT_EQ(cycles[1][0], "42");
  const hdf5::File f = h5::open((d / "curves.h5").string());
  ASSERT_TRUE(f);
  EXPECT_EQ(int64s(f.get(), "cell"), (std::vector<std::int64_t>{7, 42}));

  const auto whole = fresh_dir("sweep_numbers_whole");  // no numbers given: 0, 1, ...
  {
    SweepOutput out(whole.string(), cells_of(2), info());
    out.finish(results);
  }
  const hdf5::File g = h5::open((whole / "curves.h5").string());
  ASSERT_TRUE(g);
  EXPECT_EQ(int64s(g.get(), "cell"), (std::vector<std::int64_t>{0, 1}));
  kept.numbers = {7};
  EXPECT_THROW(SweepOutput(fresh_dir("sweep_numbers_wrong").string(), cells_of(2), kept), SizeMismatch);
}

TEST(SweepOutput, ACellOnCellDidNotSeeKeepsItsCurves) {
  const auto d = fresh_dir("sweep_unseen");
  const std::vector<BatchCellResult> results = {completed(0, 3), completed(1, 5)};
  {
    SweepOutput out(d.string(), cells_of(2), info());
    out.on_cell(1, results[1]);
    out.finish(results);
  }
  const hdf5::File f = h5::open((d / "curves.h5").string());
  ASSERT_TRUE(f);
  EXPECT_EQ(int64s(f.get(), "start"), (std::vector<std::int64_t>{5, 0}));
  EXPECT_EQ(int64s(f.get(), "count"), (std::vector<std::int64_t>{3, 5}));
}

// Timed by hand (docs/getting_started.md, "Sweep output"):
//   voltaic_tests --gtest_also_run_disabled_tests --gtest_filter='SweepOutput.DISABLED_*'
TEST(SweepOutput, DISABLED_Writes100000CellsOf200Rows) {
  const auto d = fresh_dir("sweep_100k");
  const std::size_t n = 100000, rows = 200;
  CellParameters cells;
  cells.names = kNames;
  for (std::size_t i = 0; i < n; ++i) {
    cells.values.push_back(8.52e-05 + 1e-10 * static_cast<double>(i));
    cells.values.push_back(298.15 + 1e-3 * static_cast<double>(i));
  }
  std::vector<BatchCellResult> results(n);
  const BatchCellResult curve = completed(7, rows);
  for (BatchCellResult& r : results) {
    r = curve;
    r.time.clear();  // keep_curves = false: the observer alone sees the curves
    r.voltage.clear();
    r.current.clear();
    r.temperature.clear();
  }
  const auto t0 = std::chrono::steady_clock::now();
  SweepOutput out(d.string(), cells, info());
  for (std::size_t k = 0; k < n; ++k) out.on_cell((k * 7919) % n, curve);  // out of order (7919 is prime)
  const auto t1 = std::chrono::steady_clock::now();
  out.finish(results);
  const auto t2 = std::chrono::steady_clock::now();
  const double stream = std::chrono::duration<double>(t1 - t0).count();
  const double total = std::chrono::duration<double>(t2 - t0).count();
  std::printf(
      "100000 cells x 200 rows: on_cell %.3f s, finish %.3f s, total %.3f s; curves.h5 %.1f MB, "
      "summary.csv %.1f MB\n",
      stream, total - stream, total, static_cast<double>(fs::file_size(d / "curves.h5")) / 1e6,
      static_cast<double>(fs::file_size(d / "summary.csv")) / 1e6);
}

}  // namespace
}  // namespace voltaic::io
