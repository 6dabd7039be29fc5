// Loss of active material (degradation_options.hpp, lam_point.hpp) against
// PyBaMM 26.10.1.1's DFN with the same options: OKane2022 at 298.15 K,
// cycles of a 1C discharge and a 1C CC-CV charge
// (tests/data/pybamm/ageing/lam_*, tools/pybamm_ageing_reference.py; the
// stress-driven cases with and without PyBaMM's "stress-induced diffusion",
// the OKane2022 coupled case over 50 cycles), lithium conservation, and the
// options' checks.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "pybamm_curves.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/simulation.hpp"

using namespace voltaic;

namespace {

const std::vector<std::string> kCycle = {"Discharge at 1C until 2.5 V", "Rest for 10 minutes",
                                         "Charge at 1C until 4.2 V", "Hold at 4.2 V until C/20", "Rest for 10 minutes"};

struct Case {
  const char* stem;  ///< tests/data/pybamm/ageing/<stem>_*.csv
  int cycles;
  LamModel negative, positive;
  SeiModel sei;
  double reaction_factor;  ///< "Negative electrode reaction-driven LAM factor [m3.mol-1]"
  StressInducedDiffusion stress_diffusion = StressInducedDiffusion::automatic;
  PlatingModel plating = PlatingModel::none;
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.stem; }

Simulation simulation_of(const Case& c) {
  ParameterSet p = parameter_sets::okane2022();
  p.negative_lam.reaction_factor = c.reaction_factor;
  SimulationOptions o;
  o.potential.electrolyte_face_mean = FaceMean::arithmetic;  // PyBaMM's
  o.degradation.sei = c.sei;
  o.degradation.loss_of_active_material[0] = c.negative;
  o.degradation.loss_of_active_material[1] = c.positive;
  o.degradation.stress_induced_diffusion[0] = o.degradation.stress_induced_diffusion[1] = c.stress_diffusion;
  o.degradation.lithium_plating = c.plating;
  return Simulation(p, o, CpuExecutor::create());
}

/// Lithium in the particles, the film and the lost active material: constant.
double lithium(const CycleSummary& c) {
  return c.particle_lithium + c.sei_lithium_lost + c.plating_lithium_lost + c.lam_lithium_lost[0] +
         c.lam_lithium_lost[1];
}

class LamVersusPybamm : public ::testing::TestWithParam<Case> {};

TEST_P(LamVersusPybamm, CapacityActiveMaterialAndVoltage) {
  const Case& c = GetParam();
  const std::string stem = std::string("ageing/") + c.stem;
  const test::PybammCurve summary = test::read_pybamm_curve(stem + "_summary");
  Simulation sim = simulation_of(c);
  const Solution s = sim.run(Experiment(kCycle, c.cycles));
  ASSERT_TRUE(s.completed) << s.termination;
  ASSERT_EQ(s.cycles.size(), static_cast<std::size_t>(c.cycles));

  const std::vector<double>& capacity = summary["Discharge step capacity [A.h]"];
  for (int i = 0; i < c.cycles; ++i) {
    const CycleSummary& ours = s.cycles[static_cast<std::size_t>(i)];
    EXPECT_NEAR(ours.discharge_capacity, capacity[i], 0.005 * capacity[i]) << "cycle " << i + 1;
  }
  const CycleSummary& last = s.cycles.back();
  const char* side[2] = {"negative", "positive"};
  for (int e = 0; e < 2; ++e) {
    const double lam = summary[std::string("Loss of active material in ") + side[e] + " electrode [%]"].back();
    const double li = summary[std::string("End of cycle Loss of lithium due to loss of active material in ") + side[e] +
                              " electrode [mol]"]
                          .back();
    EXPECT_NEAR(last.lam_percent[e], lam, 0.03 * lam + 1e-12) << side[e];
    EXPECT_NEAR(last.lam_lithium_lost[e], li, 0.03 * li + 1e-15) << side[e];
    EXPECT_NEAR(last.electrode_capacity[e],
                summary[std::string(e == 0 ? "Negative" : "Positive") + " electrode capacity [A.h]"].back(),
                1e-4 * last.electrode_capacity[e])
        << side[e];
  }
  EXPECT_NEAR(last.capacity, summary["Capacity [A.h]"].back(), 0.005 * last.capacity);
  if (c.sei != SeiModel::none) {
    const double sei = summary["Loss of lithium to negative SEI [mol]"].back();
    EXPECT_NEAR(last.sei_lithium_lost, sei, 0.03 * sei);
    RecordProperty("sei_lithium_relative_error", std::to_string(last.sei_lithium_lost / sei - 1.0));
  }
  if (c.plating != PlatingModel::none) {
    const double plated = summary["Loss of lithium to negative lithium plating [mol]"].back();
    EXPECT_NEAR(last.plating_lithium_lost, plated, 0.03 * plated);
    RecordProperty("plating_lithium_relative_error", std::to_string(last.plating_lithium_lost / plated - 1.0));
  }
  // What the particles lost is in the film and the lost material (the salt is conserved).
  EXPECT_NEAR(lithium(s.cycles.front()), lithium(last), 1e-7 * last.particle_lithium)
      << "particles' lithium plus the SEI's and the lost material's is not conserved";

  test::expect_first_and_last_cycles(s, stem, c.cycles, static_cast<int>(kCycle.size()));
  for (int e = 0; e < 2; ++e) {
    const double lam = summary[std::string("Loss of active material in ") + side[e] + " electrode [%]"].back();
    if (lam > 0.0)
      RecordProperty(std::string("lam_") + side[e] + "_relative_error",
                     std::to_string(last.lam_percent[e] / lam - 1.0));
  }
  double worst_capacity = 0.0;
  for (int i = 0; i < c.cycles; ++i)
    worst_capacity = std::fmax(worst_capacity,
                               std::fabs(s.cycles[static_cast<std::size_t>(i)].discharge_capacity / capacity[i] - 1.0));
  RecordProperty("worst_discharge_capacity_relative_error", std::to_string(worst_capacity));
  RecordProperty("lithium_conservation", std::to_string(lithium(last) / lithium(s.cycles.front()) - 1.0));
}

INSTANTIATE_TEST_SUITE_P(OKane2022, LamVersusPybamm,
                         ::testing::Values(Case{"lam_reaction", 15, LamModel::reaction_driven, LamModel::none,
                                                SeiModel::reaction_limited, 1.5e-4},
                                           Case{"lam_stress_negative", 10, LamModel::stress_driven, LamModel::none,
                                                SeiModel::none, 0.0, StressInducedDiffusion::off},
                                           // PyBaMM's default with mechanics: stress-induced diffusion on
                                           Case{"lam_stress", 50, LamModel::stress_driven, LamModel::stress_driven,
                                                SeiModel::none, 0.0},
                                           // The coupled bar: SEI + plating + stress-driven LAM, 50 cycles
                                           Case{"lam_okane2022_coupled", 50, LamModel::stress_driven,
                                                LamModel::stress_driven, SeiModel::solvent_diffusion_limited, 0.0,
                                                StressInducedDiffusion::automatic, PlatingModel::partially_reversible}),
                         case_name);

TEST(LamOptions, RefusedByName) {
  SimulationOptions o;
  o.degradation.loss_of_active_material[0] = LamModel::stress_driven;
  try {  // Chen2020 holds no particle mechanics
    Simulation(parameter_sets::chen2020(), o, CpuExecutor::create());
    ADD_FAILURE() << "a stress-driven loss without its parameters was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), "Negative electrode Poisson's ratio");
    EXPECT_NE(std::string(e.what()).find("stress-driven"), std::string::npos) << e.what();
  }
  o.degradation.loss_of_active_material[0] = LamModel::reaction_driven;
  try {  // the SEI's current drives it
    Simulation(parameter_sets::okane2022(), o, CpuExecutor::create());
    ADD_FAILURE() << "a reaction-driven loss without a growing SEI was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), "loss of active material");
  }
  o.degradation.loss_of_active_material[0] = LamModel::none;
  o.degradation.loss_of_active_material[1] = LamModel::reaction_driven;
  o.degradation.sei = SeiModel::reaction_limited;
  try {  // the film grows on the negative particles only
    Simulation(parameter_sets::okane2022(), o, CpuExecutor::create());
    ADD_FAILURE() << "a reaction-driven loss on the positive electrode was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("positive"), std::string::npos) << e.what();
  }
}

TEST(LamOptions, NamesArePyBaMMs) {
  for (const std::string& name : lam_model_names()) {
    LamModel m = LamModel::none;
    ASSERT_TRUE(parse_lam_model(name, m)) << name;
    EXPECT_EQ(to_string(m), name);
  }
  LamModel m = LamModel::none;
  EXPECT_FALSE(parse_lam_model("stress driven", m));
  DegradationOptions d;
  d.loss_of_active_material[1] = LamModel::stress_driven;
  EXPECT_EQ(describe(d),
            "loss of active material (\"none\", \"stress-driven\"), stress-induced diffusion (\"true\", \"true\")");
  d.stress_induced_diffusion[0] = StressInducedDiffusion::off;
  EXPECT_EQ(describe(d),
            "loss of active material (\"none\", \"stress-driven\"), stress-induced diffusion (\"false\", \"true\")");
}

}  // namespace
