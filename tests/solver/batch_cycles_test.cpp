// BatchObserver::on_cycle: every engine hands the observer each cycle a cell
// ends, as it ends, equal to the result's summaries, and a stopped batch
// resumed from its checkpoint hands each cycle on once over both runs.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "solver/batch_ageing_case.hpp"
#include "test_support.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/cycling.hpp"

namespace voltaic {
namespace {

SimulationOptions ageing() { return test::batch_ageing_options(); }

CellParameters three_cells() {
  return {{"SEI reaction exchange current density [A.m-2]", "Ambient temperature [K]"},
          {1.5e-5, 298.15, 1.5e-4, 308.15, 6e-5, 288.15}};
}

const Experiment& cycling() { return test::batch_ageing_cycles(); }

/// Keeps the summaries on_cycle hands on, per cell; stops the batch once it
/// was handed `stop_after` of them (0: never).
class CycleRecorder : public BatchObserver {
 public:
  explicit CycleRecorder(std::size_t stop_after = 0) : stop_after_(stop_after) {}
  void on_cycle(std::size_t index, const CycleSummary& s) override {
    told[index].push_back(s);
    ++count_;
  }
  std::string stop_reason() override { return stop_after_ > 0 && count_ >= stop_after_ ? "stopped" : ""; }
  double checkpoint_period_s() override { return stop_after_ > 0 ? 0.0 : -1.0; }
  void on_checkpoint(const Checkpoint& c) override { checkpoint = std::make_unique<Checkpoint>(c); }
  std::map<std::size_t, std::vector<CycleSummary>> told;
  std::unique_ptr<Checkpoint> checkpoint;

 private:
  std::size_t stop_after_, count_ = 0;
};

std::vector<BatchCellResult> run(BatchEngine engine, std::shared_ptr<const Executor> exec, BatchObserver* observer,
                                 const Checkpoint* resume = nullptr) {
  BatchOptions b;
  b.threads = 2;
  b.engine = engine;
  b.rows_per_call = 64;  // on CUDA, cycles end inside and between calls
  return BatchSimulation(parameter_sets::okane2022(), three_cells(), ageing(), std::move(exec), b)
      .run(cycling(), observer, resume);
}

void expect_told_as_kept(const CycleRecorder& r, const std::vector<BatchCellResult>& results) {
  for (std::size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE("cell " + std::to_string(i));
    ASSERT_EQ(results[i].status, BatchCellResult::Status::completed);
    ASSERT_EQ(r.told.count(i), 1u);
    const std::vector<CycleSummary>& told = r.told.at(i);
    ASSERT_EQ(told.size(), results[i].cycles.size());
    for (std::size_t c = 0; c < told.size(); ++c) {
      EXPECT_EQ(told[c].cycle, static_cast<int>(c) + 1);
      EXPECT_EQ(told[c].values(), results[i].cycles[c].values());
    }
  }
}

TEST(BatchCycles, EveryEngineHandsOnEachCycleAsItEnds) {
  for (const BatchEngine engine : {BatchEngine::simulation, BatchEngine::cell_program}) {
    SCOPED_TRACE(engine == BatchEngine::simulation ? "simulation" : "cell program");
    CycleRecorder r;
    const std::vector<BatchCellResult> results = run(engine, CpuExecutor::create(), &r);
    expect_told_as_kept(r, results);
  }
}

TEST(BatchCycles, TheGpusCellProgramHandsOnEachCycleAsItEnds) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA test skipped";
  CycleRecorder r;
  const std::vector<BatchCellResult> results = run(BatchEngine::cell_program, gpu, &r);
  expect_told_as_kept(r, results);
}

// Over a stop and a resume (on either backend), each cycle is handed on once:
// a cell's cycles before the stop in the first run, the rest in the second.
TEST(BatchCycles, AResumedBatchGoesOnCountingFromItsCheckpoint) {
  std::vector<std::shared_ptr<const Executor>> backends{CpuExecutor::create()};
  if (const auto gpu = test::cuda_executor()) backends.push_back(gpu);
  for (const auto& exec : backends) {
    SCOPED_TRACE(exec->name());
    CycleRecorder first(2);
    run(BatchEngine::cell_program, exec, &first);
    ASSERT_TRUE(first.checkpoint);
    CycleRecorder second;
    const std::vector<BatchCellResult> results = run(BatchEngine::cell_program, exec, &second, first.checkpoint.get());
    CycleRecorder both;
    for (auto* part : {&first, &second})
      for (const auto& [cell, told] : part->told)
        both.told[cell].insert(both.told[cell].end(), told.begin(), told.end());
    expect_told_as_kept(both, results);
    EXPECT_FALSE(first.told.empty());
    EXPECT_FALSE(second.told.empty());
  }
}

}  // namespace
}  // namespace voltaic
