// Checkpoints of a cell-program batch: a batch stopped with cells finished,
// running and not started goes on from its checkpoint (also through the
// HDF5 file) to results bitwise those of a run never stopped; a checkpoint of
// another batch, or a malformed one, is refused by name.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "solver/batch_ageing_case.hpp"
#include "test_support.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/io/checkpoint_file.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/cycling.hpp"

namespace voltaic {
namespace {

using Status = BatchCellResult::Status;

const char* const kRate = "SEI reaction exchange current density [A.m-2]";
const char* const kAmbient = "Ambient temperature [K]";

SimulationOptions ageing() { return test::batch_ageing_options(); }

CellParameters four_cells() {
  return {{kRate, kAmbient}, {1.5e-5, 298.15, 1.5e-4, 308.15, 3e-4, 298.15, 6e-5, 288.15}};
}

const Experiment& cycling() { return test::batch_ageing_cycles(); }

BatchSimulation batch(const CellParameters& cells, std::shared_ptr<const Executor> exec, int threads = 2) {
  BatchOptions b;
  b.threads = threads;
  return BatchSimulation(parameter_sets::okane2022(), cells, ageing(), std::move(exec), b);
}

/// Stops the batch at its `stop_at`-th poll, or (`after_cells` > 0) at the
/// second poll after that many cells finished, and keeps the checkpoint it is handed.
class Stopper : public BatchObserver {
 public:
  explicit Stopper(int stop_at, double period = 0.0, std::size_t after_cells = 0)
      : stop_at_(stop_at), period_(period), after_cells_(after_cells) {}
  std::string stop_reason() override {
    const bool stop = after_cells_ > 0 ? seen.size() >= after_cells_ && ++after_ >= 2 : ++polls_ >= stop_at_;
    return stop ? "interrupted by SIGINT" : "";
  }
  double checkpoint_period_s() override { return period_; }
  void on_checkpoint(const Checkpoint& c) override {
    checkpoint = std::make_unique<Checkpoint>(c);
    ++checkpoints;
  }
  void on_cell(std::size_t, const BatchCellResult& r) override { seen.push_back(r.status); }
  std::unique_ptr<Checkpoint> checkpoint;
  int checkpoints = 0;
  std::vector<Status> seen;

