// The whole DFN on the CUDA backend against the CPU backend: the same
// voltage curve to 1e-8 V (the kernels call the same point functions; CUDA's
// exp and tanh differ from glibc's by a few ulp).
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

void expect_same_curves(const SimulationOptions& o, const Experiment& experiment) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  Simulation cpu_sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  Simulation gpu_sim(parameter_sets::chen2020(), o, gpu);
  const Solution a = cpu_sim.run(experiment), b = gpu_sim.run(experiment);
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(b.completed) << b.termination;
  EXPECT_NEAR(a["Time [s]"].back(), b["Time [s]"].back(), 1e-3);
  double worst = 0.0;
  for (std::size_t i = 0; i < a.rows(); ++i)
    worst = std::max(worst, std::fabs(a["Voltage [V]"][i] - b.at("Voltage [V]", a["Time [s]"][i])));
  EXPECT_LE(worst, 1e-8) << a.rows() << " CPU rows, " << b.rows() << " CUDA rows";
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

TEST(SimulationCudaVsCpu, ThreeDimensionalConductionHold) {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 3, 3};
  o.thermal = ThermalModel::conduction;
  expect_same_curves(o, Experiment({"Discharge at 1C for 5 minutes", "Hold at 3.9 V for 2 minutes"}));
}

}  // namespace
}  // namespace voltaic
