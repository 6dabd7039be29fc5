// The work of canonical runs, pinned. Steps, split passes, Newton and Krylov
// iterations are deterministic, so a change that makes a run do more work
// fails here, on the CPU, in CI, with the counts named; a change that removes
// work (more than kLowerPinShare below a pin) is asked to lower the pin. Wall
// time is never asserted (benchmarks/ measures it; docs/performance.md, "Work
// counts").
//
// Each pin is a few per cent above the count measured when it was set (the
// counts can move by a step or two between machines, where an error estimate
// sits on a rounding boundary). To re-pin after a deliberate change: run
// `voltaic_tests --gtest_filter='WorkCounts.*'`, read the measured counts
// from the failure, set each pin about 3 % above, and say why in the commit.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "solver/pybamm_curves.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

using Counts = std::map<std::string, long long>;

/// A count below this share of its pin asks for the pin to be lowered.
constexpr double kLowerPinShare = 0.85;

/// Fails naming every count above its pin (work grew) or far below it (pin
/// stale); the message lists the whole run's counts for re-pinning.
void expect_within_pins(const char* run, const Counts& measured, const Counts& pins) {
  std::ostringstream all;
  for (const auto& [name, value] : measured) all << " " << name << "=" << value;
  ::testing::Test::RecordProperty(run, all.str());  // in the XML report (ctest --output-junit, gtest_output)
  for (const auto& [name, pin] : pins) {
    const auto it = measured.find(name);
    ASSERT_NE(it, measured.end()) << run << ": no count '" << name << "'";
    EXPECT_LE(it->second, pin) << run << ": the work grew: " << name << " " << it->second << " > pin " << pin
                               << " (measured:" << all.str() << ")";
    EXPECT_GE(double(it->second), kLowerPinShare * double(pin))
        << run << ": the work fell: " << name << " " << it->second << " < " << kLowerPinShare << " x pin " << pin
        << "; lower the pin in work_counts_test.cpp (measured:" << all.str() << ")";
  }
}

Counts counts_of(const Solution& s, const WorkCounts& w) {
  return {{"steps", s.steps_taken},
          {"rejected", s.steps_rejected},
          {"attempts", w.attempts},
          {"passes", w.concentration_passes},
          {"electrolyte_cg", w.electrolyte_iterations},
          {"solves", w.potential_solves},
          {"newton", w.newton_iterations},
          {"krylov", w.linear_iterations},
          {"heat_cg", w.heat_iterations}};
}

Counts run_cell(const ParameterSet& p, const SimulationOptions& o, const Experiment& e) {
  Simulation sim(p, o, CpuExecutor::create());
  const Solution s = sim.run(e);
  EXPECT_TRUE(s.completed) << s.termination;
  return counts_of(s, sim.work());
}

/// Chen2020 at PyBaMM's state of charge 0.1 (tests/data/pybamm/README.md).
ParameterSet chen2020_at_soc(double c_n, double c_p) {
  ParameterSet p = parameter_sets::chen2020();
  p.negative_electrode.initial_concentration = c_n;
  p.positive_electrode.initial_concentration = c_p;
  return p;
}

SimulationOptions thermal(ThermalModel model) {
  SimulationOptions o;
  o.thermal = model;
  return o;
}

TEST(WorkCounts, OneDimensionalDischargeAt1C) {
  const Counts c = run_cell(parameter_sets::chen2020(), {}, Experiment({"Discharge at 1C until 2.5 V"}));
  expect_within_pins("1D Chen2020 1C", c,
                     {{"steps", 173}, {"rejected", 15}, {"passes", 435}, {"solves", 251}, {"newton", 479}});
}

TEST(WorkCounts, OneDimensionalDischargeAt3C) {
  const Counts c = run_cell(parameter_sets::chen2020(), {}, Experiment({"Discharge at 3C until 2.5 V"}));
  expect_within_pins("1D Chen2020 3C", c,
                     {{"steps", 837}, {"rejected", 251}, {"passes", 7893}, {"solves", 6808}, {"newton", 14946}});
}