 private:
  int polls_ = 0, stop_at_, after_ = 0;
  double period_;
  std::size_t after_cells_;
};

void expect_same(const BatchCellResult& a, const BatchCellResult& b) {
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.termination, b.termination);
  EXPECT_EQ(a.steps_taken, b.steps_taken);
  EXPECT_EQ(a.steps_rejected, b.steps_rejected);
  EXPECT_EQ(a.concentration_passes, b.concentration_passes);
  EXPECT_EQ(a.newton_iterations, b.newton_iterations);
  EXPECT_EQ(a.time, b.time);  // exact: the same arithmetic from the same state
  EXPECT_EQ(a.voltage, b.voltage);
  EXPECT_EQ(a.current, b.current);
  EXPECT_EQ(a.temperature, b.temperature);
  EXPECT_EQ(a.discharge_capacity_ah, b.discharge_capacity_ah);
  EXPECT_EQ(a.final_voltage, b.final_voltage);
  ASSERT_EQ(a.cycles.size(), b.cycles.size());
  for (std::size_t c = 0; c < a.cycles.size(); ++c) EXPECT_EQ(a.cycles[c].values(), b.cycles[c].values());
}

/// Stops the batch of `cells` on one thread at poll `stop_at` (0: just after
/// its first cell finished), then goes on from its checkpoint (written to
/// and read from `file` where given).
std::vector<BatchCellResult> stop_and_resume(const CellParameters& cells, int stop_at, const std::string& file = "") {
  Stopper stop(stop_at, 0.0, stop_at == 0 ? 1 : 0);
  const std::vector<BatchCellResult> first = batch(cells, CpuExecutor::create(), 1).run(cycling(), &stop);
  EXPECT_NE(first[0].status, Status::not_run);
  EXPECT_EQ(first.back().status, Status::not_run);  // stopped with cells still to start
  EXPECT_EQ(stop.checkpoints, 1);
  if (!stop.checkpoint) return first;
  Checkpoint c = *stop.checkpoint;
  if (!file.empty()) {
    io::write_checkpoint(file, c);
    c = io::read_checkpoint(file);
  }
  return batch(cells, CpuExecutor::create()).run(cycling(), nullptr, &c);
}

TEST(BatchCheckpoint, AStoppedBatchGoesOnBitForBit) {
  const CellParameters cells = four_cells();
  const std::vector<BatchCellResult> whole = batch(cells, CpuExecutor::create()).run(cycling());
  for (const BatchCellResult& r : whole) ASSERT_NE(r.status, Status::not_run);
  EXPECT_GT(whole[0].cycles.size(), 1u);
  // Stopped in the first cell (running), and just after the first finished
  // (one cell of each kind).
  for (int stop_at : {3, 0}) {
    SCOPED_TRACE("stopped at poll " + std::to_string(stop_at));
    const std::vector<BatchCellResult> resumed = stop_and_resume(cells, stop_at);
    ASSERT_EQ(resumed.size(), whole.size());
    for (std::size_t i = 0; i < whole.size(); ++i) {
      SCOPED_TRACE("cell " + std::to_string(i));
      expect_same(resumed[i], whole[i]);
    }
  }
}

// Every degradation mode and control mode the program runs: a checkpoint
// keeps only the state arrays with their past levels (not the work arrays
// a step writes before it reads), and the cells go on bit for bit from any
// point of a step, a hold or a drive cycle.
TEST(BatchCheckpoint, EveryModeGoesOnFromAnyPoint) {
  struct Case {
    const char* name;
    ParameterSet p;
    SimulationOptions o;
  };
  std::vector<Case> cases;
  SimulationOptions o = ageing();
  o.degradation = DegradationOptions{};
  o.thermal = ThermalModel::isothermal;
  cases.push_back({"Chen2020 isothermal", parameter_sets::chen2020(), o});
  o = ageing();
  o.degradation.lithium_plating = PlatingModel::none;
  o.degradation.sei_porosity_change = true;
  ParameterSet chen = parameter_sets::chen2020();
  chen.sei.exchange_current_density *= 100.0;
  cases.push_back({"SEI with porosity change", chen, o});
  o = ageing();
  o.degradation.lithium_plating = PlatingModel::partially_reversible;
  o.degradation.loss_of_active_material[0] = LamModel::stress_and_reaction_driven;
  o.degradation.loss_of_active_material[1] = LamModel::stress_driven;
  ParameterSet okane = parameter_sets::okane2022();
  okane.negative_lam.reaction_factor = 1.5e-4;
  cases.push_back({"plating and LAM", okane, o});
  o = ageing();
  o.degradation = DegradationOptions{};
  o.degradation.particle_mechanics[0] = o.degradation.particle_mechanics[1] = ParticleMechanics::swelling_only;
  o.degradation.stress_induced_diffusion[0] = StressInducedDiffusion::off;
  cases.push_back({"stress-induced diffusion", parameter_sets::okane2022(), o});
  const Experiment steps({"Discharge at 6 W until 3.2 V", "Rest for 3 minutes", "Charge at 1C until 4.1 V",
                          "Hold at 4.1 V until C/20", "Discharge at 2C for 5 minutes"},
                         2);
  const CellParameters cells{{kAmbient}, {298.15, 308.15}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    BatchOptions one;
    one.threads = 1;
    one.rows_per_call = 16;  // many calls: stops inside every step
    const auto run = [&](BatchObserver* observer, const Checkpoint* from) {
      return BatchSimulation(c.p, cells, c.o, CpuExecutor::create(), one).run(steps, observer, from);
    };
    const std::vector<BatchCellResult> whole = run(nullptr, nullptr);
    ASSERT_EQ(whole[0].status, Status::completed) << whole[0].termination;
    for (int stop_at : {2, 5, 9, 14, 22, 35}) {
      SCOPED_TRACE("stopped at poll " + std::to_string(stop_at));
      Stopper stop(stop_at);
      run(&stop, nullptr);
      ASSERT_TRUE(stop.checkpoint);
      const std::vector<BatchCellResult> resumed = run(nullptr, stop.checkpoint.get());
      for (std::size_t i = 0; i < whole.size(); ++i) expect_same(resumed[i], whole[i]);
    }
  }
}

TEST(BatchCheckpoint, GoesOnThroughTheFile) {
  const CellParameters cells = four_cells();
  const std::vector<BatchCellResult> whole = batch(cells, CpuExecutor::create()).run(cycling());
  const std::string file =
      (std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_voltaic_batch_checkpoint.h5")).string();
  const std::vector<BatchCellResult> resumed = stop_and_resume(cells, 0, file);
  std::filesystem::remove(file);
  for (std::size_t i = 0; i < whole.size(); ++i) {
    SCOPED_TRACE("cell " + std::to_string(i));
    expect_same(resumed[i], whole[i]);
  }
}

TEST(BatchCheckpoint, AResumedBatchHandsOnItsFinishedCellsAndStopsAgain) {
  const CellParameters cells = four_cells();
  const std::vector<BatchCellResult> whole = batch(cells, CpuExecutor::create()).run(cycling());
  Stopper first(0, 0.0, 1);
  batch(cells, CpuExecutor::create(), 1).run(cycling(), &first);
  ASSERT_TRUE(first.checkpoint);
  Stopper second(3);
  batch(cells, CpuExecutor::create(), 1).run(cycling(), &second, first.checkpoint.get());
  ASSERT_TRUE(second.checkpoint);
  EXPECT_EQ(second.seen.front(), Status::completed);  // the finished cell, handed on again
  const std::vector<BatchCellResult> last =
      batch(cells, CpuExecutor::create()).run(cycling(), nullptr, second.checkpoint.get());
  for (std::size_t i = 0; i < whole.size(); ++i) {
    SCOPED_TRACE("cell " + std::to_string(i));
    expect_same(last[i], whole[i]);
  }
}

TEST(BatchCheckpoint, RefusesAnotherBatchsOrAMalformedCheckpoint) {
  const CellParameters cells = four_cells();
  Stopper stop(3);
  batch(cells, CpuExecutor::create(), 1).run(cycling(), &stop);
  ASSERT_TRUE(stop.checkpoint);
  const auto refused = [&](const CellParameters& c, const Experiment& e, const Checkpoint& k, const std::string& why) {
    try {
      batch(c, CpuExecutor::create()).run(e, nullptr, &k);
      ADD_FAILURE() << "not refused: " << why;
    } catch (const InvalidArgument& x) {
      EXPECT_NE(std::string(x.what()).find(why), std::string::npos) << x.what();
    }
  };
  CellParameters other = cells;
  other.values[2] *= 1.01;
  refused(other, cycling(), *stop.checkpoint, "sweep cells");
  const Experiment longer({"Discharge at 1C until 3.0 V", "Rest for 5 minutes", "Charge at 1C until 4.1 V"}, 5);
  refused(cells, longer, *stop.checkpoint, "experiment");
  Checkpoint broken = *stop.checkpoint;
  broken.arrays.erase("states");
  refused(cells, cycling(), broken, "'states'");
  broken = *stop.checkpoint;
  broken.arrays["clocks"].pop_back();
  refused(cells, cycling(), broken, "'clocks'");
  broken = *stop.checkpoint;
  broken.arrays["cell"][0] = 7.0;
  refused(cells, cycling(), broken, "'cell'");
  broken = *stop.checkpoint;
  broken.texts["format"] = "voltaic simulation state 4";
  refused(cells, cycling(), broken, "format");
}

TEST(BatchCheckpoint, TheSimulationEngineRefusesToKeepOne) {
  BatchOptions b;
  b.engine = BatchEngine::simulation;
  BatchSimulation sims(parameter_sets::okane2022(), four_cells(), ageing(), CpuExecutor::create(), b);
  Stopper stop(3);
  EXPECT_THROW(sims.run(cycling(), &stop), InvalidArgument);
}

// On CUDA: a checkpoint taken between two calls (a period shorter than a
// call) goes on bit for bit on either backend.
TEST(BatchCheckpoint, TheGpusCheckpointGoesOnOnEitherBackend) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA test skipped";
  const CellParameters cells = four_cells();
  const std::vector<BatchCellResult> whole = batch(cells, CpuExecutor::create()).run(cycling());
  Stopper periodic(1000000, 1e-9);  // a checkpoint after every call; never stops
  BatchOptions b;
  b.rows_per_call = 64;
  const std::vector<BatchCellResult> gpu_whole =
      BatchSimulation(parameter_sets::okane2022(), cells, ageing(), gpu, b).run(cycling(), &periodic);
  ASSERT_GT(periodic.checkpoints, 2);
  ASSERT_TRUE(periodic.checkpoint);
  for (std::size_t i = 0; i < whole.size(); ++i) expect_same(gpu_whole[i], whole[i]);
  // The last periodic one, and a stopped one, on the CPU and on the GPU.
  Stopper stop(5);
  BatchSimulation(parameter_sets::okane2022(), cells, ageing(), gpu, b).run(cycling(), &stop);
  ASSERT_TRUE(stop.checkpoint);
  for (const Checkpoint* c : {periodic.checkpoint.get(), stop.checkpoint.get()}) {
    const std::vector<std::shared_ptr<const Executor>> backends{CpuExecutor::create(), gpu};
    for (const auto& exec : backends) {
      const std::vector<BatchCellResult> resumed = batch(cells, exec).run(cycling(), nullptr, c);
      for (std::size_t i = 0; i < whole.size(); ++i) {
        SCOPED_TRACE("cell " + std::to_string(i) + " on " + exec->name());
        expect_same(resumed[i], whole[i]);
      }
    }
  }
}

}  // namespace
}  // namespace voltaic
