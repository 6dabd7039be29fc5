// Lithium plating (degradation_options.hpp, plating_point.hpp) against
// PyBaMM 26.10.1.1's DFN with the same options: OKane2022 at 268.15 K,
// ten cycles charged at 1C, each model also over fifty
// (tests/data/pybamm/ageing/plating_*,
// tools/pybamm_ageing_reference.py), lithium conservation, and the options'
// checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pybamm_curves.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/simulation.hpp"

using namespace voltaic;

namespace {

const std::vector<std::string> kCycle = {"Discharge at 1C until 2.5 V", "Rest for 10 minutes",
                                         "Charge at 1C until 4.2 V", "Hold at 4.2 V until C/20", "Rest for 10 minutes"};
constexpr double kTemperature = 268.15;

struct Case {
  const char* stem;  ///< tests/data/pybamm/ageing/<stem>_*.csv
  PlatingModel plating;
  SeiModel sei;
  ThermalModel thermal;
  int cycles = 10;
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.stem; }

ParameterSet cold_okane2022() {
  ParameterSet p = parameter_sets::okane2022();
  p.thermal.ambient_temperature = kTemperature;
  p.thermal.initial_temperature = kTemperature;
  return p;
}

SimulationOptions options_for(const Case& c) {
  SimulationOptions o;
  o.thermal = c.thermal;
  o.potential.electrolyte_face_mean = FaceMean::arithmetic;  // PyBaMM's
  o.degradation.sei = c.sei;
  o.degradation.lithium_plating = c.plating;
  return o;
}

/// Lithium in the particles, the film and the plated layer: constant.
double lithium(const CycleSummary& c) { return c.particle_lithium + c.sei_lithium_lost + c.plating_lithium_lost; }

class PlatingVersusPybamm : public ::testing::TestWithParam<Case> {};

TEST_P(PlatingVersusPybamm, CapacityLithiumAndVoltageOverTheCycles) {
  const Case& c = GetParam();
  const int cycles = c.cycles;
  const std::string stem = std::string("ageing/") + c.stem;
  const test::PybammCurve summary = test::read_pybamm_curve(stem + "_summary");
  Simulation sim(cold_okane2022(), options_for(c), CpuExecutor::create());
  const Solution s = sim.run(Experiment(kCycle, cycles));
  ASSERT_TRUE(s.completed) << s.termination;
  ASSERT_EQ(s.cycles.size(), static_cast<std::size_t>(cycles));

  const std::vector<double>& capacity = summary["Discharge step capacity [A.h]"];
  const std::vector<double>& plated = summary["Loss of lithium to negative lithium plating [mol]"];
  const std::vector<double>& sei = summary["Loss of lithium to negative SEI [mol]"];
  double worst_capacity = 0.0;
  for (int i = 0; i < cycles; ++i) {
    const CycleSummary& ours = s.cycles[static_cast<std::size_t>(i)];
    EXPECT_NEAR(ours.discharge_capacity, capacity[i], 0.005 * capacity[i]) << "cycle " << i + 1;
    worst_capacity = std::max(worst_capacity, std::fabs(ours.discharge_capacity / capacity[i] - 1.0));
  }
  const CycleSummary& last = s.cycles.back();
  EXPECT_NEAR(last.plating_lithium_lost, plated.back(), 0.03 * plated.back());
  EXPECT_NEAR(last.plating_capacity_lost(), summary["Loss of capacity to negative lithium plating [A.h]"].back(),
              0.03 * last.plating_capacity_lost());
  if (c.sei != SeiModel::none) {
    EXPECT_NEAR(last.sei_lithium_lost, sei.back(), 0.03 * sei.back());
  } else {
    EXPECT_EQ(last.sei_lithium_lost, 0.0);
  }
  EXPECT_NEAR(last.dead_concentration,
              summary["End of cycle X-averaged negative dead lithium concentration [mol.m-3]"].back(),
              0.03 * last.dead_concentration + 1e-9);
  // What the particles lost is in the film and the plated layer (the salt is conserved).
  EXPECT_NEAR(lithium(s.cycles.front()), lithium(last), 1e-10 * last.particle_lithium)
      << "particles' lithium plus the SEI's and the plated is not conserved";

  test::expect_first_and_last_cycles(s, stem, cycles, static_cast<int>(kCycle.size()));
  RecordProperty("plating_lithium_relative_error", std::to_string(last.plating_lithium_lost / plated.back() - 1.0));
  if (c.sei != SeiModel::none)
    RecordProperty("sei_lithium_relative_error", std::to_string(last.sei_lithium_lost / sei.back() - 1.0));
  RecordProperty("worst_discharge_capacity_relative_error", std::to_string(worst_capacity));
}

INSTANTIATE_TEST_SUITE_P(
    OKane2022, PlatingVersusPybamm,
    ::testing::Values(
        Case{"plating_reversible", PlatingModel::reversible, SeiModel::none, ThermalModel::isothermal},
        Case{"plating_irreversible", PlatingModel::irreversible, SeiModel::none, ThermalModel::isothermal},
        Case{"plating_partially_reversible", PlatingModel::partially_reversible, SeiModel::solvent_diffusion_limited,
             ThermalModel::isothermal},
        Case{"plating_partially_reversible_lumped", PlatingModel::partially_reversible,
             SeiModel::solvent_diffusion_limited, ThermalModel::lumped},
        Case{"plating_reaction_limited_sei", PlatingModel::partially_reversible, SeiModel::reaction_limited,
             ThermalModel::isothermal},
        Case{"plating_reversible_50", PlatingModel::reversible, SeiModel::none, ThermalModel::isothermal, 50},
        Case{"plating_irreversible_50", PlatingModel::irreversible, SeiModel::none, ThermalModel::isothermal, 50},
        Case{"plating_partially_reversible_50", PlatingModel::partially_reversible, SeiModel::solvent_diffusion_limited,
             ThermalModel::isothermal, 50}),
    case_name);

// The node's film solve once refused a root it had bracketed to rounding
// (the inner Butler-Volmer's noise above its tolerance): this cell stopped
// in cycle 45 with "the Newton update is not finite" (examples/fast_charge).
TEST(PlatingLongRun, FiftyCyclesAt283KWithoutAStepFailure) {
  ParameterSet p = parameter_sets::okane2022();
  p.thermal.ambient_temperature = 283.15;
  p.thermal.initial_temperature = 283.15;
  SimulationOptions o;
  o.degradation.sei = SeiModel::solvent_diffusion_limited;
  o.degradation.lithium_plating = PlatingModel::partially_reversible;
  Experiment e({"Discharge at 1C until 2.5 V", "Rest for 10 minutes", "Charge at 0.5C until 4.2 V",
                "Hold at 4.2 V until C/20", "Rest for 10 minutes"},
               50);
  e.set_saving(CycleSaving::every_nth(100));
  Simulation sim(p, o, CpuExecutor::create());
  const Solution s = sim.run(e);
  EXPECT_TRUE(s.completed) << s.termination;
  EXPECT_EQ(s.cycles.size(), 50u);
}

TEST(PlatingOptions, RefusedByName) {
  SimulationOptions o;
  o.degradation.lithium_plating = PlatingModel::reversible;
  try {  // Chen2020 holds no plating parameters
    Simulation(parameter_sets::chen2020(), o, CpuExecutor::create());
    ADD_FAILURE() << "plating without its parameters was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), "Lithium plating kinetic rate constant [m.s-1]");
    EXPECT_NE(std::string(e.what()).find("reversible"), std::string::npos) << e.what();
  }
  ParameterSet p = parameter_sets::okane2022();
  p.plating.transfer_coefficient = 1.5;
  try {
    Simulation(p, o, CpuExecutor::create());
    ADD_FAILURE() << "a transfer coefficient of 1.5 was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), "Lithium plating transfer coefficient");
  }
  o.grid.nx = 2;
  try {
    Simulation(parameter_sets::okane2022(), o, CpuExecutor::create());
    ADD_FAILURE() << "plating on a 3D cell was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), "SimulationOptions::degradation");
    EXPECT_NE(std::string(e.what()).find("lithium plating \"reversible\""), std::string::npos) << e.what();
  }
}

TEST(PlatingOptions, PartiallyReversibleImpliesAConstantFilmAsPybamm) {
  DegradationOptions d;
  d.lithium_plating = PlatingModel::partially_reversible;
  EXPECT_EQ(d.film(), SeiModel::constant);
  EXPECT_FALSE(d.film_resistance());  // PyBaMM's default follows the "SEI" asked for: none
  d.sei = SeiModel::constant;
  EXPECT_TRUE(d.film_resistance());
  for (const std::string& name : plating_model_names()) {
    PlatingModel m = PlatingModel::none;
    ASSERT_TRUE(parse_plating_model(name, m)) << name;
    EXPECT_EQ(to_string(m), name);
  }
  PlatingModel m = PlatingModel::none;
  EXPECT_FALSE(parse_plating_model("partially-reversible", m));
}

// Reversible plating strips what it plated: a cell that only rests after a
// cold charge ends with less plated lithium than it had, none turned dead.
TEST(PlatingPhysics, ReversiblePlatingStripsAtRestAndIrreversibleKeepsItAll) {
  const Experiment charge_then_rest({"Charge at 1C until 4.2 V", "Rest for 1 hour"});
  const Experiment charge({"Charge at 1C until 4.2 V"});
  for (PlatingModel model : {PlatingModel::reversible, PlatingModel::irreversible}) {
    SimulationOptions o;
    o.degradation.lithium_plating = model;
    ParameterSet p = cold_okane2022();
    p.negative_electrode.initial_concentration = 0.1 * p.negative_electrode.maximum_concentration;
    p.positive_electrode.initial_concentration = 0.9 * p.positive_electrode.maximum_concentration;
    const Solution a = Simulation(p, o, CpuExecutor::create()).run(charge);
    const Solution b = Simulation(p, o, CpuExecutor::create()).run(charge_then_rest);
    ASSERT_TRUE(a.completed && b.completed) << a.termination << b.termination;
    ASSERT_EQ(a.cycles.size(), 1u);
    ASSERT_EQ(b.cycles.size(), 1u);
    const CycleSummary &charged = a.cycles[0], &rested = b.cycles[0];
    EXPECT_GT(charged.plating_lithium_lost, 0.0) << to_string(model);
    if (model == PlatingModel::reversible) {
      EXPECT_LT(rested.plated_concentration, 0.5 * charged.plated_concentration);
      EXPECT_EQ(rested.dead_concentration, 0.0);
    } else {
      EXPECT_EQ(rested.plated_concentration, 0.0);
      EXPECT_GE(rested.dead_concentration, charged.dead_concentration);
    }
  }
}

// Batched plating: each cell of a batch is bitwise the cell run alone.
TEST(PlatingBatch, EveryBatchedCellIsTheCellRunAlone) {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 1, 1};
  o.thermal = ThermalModel::lumped;
  o.degradation.sei = SeiModel::reaction_limited;
  o.degradation.lithium_plating = PlatingModel::partially_reversible;
  const ParameterSet base = cold_okane2022();
  const char* const k = "Lithium plating kinetic rate constant [m.s-1]";
  const CellParameters cells{{k}, {1e-10, 1e-9, 1e-8}};
  const Experiment e(kCycle, 2);
  BatchOptions b;
  b.engine = BatchEngine::cell_program;
  b.threads = 2;
  const std::vector<BatchCellResult> batch = BatchSimulation(base, cells, o, CpuExecutor::create(), b).run(e);
  ASSERT_EQ(batch.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    ParameterSet p = base;
    p.plating.kinetic_rate_constant = cells.value(i, 0);
    const Solution s = Simulation(p, o, CpuExecutor::create()).run(e);
    ASSERT_EQ(batch[i].status, BatchCellResult::Status::completed) << batch[i].termination;
    EXPECT_EQ(batch[i].voltage, s["Voltage [V]"]) << "cell " << i;
    EXPECT_EQ(batch[i].steps_taken, s.steps_taken);
  }
  EXPECT_NE(batch[0].voltage, batch[2].voltage) << "the per-cell rate constant did not reach the cells";
}

}  // namespace