TEST(WorkCounts, OneDimensionalCcCvFromSoc01Lumped) {
  const Counts c = run_cell(chen2020_at_soc(3802.774336107004, 50165.26498633016), thermal(ThermalModel::lumped),
                            Experiment({"Charge at 1C until 4.2 V", "Hold at 4.2 V until C/20"}));
  expect_within_pins("1D CC-CV from SOC 0.1", c,
                     {{"steps", 214}, {"rejected", 18}, {"passes", 604}, {"solves", 376}, {"newton", 564}});
}

TEST(WorkCounts, OneDimensionalDriveCycle) {
  const test::PybammCurve csv = test::read_pybamm_curve("drive_cycle_current");
  const DriveCycles tables{{"trips", std::make_shared<const DriveCycle>("trips", csv["Time [s]"], csv["Current [A]"])}};
  const Counts c = run_cell(chen2020_at_soc(24311.789205594887, 24097.59481565992), {},
                            Experiment({"Run trips (A) until 2.5 V"}, 1, tables));
  expect_within_pins("1D drive cycle", c,
                     {{"steps", 1225}, {"rejected", 695}, {"passes", 3921}, {"solves", 2004}, {"newton", 3648}});
}

TEST(WorkCounts, SmallPouchWithCollectorsAnd3dHeat) {
  SimulationOptions o = thermal(ThermalModel::conduction);
  o.grid = {6, 4, 6, 6, 4, 4, CurrentCollectorModel::potential_pair};
  const Counts c = run_cell(parameter_sets::marquis2019(), o, Experiment({"Discharge at 1C until 3.105 V"}));
  expect_within_pins("pouch 4 x 4, collectors, 3D heat", c,
                     {{"steps", 145},
                      {"rejected", 22},
                      {"passes", 331},
                      {"electrolyte_cg", 473},  // 894 -> 473: the electrolyte CG to 1e-9 (457 measured)
                      {"solves", 167},
                      {"newton", 329},
                      {"krylov", 578},     // 654 -> 578: collectors' three sweeps, GMRES to 1e-4 (561 measured)
                      {"heat_cg", 320}});  // 634 -> 320: the heat CG to 1e-9 (611 -> 309 measured)
}

TEST(WorkCounts, SmallStack) {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 3, 3};
  const Counts c = run_cell(parameter_sets::chen2020(), o, Experiment({"Discharge at 1C until 2.5 V"}));
  expect_within_pins("stack 3 x 3", c,
                     {{"steps", 178},
                      {"rejected", 15},
                      {"passes", 448},
                      {"electrolyte_cg", 619},  // 1194 -> 619: the electrolyte CG to 1e-9 (598 measured)
                      {"solves", 258},
                      {"newton", 466},
                      {"krylov", 507}});  // 758 -> 507: the potential GMRES to 1e-4 (492 measured)
}

TEST(WorkCounts, EightCellSweepOnTheCellProgram) {
  // Eight cells, negative electrode thickness from 70 to 98 um, lumped.
  CellParameters cells{{"Negative electrode thickness [m]"}, {}};
  for (int i = 0; i < 8; ++i) cells.values.push_back(70e-6 + 4e-6 * i);
  BatchOptions b;
  b.threads = 2;
  b.engine = BatchEngine::cell_program;
  BatchSimulation batch(parameter_sets::chen2020(), cells, thermal(ThermalModel::lumped), CpuExecutor::create(), b);
  Counts c{{"steps", 0}, {"rejected", 0}, {"passes", 0}, {"newton", 0}};
  for (const BatchCellResult& r : batch.run(Experiment({"Discharge at 2C until 2.5 V"}))) {
    EXPECT_EQ(r.status, BatchCellResult::Status::completed) << r.termination;
    c["steps"] += r.steps_taken;
    c["rejected"] += r.steps_rejected;
    c["passes"] += r.concentration_passes;
    c["newton"] += r.newton_iterations;
  }
  expect_within_pins("8-cell sweep, cell program", c,
                     {{"steps", 1619}, {"rejected", 122}, {"passes", 4975}, {"newton", 5550}});
}

}  // namespace
}  // namespace voltaic
