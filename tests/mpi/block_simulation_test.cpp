// A 3D cell whose plane is cut over the ranks (ctest runs this on 1, 2 and
// 4 ranks): its time series and fields have the bits of the one-block run
// of the same cell, and that run is the serial Simulation's to rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/mpi/block_decomposition.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic::mpi {
namespace {

struct Case {
  const char* name;
  ParameterSet parameters;
  CurrentCollectorModel collectors;
  ThermalModel thermal;
  std::vector<std::string> steps;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// 12 x 10 columns: tiles of 8 give 2 x 2 tiles, so 4 ranks each own one.
constexpr int kTile = 8;

SimulationOptions options(const Case& c) {
  SimulationOptions o;
  o.grid = {3, 2, 3, 5, 12, 10, c.collectors};
  o.thermal = c.thermal;
  o.field_times = {0.0, 200.0};
  return o;
}

Solution run(const ParameterSet& p, const std::shared_ptr<const BlockDecomposition>& cut, const SimulationOptions& o,
             const Experiment& experiment) {
  Simulation sim(p, o, CpuExecutor::create(), cut);
  return sim.run(experiment);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

/// Cells of this rank's block of every field that differ in their bits from
/// the one-block run's (whose block is the whole plane, without ghosts).
std::size_t differing_field_bits(const BlockDecomposition& cut, const FieldSnapshot& mine, const FieldSnapshot& whole) {
  const PlaneBlock& b = cut.block();
  const std::size_t ghosted = std::size_t(cut.ghosted_nx()) * std::size_t(cut.ghosted_ny());
  const std::size_t plane = std::size_t(cut.plane_nx()) * std::size_t(cut.plane_ny());
  std::size_t differ = 0;
  for (const auto& [name, values] : mine.fields) {
    const std::vector<double>& all = whole.fields.at(name);
    const int layers = static_cast<int>(values.size() / ghosted);
    EXPECT_EQ(all.size(), layers * plane) << name;
    for (int k = 0; k < layers; ++k)
      for (int lj = 0; lj < b.ny(); ++lj)
        for (int li = 0; li < b.nx(); ++li) {
          const std::size_t global = std::size_t(b.i_begin + li) +
                                     std::size_t(cut.plane_nx()) * std::size_t(b.j_begin + lj) + plane * std::size_t(k);
          if (!same_bits(values[cut.index(li, lj, k)], all[global])) ++differ;
        }
  }
  return differ;
}

void expect_one_block_bits(const Solution& cut, const Solution& one, const BlockDecomposition& d) {
  ASSERT_EQ(cut.rows(), one.rows());
  std::size_t differ = 0;
  for (const std::string& name : Solution::variable_names())
    for (std::size_t r = 0; r < cut.rows(); ++r)
      if (!same_bits(cut[name][r], one[name][r])) ++differ;
  EXPECT_EQ(differ, 0u) << "values of the time series differ on rank " << d.communicator().rank() << " of "
                        << d.communicator().size();
  ASSERT_EQ(cut.fields.size(), one.fields.size());
  for (std::size_t f = 0; f < cut.fields.size(); ++f)
    EXPECT_EQ(differing_field_bits(d, cut.fields[f], one.fields[f]), 0u) << "fields at t = " << cut.fields[f].time;
}

class BlockSimulation : public ::testing::TestWithParam<Case> {};

TEST_P(BlockSimulation, EveryCutGivesTheOneBlockBitsAndTheSerialCurve) {
  const Communicator world, self(MPI_COMM_SELF);
  const Case& c = GetParam();
  const SimulationOptions o = options(c);
  const Experiment experiment(c.steps);
  const auto many = BlockDecomposition::over(world, o.grid.nx, o.grid.ny, kTile);
  const auto one = std::make_shared<const BlockDecomposition>(self, PlanePartition(o.grid.nx, o.grid.ny, 1, 1, kTile));
  const Solution cut = run(c.parameters, many, o, experiment), alone = run(c.parameters, one, o, experiment);
  ASSERT_TRUE(cut.completed) << cut.termination;
  expect_one_block_bits(cut, alone, *many);

  // The one-block run is the serial Simulation's, up to the order of its sums
  // (checked once: every rank's one-block run is the same).
  if (world.rank() != 0) return;
  Simulation serial(c.parameters, o, CpuExecutor::create());
  const Solution s = serial.run(experiment);
  ASSERT_TRUE(s.completed);
  const auto last = [](const Solution& x, const char* name) { return x[name].back(); };
  EXPECT_EQ(last(s, "Time [s]"), last(alone, "Time [s]"));
  EXPECT_NEAR(last(s, "Voltage [V]"), last(alone, "Voltage [V]"), 1e-6);
  EXPECT_NEAR(last(s, "Current [A]"), last(alone, "Current [A]"), 1e-6);
  EXPECT_NEAR(last(s, "Discharge capacity [A.h]"), last(alone, "Discharge capacity [A.h]"), 1e-8);
}

const std::vector<Case>& cases() {
  const ParameterSet chen = parameter_sets::chen2020(), marquis = parameter_sets::marquis2019();
  const auto uniform = CurrentCollectorModel::uniform, pair = CurrentCollectorModel::potential_pair;
  const std::vector<std::string> hold = {"Discharge at 2C for 3 minutes", "Hold at 3.8 V for 1 minute"};
  const std::vector<std::string> rest = {"Discharge at 1C for 4 minutes", "Rest for 1 minute"};
  static const std::vector<Case> all = {
      {"UniformIsothermalWithHold", chen, uniform, ThermalModel::isothermal, hold},
      {"UniformLumped", chen, uniform, ThermalModel::lumped, rest},
      {"UniformConduction", chen, uniform, ThermalModel::conduction, rest},
      {"PouchIsothermalWithHold", marquis, pair, ThermalModel::isothermal, hold},
      {"PouchLumped", marquis, pair, ThermalModel::lumped, rest},
      {"PouchConductionWithHold", marquis, pair, ThermalModel::conduction, hold},
  };
  return all;
}

// The potential pair's tabs and the 3D heat step's cooled edges make the
// plane non-uniform: the exchanges and the gathered V-cycles matter there.
INSTANTIATE_TEST_SUITE_P(Cells, BlockSimulation, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

TEST(BlockSimulation, RefusesWhatIsNotCutYet) {
  const Communicator world;
  SimulationOptions o;
  o.grid = {3, 2, 3, 5, 12, 10};
  const auto cut = BlockDecomposition::over(world, o.grid.nx, o.grid.ny, kTile);
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create(), cut);
  EXPECT_THROW(sim.load_checkpoint(Checkpoint{}), InvalidArgument);
  o.grid.nx = 13;  // not the decomposition's plane
  EXPECT_THROW(Simulation(parameter_sets::chen2020(), o, CpuExecutor::create(), cut), InvalidArgument);
}

}  // namespace
}  // namespace voltaic::mpi
