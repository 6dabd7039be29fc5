// SEI growth (degradation_options.hpp, sei_point.hpp) against PyBaMM
// 26.10.1.1's DFN with the same options over ten CC-CV cycles (each model
// at its nominal parameters also over fifty)
// (tests/data/pybamm/ageing, tools/pybamm_ageing_reference.py), and the
// options' checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pybamm_curves.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/simulation.hpp"

using namespace voltaic;

namespace {

const std::vector<std::string> kCycle = {"Discharge at 1C until 2.5 V", "Rest for 10 minutes",
                                         "Charge at 0.5C until 4.2 V", "Hold at 4.2 V until C/20",
                                         "Rest for 10 minutes"};

struct Case {
  const char* stem;  ///< tests/data/pybamm/ageing/<stem>_*.csv
  SeiModel sei;
  SeiFilmResistance film;
  double j0_factor;  ///< on Chen2020's SEI exchange current density
  ThermalModel thermal;
  double activation;  ///< SEI growth activation energy [J/mol] (Chen2020's: 0)
  int cycles = 10;
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.stem; }

class SeiVersusPybamm : public ::testing::TestWithParam<Case> {};

TEST_P(SeiVersusPybamm, CapacityLithiumAndVoltageOverTheCycles) {
  const Case& c = GetParam();
  const int cycles = c.cycles;
  const std::string stem = std::string("ageing/") + c.stem;
  const test::PybammCurve summary = test::read_pybamm_curve(stem + "_summary");
  ParameterSet p = parameter_sets::chen2020();
  p.sei.exchange_current_density *= c.j0_factor;
  p.sei.activation_energy = c.activation;
  SimulationOptions o;
  o.thermal = c.thermal;
  o.potential.electrolyte_face_mean = FaceMean::arithmetic;  // PyBaMM's
  o.degradation.sei = c.sei;
  o.degradation.sei_film_resistance = c.film;
  Simulation sim(p, o, CpuExecutor::create());
  const Solution s = sim.run(Experiment(kCycle, cycles));
  ASSERT_TRUE(s.completed) << s.termination;
  ASSERT_EQ(s.cycles.size(), static_cast<std::size_t>(cycles));

  const std::vector<double>& capacity = summary["Discharge step capacity [A.h]"];
  const std::vector<double>& lost = summary["Loss of lithium to negative SEI [mol]"];
  const std::vector<double>& thickness = summary["End of cycle X-averaged negative SEI thickness [m]"];
  double worst_capacity = 0.0;
  for (int i = 0; i < cycles; ++i) {
    const CycleSummary& ours = s.cycles[static_cast<std::size_t>(i)];
    EXPECT_EQ(ours.cycle, i + 1);
    EXPECT_NEAR(ours.discharge_capacity, capacity[i], 0.005 * capacity[i]) << "cycle " << i + 1;
    worst_capacity = std::max(worst_capacity, std::fabs(ours.discharge_capacity / capacity[i] - 1.0));
    EXPECT_GT(ours.sei_lithium_lost, i > 0 ? s.cycles[i - 1].sei_lithium_lost : 0.0) << "cycle " << i + 1;
  }
  const CycleSummary& last = s.cycles.back();
  EXPECT_NEAR(last.sei_lithium_lost, lost.back(), 0.03 * lost.back());
  EXPECT_NEAR(last.sei_thickness, thickness.back(), 0.03 * thickness.back());
  EXPECT_NEAR(last.sei_capacity_lost(), summary["Loss of capacity to negative SEI [A.h]"].back(),
              0.03 * last.sei_capacity_lost());
  // Lithium: what the particles lost is what the film holds (the electrolyte's salt is conserved).
  EXPECT_NEAR(s.cycles.front().particle_lithium + s.cycles.front().sei_lithium_lost,
              last.particle_lithium + last.sei_lithium_lost, 1e-10 * last.particle_lithium)
      << "particles' lithium plus the SEI's is not conserved";

  test::expect_first_and_last_cycles(s, stem, cycles, static_cast<int>(kCycle.size()));
  RecordProperty("sei_lithium_lost_relative_error", std::to_string(last.sei_lithium_lost / lost.back() - 1.0));
  RecordProperty("worst_discharge_capacity_relative_error", std::to_string(worst_capacity));
}

INSTANTIATE_TEST_SUITE_P(
    Chen2020, SeiVersusPybamm,
    ::testing::Values(Case{"sei_reaction_limited", SeiModel::reaction_limited, SeiFilmResistance::automatic, 1.0,
                           ThermalModel::isothermal, 0.0},
                      Case{"sei_reaction_limited_fast", SeiModel::reaction_limited, SeiFilmResistance::automatic, 100.0,
                           ThermalModel::isothermal, 0.0},
                      Case{"sei_reaction_limited_fast_nofilm", SeiModel::reaction_limited, SeiFilmResistance::none,
                           100.0, ThermalModel::isothermal, 0.0},
                      Case{"sei_reaction_limited_fast_lumped", SeiModel::reaction_limited, SeiFilmResistance::automatic,
                           100.0, ThermalModel::lumped, 37000.0},
                      Case{"sei_solvent_diffusion_limited", SeiModel::solvent_diffusion_limited,
                           SeiFilmResistance::automatic, 1.0, ThermalModel::isothermal, 0.0},
                      Case{"sei_interstitial_diffusion_limited", SeiModel::interstitial_diffusion_limited,
                           SeiFilmResistance::automatic, 1.0, ThermalModel::isothermal, 0.0},
                      Case{"sei_ec_reaction_limited", SeiModel::ec_reaction_limited, SeiFilmResistance::automatic, 1.0,
                           ThermalModel::isothermal, 0.0},
                      Case{"sei_reaction_limited_50", SeiModel::reaction_limited, SeiFilmResistance::automatic, 1.0,
                           ThermalModel::isothermal, 0.0, 50},
                      Case{"sei_solvent_diffusion_limited_50", SeiModel::solvent_diffusion_limited,
                           SeiFilmResistance::automatic, 1.0, ThermalModel::isothermal, 0.0, 50},
                      Case{"sei_interstitial_diffusion_limited_50", SeiModel::interstitial_diffusion_limited,
                           SeiFilmResistance::automatic, 1.0, ThermalModel::isothermal, 0.0, 50},
                      Case{"sei_ec_reaction_limited_50", SeiModel::ec_reaction_limited, SeiFilmResistance::automatic,
                           1.0, ThermalModel::isothermal, 0.0, 50}),
    case_name);

TEST(SeiOptions, RefusedByName) {
  ParameterSet p = parameter_sets::chen2020();
  SimulationOptions o;
  o.degradation.sei_film_resistance = SeiFilmResistance::distributed;
  try {
    Simulation(p, o, CpuExecutor::create());
    ADD_FAILURE() << "a film resistance without a film was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), "SEI film resistance");
  }
  o.degradation = {};
  o.degradation.sei = SeiModel::reaction_limited_asymmetric;  // Chen2020 has no transfer coefficient
  try {
    Simulation(p, o, CpuExecutor::create());
    ADD_FAILURE() << "an unset SEI parameter was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), "SEI growth transfer coefficient");
  }
  o.degradation.sei = SeiModel::reaction_limited;
  o.grid.nx = 2;
  try {
    Simulation(p, o, CpuExecutor::create());
    ADD_FAILURE() << "SEI on a 3D cell was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), "SimulationOptions::degradation");
  }
}

TEST(SeiOptions, PybammNamesRoundTrip) {
  for (const std::string& name : sei_model_names()) {
    SeiModel m = SeiModel::none;
    ASSERT_TRUE(parse_sei_model(name, m)) << name;
    EXPECT_EQ(to_string(m), name);
  }
  SeiModel m = SeiModel::none;
  EXPECT_FALSE(parse_sei_model("reaction-limited", m));
}

// Batched ageing: each cell of a batch (the cell program on worker threads)
// is bitwise the cell run alone (a Simulation on the cell engine).
TEST(SeiBatch, EveryBatchedCellIsTheCellRunAlone) {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 1, 1};
  o.thermal = ThermalModel::lumped;
  o.degradation.sei = SeiModel::reaction_limited;
  ParameterSet base = parameter_sets::chen2020();
  base.sei.exchange_current_density *= 100.0;
  base.sei.activation_energy = 37000.0;
  const char* const j0 = "SEI reaction exchange current density [A.m-2]";
  const CellParameters cells{{j0}, {1.5e-5, 3e-5, 6e-5}};
  const Experiment e(kCycle, 2);
  BatchOptions b;
  b.engine = BatchEngine::cell_program;
  b.threads = 2;
  const std::vector<BatchCellResult> batch = BatchSimulation(base, cells, o, CpuExecutor::create(), b).run(e);
  ASSERT_EQ(batch.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    ParameterSet p = base;
    set_parameter(p, j0, cells.value(i, 0));
    const Solution s = Simulation(p, o, CpuExecutor::create()).run(e);
    ASSERT_EQ(batch[i].status, BatchCellResult::Status::completed) << batch[i].termination;
    EXPECT_EQ(batch[i].voltage, s["Voltage [V]"]) << "cell " << i;
    EXPECT_EQ(batch[i].time, s["Time [s]"]) << "cell " << i;
    EXPECT_EQ(batch[i].steps_taken, s.steps_taken);
  }
  // Faster growth, less capacity in the second cycle.
  EXPECT_GT(batch[0].discharge_capacity_ah, batch[2].discharge_capacity_ah);
}

}  // namespace
