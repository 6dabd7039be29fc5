// The whole DFN on the CUDA backend against the CPU backend: the same
// voltage curve to 1e-8 V (the kernels call the same point functions; CUDA's
// exp and tanh differ from glibc's by a few ulp).
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.hpp"
#include "voltaic/core/device_activity.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

void expect_same_curves(SimulationOptions o, const Experiment& experiment,
                        const ParameterSet& parameters = parameter_sets::chen2020()) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  o.steps.event_tolerance = 1e-10;  // both runs locate their cut-offs far inside 1e-8 V
  Simulation cpu_sim(parameters, o, CpuExecutor::create());
  Simulation gpu_sim(parameters, o, gpu);
  const Solution a = cpu_sim.run(experiment), b = gpu_sim.run(experiment);
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(b.completed) << b.termination;
  // The step controller sees rounding-level differences only (its factors are
  // quantised): the same steps. The voltages compare at the CPU's times.
  ASSERT_EQ(a.rows(), b.rows());
  double worst = 0.0;
  std::size_t worst_row = 0;
  for (std::size_t i = 0; i < a.rows(); ++i) {
    EXPECT_NEAR(a["Time [s]"][i], b["Time [s]"][i], 1e-8 * a["Time [s]"][i] + 1e-9) << "row " << i;
    // The same row (times agree to rounding, checked above): interpolating
    // would cross a step boundary, where two rows share a located time.
    const double v = b["Voltage [V]"][i];
    const double d = std::fabs(a["Voltage [V]"][i] - v);
    if (d > worst) {
      worst = d;
      worst_row = i;
    }
  }
  EXPECT_LE(worst, 1e-8) << "row " << worst_row << " of " << a.rows() << " at t = " << a["Time [s]"][worst_row];
  const double li = cpu_sim.lithium_inventory();
  EXPECT_NEAR(gpu_sim.lithium_inventory(), li, 1e-10 * li);
  ::testing::Test::RecordProperty("max_voltage_difference_V", std::to_string(worst));
}

TEST(SimulationCudaVsCpu, OneDimensionalDischargeAndRest) {
  expect_same_curves(SimulationOptions{}, Experiment({"Discharge at 1C for 20 minutes", "Rest for 5 minutes"}));
}

TEST(SimulationCudaVsCpu, ThreeDimensionalLumpedToCutOff) {
  SimulationOptions o;
  o.grid = {8, 6, 8, 8, 4, 3};
  o.thermal = ThermalModel::lumped;
  expect_same_curves(o, Experiment({"Discharge at 2C until 3.2 V"}));
}

// The potential-pair collectors (Marquis2019's tabs): the foils' rows, the
// Schur blocks and the multigrid on the device.
TEST(SimulationCudaVsCpu, PouchWithCollectorsDischargeHoldAndPower) {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 9, 12, CurrentCollectorModel::potential_pair};
  o.thermal = ThermalModel::conduction;  // the foils' layers, Joule heat and tab cooling too
  expect_same_curves(
      o, Experiment({"Discharge at 1C until 3.5 V", "Hold at 3.55 V for 2 minutes", "Discharge at 2 W for 1 minute"}),
      parameter_sets::marquis2019());
}

TEST(SimulationCudaVsCpu, ThreeDimensionalConductionHold) {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 3, 3};
  o.thermal = ThermalModel::conduction;
  expect_same_curves(o, Experiment({"Discharge at 1C for 1 minute", "Hold at 4.0 V for 1 minute"}));
}

// A few steps only: small enough for compute-sanitizer's racecheck.
TEST(SimulationCudaVsCpu, SanitizerSized) {
  SimulationOptions o;
  o.grid = {4, 3, 4, 4, 2, 2};
  o.thermal = ThermalModel::conduction;
  expect_same_curves(o, Experiment({"Discharge at 1C for 4 seconds"}));
}

// time_substeps splits the device's work by sub-step: on the GPU every
// sub-step launches kernels and the potential step waits for the device
// (its Newton and Krylov tests); the three together are within the run's
// total. On the CPU nothing is counted.
TEST(SimulationCudaVsCpu, SubstepsSplitTheDeviceActivity) {
  SimulationOptions o;
  o.grid = {4, 3, 4, 4, 2, 2};
  o.thermal = ThermalModel::conduction;
  o.time_substeps = true;
  const Experiment experiment({"Discharge at 1C for 20 seconds"});
  Simulation cpu_sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  ASSERT_TRUE(cpu_sim.run(experiment).completed);
  for (const DeviceActivity* a :
       {&cpu_sim.substep_times().concentration_activity, &cpu_sim.substep_times().potential_activity,
        &cpu_sim.substep_times().thermal_activity}) {
    EXPECT_EQ(a->kernel_launches + a->graph_launches + a->host_waits, 0u);
  }
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: the GPU half skipped";
  if (debug_sync()) GTEST_SKIP() << "debug_sync() waits after every launch";
  Simulation gpu_sim(parameter_sets::chen2020(), o, gpu);
  const DeviceActivity before = device_activity();
  ASSERT_TRUE(gpu_sim.run(experiment).completed);
  const DeviceActivity run = device_activity() - before;
  const SubstepTimes& t = gpu_sim.substep_times();
  EXPECT_GT(t.concentration_activity.kernel_launches + t.concentration_activity.graph_launches, 0u);
  EXPECT_GT(t.potential_activity.kernel_launches, 0u);
  EXPECT_GT(t.potential_activity.host_waits, 0u);
  EXPECT_GT(t.thermal_activity.kernel_launches + t.thermal_activity.graph_launches, 0u);
  DeviceActivity parts = t.concentration_activity;
  parts += t.potential_activity;
  parts += t.thermal_activity;
  EXPECT_LE(parts.kernel_launches, run.kernel_launches);
  EXPECT_LE(parts.host_waits, run.host_waits);
}

}  // namespace
}  // namespace voltaic
