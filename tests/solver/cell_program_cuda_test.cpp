// The batch cell program on CUDA: bitwise the CPU's (the same arithmetic:
// sums in the warp's order, Thomas on lane 0, no contraction, pmath::exp;
// cell_program.hpp), and every batched cell bitwise the same cell run alone
// by the program on the GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "test_support.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/cycling.hpp"
#include "voltaic/solver/drive_cycle.hpp"

namespace voltaic {
namespace {

using Status = BatchCellResult::Status;

const char* const kThickness = "Negative electrode thickness [m]";
const char* const kRadius = "Positive particle radius [m]";

SimulationOptions options() {
  SimulationOptions o;
  o.grid = {10, 6, 10, 10, 1, 1};
  o.thermal = ThermalModel::lumped;
  o.steps.event_tolerance = 1e-10;  // both backends locate their cut-offs far inside 1e-8 V
  return o;
}

const Experiment& cycle() {
  static const Experiment e(
      {"Discharge at 2C until 3.0 V", "Rest for 10 minutes", "Charge at 1C until 4.1 V", "Hold at 4.1 V until C/10"});
  return e;
}

CellParameters cells(std::size_t count) {
  CellParameters c{{kThickness, kRadius}, {}};
  for (std::size_t i = 0; i < count; ++i) {
    c.values.push_back(85.2e-6 * (0.8 + 0.4 * double(i) / double(count)));
    c.values.push_back(5.22e-6 * (1.2 - 0.4 * double((i * 7) % count) / double(count)));
  }
  return c;
}

std::vector<BatchCellResult> run(const CellParameters& c, std::shared_ptr<const Executor> exec) {
  BatchOptions b;
  b.engine = BatchEngine::cell_program;
  return BatchSimulation(parameter_sets::chen2020(), c, options(), std::move(exec), b).run(cycle());
}

/// The GPU's result is the CPU's, bit for bit.
void expect_same_bits(const BatchCellResult& gpu, const BatchCellResult& cpu) {
  EXPECT_EQ(gpu.steps_taken, cpu.steps_taken);
  EXPECT_EQ(gpu.steps_rejected, cpu.steps_rejected);
  EXPECT_EQ(gpu.newton_iterations, cpu.newton_iterations);
  EXPECT_EQ(gpu.time, cpu.time);
  EXPECT_EQ(gpu.voltage, cpu.voltage);
  EXPECT_EQ(gpu.current, cpu.current);
  EXPECT_EQ(gpu.temperature, cpu.temperature);
  EXPECT_EQ(gpu.discharge_capacity_ah, cpu.discharge_capacity_ah);
  ASSERT_EQ(gpu.cycles.size(), cpu.cycles.size());
  for (std::size_t c = 0; c < cpu.cycles.size(); ++c) EXPECT_EQ(gpu.cycles[c].values(), cpu.cycles[c].values());
}

TEST(CellProgramCuda, MatchesTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  const CellParameters c = cells(6);
  const auto a = run(c, CpuExecutor::create()), b = run(c, gpu);
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE("cell " + std::to_string(i));
    ASSERT_EQ(a[i].status, Status::completed) << a[i].termination;
    EXPECT_EQ(b[i].status, a[i].status) << b[i].termination;
    EXPECT_EQ(b[i].termination, a[i].termination);
    expect_same_bits(b[i], a[i]);
  }
}

TEST(CellProgramCuda, EveryBatchedCellIsTheCellRunAlone) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA test skipped";
  const CellParameters c = cells(70);  // more than one block of threads
  const auto batch = run(c, gpu);
  for (std::size_t i : {std::size_t{0}, std::size_t{33}, std::size_t{69}}) {
    const CellParameters one{c.names, {c.value(i, 0), c.value(i, 1)}};
    const auto alone = run(one, gpu);
    EXPECT_EQ(batch[i].voltage, alone[0].voltage) << "cell " << i;  // exact
    EXPECT_EQ(batch[i].time, alone[0].time) << "cell " << i;
    EXPECT_EQ(batch[i].steps_taken, alone[0].steps_taken);
  }
}

TEST(CellProgramCuda, ABadCellIsReportedAndTheOthersRun) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA test skipped";
  CellParameters c = cells(3);
  c.values[2] = -1.0;  // cell 1: a negative thickness
  const auto r = run(c, gpu);
  EXPECT_EQ(r[0].status, Status::completed) << r[0].termination;
  EXPECT_EQ(r[1].status, Status::failed);
  EXPECT_NE(r[1].termination.find("thickness"), std::string::npos) << r[1].termination;
  EXPECT_EQ(r[2].status, Status::completed) << r[2].termination;
}

