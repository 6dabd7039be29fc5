// Simulation: 3D against 1D, mesh convergence of the potential step, bad
// input, and failures that keep what ran.
#include "voltaic/solver/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"

namespace voltaic {
namespace {

SimulationOptions coarse(int nx = 1, int ny = 1) {
  SimulationOptions o;
  o.grid = {10, 10, 10, 10, nx, ny};
  return o;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

// Uniform in-plane conditions: every column of an 8 x 8 cell is the 1D cell.
TEST(Simulation, UniformThreeDimensionalCellReproducesOneDimensional) {
  const Experiment discharge({"Discharge at 1C for 10 minutes"});
  Simulation one(parameter_sets::chen2020(), coarse(), CpuExecutor::create());
  Simulation three(parameter_sets::chen2020(), coarse(8, 8), CpuExecutor::create());
  const Solution a = one.run(discharge), b = three.run(discharge);
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(b.completed) << b.termination;
  ASSERT_EQ(a.rows(), b.rows());
  for (std::size_t i = 0; i < a.rows(); ++i) {
    EXPECT_NEAR(a["Time [s]"][i], b["Time [s]"][i], 1e-6);  // the step controller sees rounding-level differences
    EXPECT_NEAR(a["Voltage [V]"][i], b["Voltage [V]"][i], 1e-6) << "row " << i;
  }
  EXPECT_NEAR(one.lithium_inventory(), three.lithium_inventory(), 1e-10 * one.lithium_inventory());
}

// At t = 0 the concentrations are uniform, so the first voltage is the
// potential step's alone: refining the mesh shows its order in space.
TEST(Simulation, PotentialStepConvergesAtSecondOrder) {
  std::vector<double> v;
  for (int cells : {5, 10, 20, 40, 80}) {
    SimulationOptions o;
    o.grid = {cells, cells, cells, 4, 1, 1};
    o.potential.electrolyte_face_mean = FaceMean::harmonic;  // exact at the porosity jumps: second order there too
    Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
    const Solution s = sim.run(Experiment({"Discharge at 2C for 1 second"}));
    ASSERT_TRUE(s.completed) << s.termination;
    v.push_back(s["Voltage [V]"].front());
  }
  for (std::size_t i = 2; i < v.size(); ++i) {
    const double order = std::log2(std::fabs(v[i - 2] - v[i - 1]) / std::fabs(v[i - 1] - v[i]));
    EXPECT_NEAR(order, 2.0, 0.15) << "between " << (5 << (i - 2)) << " and " << (5 << i) << " cells";
  }
}

// The passes of a step stop when the potential step's inputs settle: one pass
// allowed (steps cut until a single pass settles) and the default end near
// each other, and both conserve lithium through the electrolyte's linearised sink.
TEST(Simulation, SplitPassesAgreeAndConserve) {
  const Experiment discharge({"Discharge at 2C for 5 minutes"});
  SimulationOptions single = coarse();
  single.steps.max_split_iterations = 1;
  Simulation once(parameter_sets::chen2020(), single, CpuExecutor::create());
  Simulation many(parameter_sets::chen2020(), coarse(), CpuExecutor::create());
  const double lithium = many.lithium_inventory();
  const Solution a = once.run(discharge), b = many.run(discharge);
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(b.completed) << b.termination;
  EXPECT_NEAR(a["Voltage [V]"].back(), b["Voltage [V]"].back(), 1e-3);
  EXPECT_NEAR(many.lithium_inventory(), lithium, 1e-10 * lithium);
  EXPECT_NEAR(once.lithium_inventory(), lithium, 1e-10 * lithium);
}

TEST(Simulation, CyclesRepeatTheSteps) {
  Simulation sim(parameter_sets::chen2020(), coarse(), CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 1C for 5 minutes", "Charge at 1 A for 2 minutes"}, 2));
  ASSERT_TRUE(s.completed) << s.termination;
  EXPECT_NEAR(s["Time [s]"].back(), 2 * 420.0, 1e-6);
  EXPECT_EQ(s["Step"].back(), 3.0);
  EXPECT_NEAR(s["Discharge capacity [A.h]"].back(), 2 * (5.0 * 300 - 1.0 * 120) / 3600.0, 1e-9);
}

// Steps whose "until" can never come end after their default duration with a
// note, instead of running for ever (issue 34).
TEST(Simulation, StepsThatNeverReachTheirUntilEndAfterTheDefaultDuration) {
  for (const char* text : {"Discharge at 1e-300 A until 2.5 V", "Hold at 4.1 V until 1e-300 A"}) {
    Simulation sim(parameter_sets::chen2020(), coarse(), CpuExecutor::create());
    const Solution s = sim.run(Experiment({text}));
    ASSERT_TRUE(s.completed) << text << ": " << s.termination;
    EXPECT_NEAR(s["Time [s]"].back(), 86400.0, 1e-6) << text;
    EXPECT_LT(s.steps_taken, 2000) << text;
    ASSERT_EQ(s.notes.size(), 1u) << text;
    EXPECT_NE(s.notes[0].find("ended after its default duration of 86400 s"), std::string::npos) << s.notes[0];
  }
}

TEST(Simulation, RestKeepsTheCellAtEquilibrium) {
  Simulation sim(parameter_sets::chen2020(), coarse(), CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Rest for 10 minutes"}));
  ASSERT_TRUE(s.completed) << s.termination;
  for (double v : s["Voltage [V]"]) EXPECT_NEAR(v, s["Voltage [V]"].front(), 2e-8);  // Newton tolerance 1e-9 V
  for (double i : s["Current [A]"]) EXPECT_EQ(i, 0.0);
  EXPECT_NEAR(s["Time [s]"].back(), 600.0, 1e-9);
}

TEST(Simulation, LumpedHeatBalancesTheTemperatureRise) {
  SimulationOptions o = coarse();
  o.thermal = ThermalModel::lumped;
  o.steps.max_dt = 5.0;
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 2C for 5 minutes"}));
  ASSERT_TRUE(s.completed) << s.termination;
  // Heat generated is positive on discharge and warms the cell.
  for (double q : s["Total heating [W]"]) EXPECT_GT(q, 0.0);
  EXPECT_GT(s["Volume-averaged cell temperature [K]"].back(), 298.15);
  EXPECT_EQ(s["Minimum cell temperature [K]"].back(), s["Maximum cell temperature [K]"].back());
}

TEST(Simulation, ConductionModelWarmsTheInsideMost) {
  SimulationOptions o = coarse(3, 3);
  o.thermal = ThermalModel::conduction;
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 2C for 5 minutes"}));
  ASSERT_TRUE(s.completed) << s.termination;
  const double lo = s["Minimum cell temperature [K]"].back(), hi = s["Maximum cell temperature [K]"].back();
  const double mean = s["Volume-averaged cell temperature [K]"].back();
  EXPECT_GT(lo, 298.15);
  EXPECT_LE(lo, mean);
  EXPECT_LE(mean, hi);
}

TEST(Simulation, FieldsAreStoredAtTheChosenTimes) {
  SimulationOptions o = coarse();
  o.field_times = {0.0, 100.0, 250.0};
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 1C for 5 minutes"}));
  ASSERT_EQ(s.fields.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(s.fields[i].time, o.field_times[i], 1e-9);
  const auto& ce = s.fields[2].fields.at("Electrolyte concentration [mol.m-3]");
  ASSERT_EQ(ce.size(), 30u);
  EXPECT_GT(ce.front(), ce.back());  // lithium enters the electrolyte at the negative side on discharge
  EXPECT_EQ(s.fields[2].fields.at("Particle surface concentration [mol.m-3]").size(), 20u);
  EXPECT_NEAR(s.at("Time [s]", 250.0), 250.0, 1e-9);
}

// A step whose own end is not a voltage, stopped by the cell's cut-off, runs
// on to the next step (a cycler's safety limit ends the step), and the run
// says so: PyBaMM instead lets it run 1 V past and ends the experiment.
TEST(Simulation, AStepCutShortByTheCellsCutOffIsNoted) {
  Simulation sim(parameter_sets::chen2020(), coarse(), CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 2C for 40 minutes", "Rest for 1 minute",
                                         "Discharge at 1C until 2.6 V", "Discharge at 1C until 2 V"}));
  ASSERT_TRUE(s.completed) << s.termination;
  ASSERT_EQ(s.notes.size(), 2u);
  EXPECT_NE(s.notes[0].find("experiment step 1 (\"Discharge at 2C for 40 minutes\") stopped at the cell's lower "
                            "voltage cut-off, 2.5 V, at t = "),
            std::string::npos)
      << s.notes[0];
  EXPECT_NE(s.notes[1].find("experiment step 4"), std::string::npos) << s.notes[1];  // step 3 ended at its own 2.6 V
}

TEST(SimulationErrors, BadParameterIsNamedBeforeAnythingRuns) {
  ParameterSet p = parameter_sets::chen2020();
  p.negative_electrode.porosity = 1.5;
  const std::string m = message_of([&] { Simulation(p, coarse(), CpuExecutor::create()); });
  EXPECT_NE(m.find("Negative electrode porosity"), std::string::npos) << m;
}

TEST(SimulationErrors, BadGridAndStepControlAreNamed) {
  SimulationOptions o = coarse();
  o.grid.radial_shells = 1;
  EXPECT_NE(message_of([&] { Simulation(parameter_sets::chen2020(), o, CpuExecutor::create()); }).find("radial_shells"),
            std::string::npos);
  o = coarse();
  o.steps.max_dt = -1.0;
  EXPECT_NE(message_of([&] { Simulation(parameter_sets::chen2020(), o, CpuExecutor::create()); }).find("max_dt"),
            std::string::npos);
  o = coarse();
  o.steps.max_growth = 3.0;  // BDF2 is not zero-stable there
  EXPECT_NE(message_of([&] { Simulation(parameter_sets::chen2020(), o, CpuExecutor::create()); }).find("max_growth"),
            std::string::npos);
  o = coarse();
  o.steps.relative_tolerance = 0.0;
  EXPECT_NE(
      message_of([&] { Simulation(parameter_sets::chen2020(), o, CpuExecutor::create()); }).find("relative_tolerance"),
      std::string::npos);
}

// Simulation checks PotentialOptions itself, so the error names the field
// (PotentialStep's own check names only the struct).
TEST(SimulationErrors, BadPotentialOptionIsNamedByItsField) {
  SimulationOptions o = coarse();
  o.potential.max_iterations = 0;
  const std::string m = message_of([&] { Simulation(parameter_sets::chen2020(), o, CpuExecutor::create()); });
  EXPECT_NE(m.find("PotentialOptions::max_iterations: is 0; allowed: >= 1"), std::string::npos) << m;
}

// One policy for a step that cannot start (PyBaMM's "infeasible" step),
// first or later: the run stops there, keeps its rows and names the step.
TEST(SimulationErrors, InfeasibleFirstStepStopsTheRunAtItsStart) {
  Simulation sim(parameter_sets::chen2020(), coarse(), CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Charge at 1C until 4.0 V", "Rest for 1 minute"}));
  EXPECT_FALSE(s.completed);
  EXPECT_NE(s.termination.find("experiment step 1 (\"Charge at 1C until 4.0 V\") is infeasible: it charges until 4 V, "
                               "but the voltage at its start is already"),
            std::string::npos)
      << s.termination;
  EXPECT_EQ(sim.time(), 0.0);
  EXPECT_EQ(s.rows(), 1u);
}

TEST(SimulationErrors, AStepStartingPastTheCellsCutOffIsInfeasible) {
  ParameterSet p = parameter_sets::chen2020();
  p.electrical.lower_voltage_cutoff = 4.19;  // above the 4.18 V of the initial state
  Simulation sim(p, coarse(), CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Rest for 1 minute", "Discharge at 1C for 1 minute"}));
  EXPECT_FALSE(s.completed);
  EXPECT_NE(s.termination.find("experiment step 2 (\"Discharge at 1C for 1 minute\") is infeasible: a cut-off is "
                               "already reached at its start"),
            std::string::npos)
      << s.termination;
}

// A power step holds V I at the power asked for, on every row after the
// step's start, and ends at its cut-off.
TEST(Simulation, PowerStepHoldsThePower) {
  Simulation sim(parameter_sets::chen2020(), coarse(), CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 1C for 1 minute", "Discharge at 20 W until 3.5 V"}));
  ASSERT_TRUE(s.completed) << s.termination;
  const auto &v = s["Voltage [V]"], &i = s["Current [A]"], &step = s["Step"];
  int rows = 0;
  for (std::size_t r = 0; r < v.size(); ++r) {
    if (step[r] != 1.0) continue;
    EXPECT_NEAR(v[r] * i[r], 20.0, 1e-9) << "row " << r;
    ++rows;
  }
  EXPECT_GT(rows, 5);
  EXPECT_NEAR(v.back(), 3.5, 1e-6);
}

TEST(SimulationErrors, ImpossibleLaterStepStopsTheRunAndKeepsTheResults) {
  Simulation sim(parameter_sets::chen2020(), coarse(), CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 1C for 2 minutes", "Discharge at 1C until 4.3 V"}));
  EXPECT_FALSE(s.completed);
  EXPECT_NE(s.termination.find("experiment step 2"), std::string::npos) << s.termination;
  ASSERT_GT(s.rows(), 2u);
  EXPECT_NEAR(s["Time [s]"].back(), 120.0, 1e-9);
}

TEST(SimulationErrors, ASolverThatKeepsFailingStopsTheRunWithTheReason) {
  SimulationOptions o = coarse();
  o.potential.max_iterations = 2;  // too few for the first step after a rest
  o.steps.max_retries = 2;
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Rest for 1 minute", "Discharge at 3C until 2.5 V"}));
  EXPECT_FALSE(s.completed);
  EXPECT_NE(s.termination.find("Newton"), std::string::npos) << s.termination << " rows " << s.rows();
  EXPECT_GE(s.rows(), 2u);  // the rest is kept
}

}  // namespace
}  // namespace voltaic
