// BatchSimulation: every batched cell is bitwise the cell run alone, for any
// thread count; a bad cell is reported in its result and the others run on;
// a stop request ends the batch without losing what ran.
#include "voltaic/solver/batch_simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/cycling.hpp"
#include "voltaic/solver/memory_estimate.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

using Status = BatchCellResult::Status;

const char* const kThickness = "Negative electrode thickness [m]";
const char* const kAmbient = "Ambient temperature [K]";

SimulationOptions coarse() {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 1, 1};
  o.thermal = ThermalModel::lumped;
  return o;
}

/// Three cells: thickness and ambient temperature vary.
CellParameters three_cells() { return {{kThickness, kAmbient}, {85.2e-6, 298.15, 70e-6, 288.15, 95e-6, 308.15}}; }

const Experiment& discharge() {
  static const Experiment e({"Discharge at 1C until 3.3 V", "Rest for 5 minutes"});
  return e;
}

std::vector<BatchCellResult> run_batch(const CellParameters& cells, int threads, BatchObserver* observer = nullptr,
                                       bool keep_curves = true) {
  BatchSimulation batch(parameter_sets::chen2020(), cells, coarse(), CpuExecutor::create(), {threads, keep_curves});
  return batch.run(discharge(), observer);
}

void expect_bitwise_equal(const BatchCellResult& a, const BatchCellResult& b) {
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.steps_taken, b.steps_taken);
  EXPECT_EQ(a.voltage, b.voltage);  // exact: the same arithmetic in the same order
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.temperature, b.temperature);
  EXPECT_EQ(a.discharge_capacity_ah, b.discharge_capacity_ah);
}

TEST(BatchSimulation, EveryCellIsTheCellRunAlone) {
  const CellParameters cells = three_cells();
  const std::vector<BatchCellResult> batch = run_batch(cells, 2);
  ASSERT_EQ(batch.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    ParameterSet p = parameter_sets::chen2020();
    set_parameter(p, kThickness, cells.value(i, 0));
    set_parameter(p, kAmbient, cells.value(i, 1));
    Simulation alone(p, coarse(), CpuExecutor::create());
    const Solution s = alone.run(discharge());
    EXPECT_EQ(batch[i].status, Status::completed) << batch[i].termination;
    EXPECT_EQ(batch[i].voltage, s["Voltage [V]"]) << "cell " << i;
    EXPECT_EQ(batch[i].time, s["Time [s]"]) << "cell " << i;
    EXPECT_EQ(batch[i].steps_taken, s.steps_taken);
    EXPECT_EQ(batch[i].discharge_capacity_ah, s["Discharge capacity [A.h]"].back());
  }
  // The cells differ: a thinner negative electrode holds less.
  EXPECT_LT(batch[1].discharge_capacity_ah, batch[0].discharge_capacity_ah);
  EXPECT_NE(batch[1].steps_taken + batch[2].steps_taken, 2 * batch[0].steps_taken);
}