// A cell that stops making progress (max_steps; the electrolyte of the base
// cell runs out at 3C on a coarse grid) stops on the GPU as on the CPU,
// naming the depletion; the other cell goes on.
TEST(CellProgramCuda, StopsAStalledCellAsTheCpuDoes) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA test skipped";
  const CellParameters c{{"Initial concentration in electrolyte [mol.m-3]"}, {1000.0, 2000.0}};
  const Experiment e({"Discharge at 3C until 2.5 V"});
  SimulationOptions o = options();
  o.grid = {5, 4, 5, 5, 1, 1};
  o.steps.max_steps = 2000;
  BatchOptions b;
  b.engine = BatchEngine::cell_program;
  const auto cpu = BatchSimulation(parameter_sets::chen2020(), c, o, CpuExecutor::create(), b).run(e);
  const auto cuda = BatchSimulation(parameter_sets::chen2020(), c, o, gpu, b).run(e);
  EXPECT_EQ(cpu[0].status, Status::stopped);
  EXPECT_NE(cpu[0].termination.find("the cell stopped making progress"), std::string::npos) << cpu[0].termination;
  EXPECT_EQ(cpu[1].status, Status::completed) << cpu[1].termination;
  for (std::size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE("cell " + std::to_string(i));
    EXPECT_EQ(cuda[i].status, cpu[i].status) << cuda[i].termination;
  }
  // The crawl amplifies the backends' few-ulp differences: the GPU's cell may
  // end it by the stall or by a failed step, either way at the depletion.
  EXPECT_NE(cuda[0].termination.find("the electrolyte is depleted in the positive electrode"), std::string::npos)
      << cuda[0].termination;
}

/// `e` run by the program on the CPU and on `gpu`: every cell completes on
/// the CPU, and the GPU gives its bits.
void expect_gpu_matches_cpu(const std::shared_ptr<const Executor>& gpu, const Experiment& e,
                            const SimulationOptions& o = options(),
                            const ParameterSet& p = parameter_sets::chen2020()) {
  const CellParameters c = cells(4);
  BatchOptions b;
  b.engine = BatchEngine::cell_program;
  const auto cpu = BatchSimulation(p, c, o, CpuExecutor::create(), b).run(e);
  const auto cuda = BatchSimulation(p, c, o, gpu, b).run(e);
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    SCOPED_TRACE("cell " + std::to_string(i));
    ASSERT_EQ(cpu[i].status, Status::completed) << cpu[i].termination;
    EXPECT_EQ(cuda[i].status, cpu[i].status) << cuda[i].termination;
    expect_same_bits(cuda[i], cpu[i]);
  }
}

// An isothermal batch (the others here are lumped): the CPU program's bits.
TEST(CellProgramCuda, IsothermalCellsMatchTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  SimulationOptions o = options();
  o.thermal = ThermalModel::isothermal;
  expect_gpu_matches_cpu(gpu, cycle(), o);
}

// Power steps on the GPU: the CPU program's bits.
TEST(CellProgramCuda, PowerStepsMatchTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  expect_gpu_matches_cpu(
      gpu, Experiment({"Discharge at 15 W until 3.3 V", "Rest for 2 minutes", "Charge at 10 W until 4.0 V"}));
}

// The default grid (n = 60, 40 particles of 20 shells) and an odd one (n = 70,
// 63 particles of 23 shells) on the GPU: the loops' second rounds across the
// cell's 64 lanes, the partly filled last round, several terms a lane in the
// first warp's sums and lanes of the second warp idle in the particles'
// give the CPU program's bits (the fixture's coarse grid fills one round).
TEST(CellProgramCuda, DefaultAndOddGridsMatchTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  for (const CellGridSpec g : {CellGridSpec{}, CellGridSpec{30, 7, 33, 23}}) {
    SCOPED_TRACE("grid " + std::to_string(g.negative_cells) + "/" + std::to_string(g.separator_cells) + "/" +
                 std::to_string(g.positive_cells) + "/" + std::to_string(g.radial_shells));
    SimulationOptions o = options();
    o.grid = g;
    expect_gpu_matches_cpu(gpu, Experiment({"Discharge at 1C until 3.0 V", "Rest for 5 minutes"}), o);
  }
  // The per-face diffusivities of stress-induced diffusion (the ageing kernel) on the odd grid.
  SimulationOptions o = options();
  o.grid = CellGridSpec{30, 7, 33, 23};
  o.degradation.particle_mechanics[0] = o.degradation.particle_mechanics[1] = ParticleMechanics::swelling_only;
  expect_gpu_matches_cpu(gpu, Experiment({"Discharge at 1C until 3.0 V"}), o, parameter_sets::okane2022());
}

