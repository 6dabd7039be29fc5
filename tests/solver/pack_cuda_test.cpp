// A pack on a GPU (a warp per cell, kernels/pack_cells.cu): the CPU pack's
// bits, rows, steps and circuit iterations, through a discharge, a rest, a
// power step and a charge, with connection and busbar resistances and a
// flowing coolant; ageing cells are refused there by name.
#include <gtest/gtest.h>

#include <string>

#include "test_support.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/pack.hpp"

namespace voltaic {
namespace {

PackOptions options() {
  PackOptions o;
  o.cell.grid = {10, 6, 10, 10, 1, 1};
  o.cell.thermal = ThermalModel::lumped;
  o.thermal.neighbour_conductance = 0.5;
  o.thermal.coolant = PackThermal::Coolant::flow;
  o.thermal.coolant_conductance = 1.0;
  o.thermal.coolant_temperature = 293.15;
  o.thermal.coolant_capacity_rate = 2.0;
  return o;
}

CellParameters cells(std::size_t count) {
  CellParameters c{{"Negative electrode thickness [m]", "Positive particle radius [m]"}, {}};
  for (std::size_t i = 0; i < count; ++i) {
    c.values.push_back(85.2e-6 * (0.85 + 0.3 * double(i) / double(count - 1)));
    c.values.push_back(5.22e-6 * (1.15 - 0.3 * double((i * 5) % count) / double(count - 1)));
  }
  return c;
}

TEST(PackCuda, MatchesTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  PackLayout l;
  l.parallel = 3;
  l.series = 2;
  l.connection_resistances = {1e-3, 2e-3, 1.5e-3, 1e-3, 3e-3, 0.5e-3};
  l.busbar_resistance = 2e-3;
  const Experiment e({"Discharge at 1C for 20 minutes", "Rest for 5 minutes", "Discharge at 40 W until 6.6 V",
                      "Charge at 0.5C until 8.1 V"});
  const PackSolution cpu =
      PackSimulation(parameter_sets::chen2020(), cells(6), l, options(), CpuExecutor::create()).run(e);
  const PackSolution cuda = PackSimulation(parameter_sets::chen2020(), cells(6), l, options(), gpu).run(e);
  ASSERT_TRUE(cpu.completed) << cpu.termination;
  EXPECT_EQ(cuda.termination, cpu.termination);
  EXPECT_EQ(cuda.steps_taken, cpu.steps_taken);
  EXPECT_EQ(cuda.steps_rejected, cpu.steps_rejected);
  EXPECT_EQ(cuda.circuit_iterations, cpu.circuit_iterations);
  EXPECT_EQ(cuda.time, cpu.time);
  EXPECT_EQ(cuda.voltage, cpu.voltage);
  EXPECT_EQ(cuda.current, cpu.current);
  EXPECT_EQ(cuda.cell_current, cpu.cell_current);
  EXPECT_EQ(cuda.cell_voltage, cpu.cell_voltage);
  EXPECT_EQ(cuda.cell_temperature, cpu.cell_temperature);
  EXPECT_EQ(cuda.cell_heat, cpu.cell_heat);
  EXPECT_EQ(cuda.coolant_outlet, cpu.coolant_outlet);
}

// A netlist pack (two strings joined at their midpoints): the circuit is
// the host's, the cells the GPU's, the CPU's bits.
TEST(PackCuda, ANetlistPackMatchesTheCpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  PackLayout l;
  l.netlist = {{"V0", 2, 1, 0, 1},     {"V1", 4, 3, 0, 2},      {"Rt0", 2, 5, 2e-3, 3}, {"Rt1", 4, 5, 1e-3, 4},
               {"Rs0", 1, 6, 1e-3, 5}, {"V2", 6, 0, 0, 6},      {"Rs1", 3, 7, 2e-3, 7}, {"V3", 7, 0, 0, 8},
               {"Rx0", 1, 3, 5e-3, 9}, {"Rb0", 5, 8, 1e-3, 10}, {"I0", 8, 0, 0.0, 11}};
  PackOptions o = options();
  o.thermal.neighbour_conductance = 0.0;
  o.thermal.links = {{0, 1, 0.5}, {2, 3, 0.5}};
  const Experiment e({"Discharge at 1C for 10 minutes", "Rest for 5 minutes", "Discharge at 40 W until 6.6 V"});
  const PackSolution cpu = PackSimulation(parameter_sets::chen2020(), cells(4), l, o, CpuExecutor::create()).run(e);
  const PackSolution cuda = PackSimulation(parameter_sets::chen2020(), cells(4), l, o, gpu).run(e);
  ASSERT_TRUE(cpu.completed) << cpu.termination;
  EXPECT_EQ(cuda.steps_taken, cpu.steps_taken);
  EXPECT_EQ(cuda.circuit_iterations, cpu.circuit_iterations);
  EXPECT_EQ(cuda.voltage, cpu.voltage);
  EXPECT_EQ(cuda.cell_current, cpu.cell_current);
  EXPECT_EQ(cuda.node_voltage, cpu.node_voltage);
  EXPECT_EQ(cuda.cell_temperature, cpu.cell_temperature);
}

TEST(PackCuda, AgeingCellsAreRefusedOnTheGpu) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA test skipped";
  PackOptions o = options();
  o.cell.degradation.sei = SeiModel::reaction_limited;
  PackLayout l;
  l.parallel = 2;
  try {
    PackSimulation(parameter_sets::chen2020(), {}, l, o, gpu);
    ADD_FAILURE() << "accepted an ageing pack on the GPU";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("packs of ageing cells run on the CPU backend"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace voltaic