// Batched ageing: each cell's cycle summaries (its own SEI rate and
// temperature) are the cell's run alone, kept without the curves; a cell
// the experiment's termination stops early ends there alone.
TEST(BatchSimulation, AgeingCellsKeepTheirCycleSummaries) {
  const char* const kRate = "SEI reaction exchange current density [A.m-2]";
  const CellParameters cells{{kRate, kAmbient}, {1.5e-5, 298.15, 1.5e-4, 308.15, 3e-4, 298.15}};
  SimulationOptions o = coarse();
  o.degradation.sei = SeiModel::reaction_limited;
  Experiment cycling({"Discharge at 1C until 3.0 V", "Charge at 1C until 4.1 V"}, 6);
  cycling.set_termination(parse_cycle_termination({"99% capacity"}));
  BatchSimulation batch(parameter_sets::chen2020(), cells, o, CpuExecutor::create(), {2, false});
  const std::vector<BatchCellResult> results = batch.run(cycling);
  ASSERT_EQ(results.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    ParameterSet p = parameter_sets::chen2020();
    set_parameter(p, kRate, cells.value(i, 0));
    set_parameter(p, kAmbient, cells.value(i, 1));
    const Solution alone = Simulation(p, o, CpuExecutor::create()).run(cycling);
    const BatchCellResult& r = results[i];
    EXPECT_EQ(r.time.capacity() + r.voltage.capacity(),
              0u);  // the curves dropped (their memory too), the summaries kept
    ASSERT_EQ(r.cycles.size(), alone.cycles.size()) << "cell " << i;
    for (std::size_t c = 0; c < r.cycles.size(); ++c) EXPECT_EQ(r.cycles[c].values(), alone.cycles[c].values());
    EXPECT_EQ(r.termination, alone.termination);
  }
  // The slowest film runs every cycle; the fastest stops at 99% of its first capacity.
  EXPECT_EQ(results[0].cycles.size(), 6u);
  EXPECT_LT(results[2].cycles.size(), 6u);
  EXPECT_NE(results[2].termination.find("99% capacity"), std::string::npos) << results[2].termination;
  EXPECT_GT(results[2].cycles.back().sei_lithium_lost, results[0].cycles.back().sei_lithium_lost);
}

TEST(BatchSimulation, ResultsDoNotDependOnTheThreadCount) {
  const std::vector<BatchCellResult> one = run_batch(three_cells(), 1);
  const std::vector<BatchCellResult> three = run_batch(three_cells(), 3);
  for (std::size_t i = 0; i < one.size(); ++i) expect_bitwise_equal(one[i], three[i]);
}

TEST(BatchSimulation, ABadCellIsReportedAndTheOthersRun) {
  CellParameters cells = three_cells();
  cells.values[2] = -1e-5;  // cell 1: a negative thickness
  cells.values[4] = std::nan("");
  const std::vector<BatchCellResult> r = run_batch(cells, 2);
  EXPECT_EQ(r[0].status, Status::completed);
  EXPECT_EQ(r[1].status, Status::failed);
  EXPECT_NE(r[1].termination.find(kThickness), std::string::npos) << r[1].termination;
  EXPECT_TRUE(std::isnan(r[1].final_voltage));
  EXPECT_TRUE(r[1].voltage.empty());
  EXPECT_EQ(r[2].status, Status::failed);
  EXPECT_NE(r[2].termination.find(kThickness), std::string::npos) << r[2].termination;
}

TEST(BatchSimulation, AStepThatCannotRunStopsOnlyItsCell) {
  // Cell 1 starts below its 4.15 V cut-off: its discharge is infeasible.
  const CellParameters cells{{"Lower voltage cut-off [V]"}, {2.5, 4.15, 3.0}};
  const std::vector<BatchCellResult> r = run_batch(cells, 2);
  EXPECT_EQ(r[0].status, Status::completed) << r[0].termination;
  EXPECT_EQ(r[1].status, Status::stopped) << r[1].termination;
  EXPECT_FALSE(r[1].termination.empty());
  EXPECT_EQ(r[2].status, Status::completed) << r[2].termination;
}

/// Records the cells it sees; asks to stop once `stop_after` have finished.
class Recorder : public BatchObserver {
 public:
  explicit Recorder(std::size_t stop_after = 1000) : stop_after_(stop_after) {}
  void on_cell(std::size_t index, const BatchCellResult& r) override {
    seen.push_back(index);
    rows.push_back(r.voltage.size());
  }
  std::string stop_reason() override { return seen.size() >= stop_after_ ? "enough" : ""; }
  std::vector<std::size_t> seen;
  std::vector<std::size_t> rows;

 private:
  std::size_t stop_after_;
};

TEST(BatchSimulation, TheObserverSeesEveryCellOnceAndCurvesMayBeDropped) {
  Recorder recorder;
  const std::vector<BatchCellResult> r = run_batch(three_cells(), 2, &recorder, false);
  ASSERT_EQ(recorder.seen.size(), 3u);
  std::vector<std::size_t> sorted = recorder.seen;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::size_t>{0, 1, 2}));
  for (std::size_t rows : recorder.rows) EXPECT_GT(rows, 10u);  // the observer had the curves
  for (const BatchCellResult& c : r) {
    EXPECT_TRUE(c.voltage.empty());  // ... the results do not keep them
    EXPECT_EQ(c.status, Status::completed);
    EXPECT_GT(c.final_voltage, 3.0);
  }
}