// SEI growth with the film's resistance on the GPU: the CPU program's bits.
TEST(CellProgramCuda, SeiGrowthMatchesTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  for (SeiModel m : {SeiModel::reaction_limited, SeiModel::ec_reaction_limited, SeiModel::solvent_diffusion_limited,
                     SeiModel::interstitial_diffusion_limited}) {
    SCOPED_TRACE(to_string(m));
    SimulationOptions o = options();
    o.degradation.sei = m;
    ParameterSet p = parameter_sets::chen2020();
    p.sei.exchange_current_density *= 100.0;
    p.sei.activation_energy = 37000.0;
    expect_gpu_matches_cpu(gpu,
                           Experiment({"Discharge at 2C until 3.0 V", "Rest for 10 minutes", "Charge at 1C until 4.1 V",
                                       "Hold at 4.1 V until C/10"},
                                      2),
                           o, p);
  }
}

// Lithium plating (each model; the partially reversible one under a growing
// film with its drop) on the GPU: the CPU program's bits.
TEST(CellProgramCuda, LithiumPlatingMatchesTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  ParameterSet p = parameter_sets::okane2022();
  p.thermal.ambient_temperature = 268.15;
  p.thermal.initial_temperature = 268.15;
  for (PlatingModel m : {PlatingModel::reversible, PlatingModel::partially_reversible, PlatingModel::irreversible}) {
    SCOPED_TRACE(to_string(m));
    SimulationOptions o = options();
    o.degradation.lithium_plating = m;
    if (m == PlatingModel::partially_reversible) o.degradation.sei = SeiModel::reaction_limited;
    expect_gpu_matches_cpu(gpu,
                           Experiment({"Discharge at 1C until 3.0 V", "Rest for 10 minutes", "Charge at 1C until 4.1 V",
                                       "Hold at 4.1 V until C/10"},
                                      2),
                           o, p);
  }
}

// Loss of active material on the GPU (stress-driven on the negative, and
// reaction-driven under a growing film): the CPU program's bits.
TEST(CellProgramCuda, LossOfActiveMaterialMatchesTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  ParameterSet p = parameter_sets::okane2022();
  p.negative_lam.reaction_factor = 1.5e-4;
  for (LamModel m : {LamModel::stress_driven, LamModel::stress_and_reaction_driven}) {
    SCOPED_TRACE(to_string(m));
    SimulationOptions o = options();
    o.degradation.loss_of_active_material[0] = m;
    if (m != LamModel::stress_driven) o.degradation.sei = SeiModel::reaction_limited;
    expect_gpu_matches_cpu(gpu, Experiment({"Discharge at 1C until 3.0 V", "Charge at 1C until 4.1 V"}, 2), o, p);
  }
  // The stress-induced diffusion alone, on the positive particles only (per-face diffusivities).
  SimulationOptions o = options();
  o.degradation.particle_mechanics[0] = o.degradation.particle_mechanics[1] = ParticleMechanics::swelling_only;
  o.degradation.stress_induced_diffusion[0] = StressInducedDiffusion::off;
  expect_gpu_matches_cpu(gpu, Experiment({"Discharge at 1C until 3.0 V", "Charge at 1C until 4.1 V"}), o, p);
}

// The porosity change (the films narrowing the negative's pores, the salt
// kept as eps c_e) on the GPU: the CPU program's bits.
TEST(CellProgramCuda, PorosityChangeMatchesTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  ParameterSet p = parameter_sets::chen2020();
  p.sei.exchange_current_density *= 100.0;
  SimulationOptions o = options();
  o.degradation.sei = SeiModel::reaction_limited;
  o.degradation.sei_porosity_change = true;
  expect_gpu_matches_cpu(gpu, Experiment({"Discharge at 1C until 3.0 V", "Charge at 1C until 4.1 V"}, 2), o, p);
}