TEST(BatchSimulation, AStopRequestLeavesTheRestNotRun) {
  Recorder recorder(1);  // stop once the first cell has finished
  const std::vector<BatchCellResult> r = run_batch(three_cells(), 1, &recorder);
  EXPECT_EQ(r[0].status, Status::completed);
  EXPECT_EQ(r[1].status, Status::not_run);
  EXPECT_EQ(r[2].status, Status::not_run);
}

/// Asks to stop while the first cell runs (the batch asks once before it starts a cell).
class StopAtOnce : public BatchObserver {
 public:
  std::string stop_reason() override { return ++polls_ > 2 ? "interrupted by SIGINT" : ""; }

 private:
  int polls_ = 0;
};

TEST(BatchSimulation, ARunningCellStopsAtItsNextStepAndKeepsItsRows) {
  StopAtOnce stop;
  const std::vector<BatchCellResult> r = run_batch(three_cells(), 1, &stop);
  EXPECT_EQ(r[0].status, Status::interrupted);
  EXPECT_EQ(r[0].termination, "interrupted by SIGINT");
  EXPECT_FALSE(r[0].voltage.empty());
  EXPECT_EQ(r[1].status, Status::not_run);
}

/// An observer whose output fails (a full disk).
class Failing : public BatchObserver {
 public:
  void on_cell(std::size_t, const BatchCellResult&) override { throw std::runtime_error("disk full"); }
};

TEST(BatchSimulation, AnObserverErrorReachesTheCaller) {
  Failing failing;
  EXPECT_THROW(run_batch(three_cells(), 2, &failing), std::runtime_error);
}

TEST(BatchSimulation, RefusesABatchThatCannotFitInMemory) {
  SimulationOptions huge = coarse();
  huge.grid.radial_shells = 100'000'000;  // tens of gigabytes per Simulation, one per thread
  const CellParameters cells{{kThickness}, std::vector<double>(64, 85.2e-6)};
  try {
    BatchSimulation b(parameter_sets::chen2020(), cells, huge, CpuExecutor::create(), {64, true});
    FAIL() << "a batch of 64 threads x tens of gigabytes was accepted";
  } catch (const InsufficientMemory& e) {
    EXPECT_NE(std::string(e.what()).find("64 cells on 64 threads"), std::string::npos) << e.what();
  }
}

TEST(BatchSimulation, RefusesWhatItCannotRun) {
  const auto make = [](CellParameters cells, SimulationOptions o, int threads = 0) {
    BatchSimulation b(parameter_sets::chen2020(), std::move(cells), o, CpuExecutor::create(), {threads, true});
  };
  EXPECT_THROW(make({{"Negative electrode thickness"}, {1.0}}, coarse()), InvalidArgument);  // no unit: unknown
  EXPECT_THROW(make({{kThickness, kAmbient}, {1.0, 2.0, 3.0}}, coarse()), InvalidArgument);
  EXPECT_THROW(make({{}, {}}, coarse()), InvalidArgument);
  EXPECT_THROW(make(three_cells(), coarse(), -1), InvalidArgument);
  SimulationOptions three_d = coarse();
  three_d.grid.nx = 2;
  EXPECT_THROW(make(three_cells(), three_d), InvalidArgument);
  // Fields: refused by name, not dropped without a word.
  SimulationOptions fields = coarse();
  fields.field_period = 60.0;
  try {
    make(three_cells(), fields);
    FAIL() << "a batch with field output was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("field_period"), std::string::npos) << e.what();
  }
  fields = coarse();
  fields.field_times = {10.0};
  EXPECT_THROW(make(three_cells(), fields), InvalidArgument);
}

}  // namespace
}  // namespace voltaic