// Batched ageing on the GPU: each cell's cycle summaries, its curves of the
// saved cycles only and the experiment's termination (a cell stopped at 99%
// of its first capacity, its clock ended on the device while the others run
// on): the CPU program's bits and words.
TEST(CellProgramCuda, AgeingCellsEndTheirCyclingAsTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  const char* const kRate = "SEI reaction exchange current density [A.m-2]";
  const CellParameters c{{kRate}, {1.5e-5, 3e-4, 1.5e-4}};
  SimulationOptions o = options();
  o.degradation.sei = SeiModel::reaction_limited;
  Experiment cycling({"Discharge at 1C until 3.0 V", "Charge at 1C until 4.1 V"}, 6);
  cycling.set_termination(parse_cycle_termination({"99% capacity"}));
  cycling.set_saving(CycleSaving::listed({2}));
  BatchOptions b;
  b.engine = BatchEngine::cell_program;
  const auto cpu = BatchSimulation(parameter_sets::chen2020(), c, o, CpuExecutor::create(), b).run(cycling);
  const auto cuda = BatchSimulation(parameter_sets::chen2020(), c, o, gpu, b).run(cycling);
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    SCOPED_TRACE("cell " + std::to_string(i));
    EXPECT_EQ(cuda[i].status, cpu[i].status) << cuda[i].termination;
    EXPECT_EQ(cuda[i].termination, cpu[i].termination);
    expect_same_bits(cuda[i], cpu[i]);
  }
  EXPECT_EQ(cpu[0].cycles.size(), 6u);
  EXPECT_LT(cpu[1].cycles.size(), 6u);
  EXPECT_NE(cpu[1].termination.find("99% capacity"), std::string::npos) << cpu[1].termination;
}

// Drive cycles on the GPU (the tables in device memory, read at each
// attempt's time, steps landing on their rows): the CPU program's bits.
// Per-cell protocol rates (the C-rate factors) on the device: the CPU's bits.
TEST(CellProgramCuda, RateFactorsMatchTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  const CellParameters c{{"Discharge C-rate factor", "Charge C-rate factor"}, {1.0, 1.0, 0.5, 2.0, 1.5, 0.25}};
  const auto a = run(c, CpuExecutor::create()), b = run(c, gpu);
  ASSERT_EQ(a.size(), 3u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE("cell " + std::to_string(i));
    ASSERT_EQ(a[i].status, Status::completed) << a[i].termination;
    EXPECT_EQ(b[i].termination, a[i].termination);
    expect_same_bits(b[i], a[i]);
  }
  EXPECT_NE(a[0].time, a[1].time);  // the factors changed the run
}

TEST(CellProgramCuda, DriveCyclesMatchTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  DriveCycles t;
  t["I"] = std::make_shared<const DriveCycle>(
      DriveCycle("I", {0.0, 1.0, 20.0, 21.0, 40.0, 41.0, 60.0}, {0.0, 10.0, 10.0, -5.0, -5.0, 0.0, 0.0}));
  t["P"] = std::make_shared<const DriveCycle>(
      DriveCycle("P", {0.0, 5.0, 30.0, 31.0, 60.0}, {5.0, 20.0, 20.0, -10.0, -10.0}));
  expect_gpu_matches_cpu(
      gpu, Experiment({"Discharge at 1C for 15 minutes", "Run I (A) until 2.5 V", "Run P (W) until 2.5 V"}, 1, t));
}

/// Asks the batch to stop at its second poll.
class StopSecond : public BatchObserver {
 public:
  std::string stop_reason() override { return ++polls_ >= 2 ? "stop requested" : ""; }

 private:
  int polls_ = 0;
};

TEST(CellProgramCuda, AStopInterruptsEveryRunningCellAndKeepsItsRows) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA test skipped";
  BatchOptions b;
  b.engine = BatchEngine::cell_program;
  b.rows_per_call = 64;  // five cells would take 1,024 (and end the cycle before the second poll)
  BatchSimulation batch(parameter_sets::chen2020(), cells(5), options(), gpu, b);
  StopSecond observer;  // polled after each call: the cells have 128 rows when it stops them
  const auto r = batch.run(cycle(), &observer);
  for (const BatchCellResult& c : r) {
    EXPECT_EQ(c.status, Status::interrupted) << c.termination;
    EXPECT_EQ(c.voltage.size(), 128u);
    for (double v : c.voltage) EXPECT_TRUE(std::isfinite(v));
  }
}

}  // namespace
}  // namespace voltaic
