// The DFN against PyBaMM 26.10.1.1 (tests/data/pybamm): Chen2020, PyBaMM's
// mesh (20 cells per region and per particle), default step control.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "solver/pybamm_curves.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

struct DischargeCase {
  const char* stem;
  double c_rate;
  ThermalModel thermal;
};

void PrintTo(const DischargeCase& c, std::ostream* os) { *os << c.stem; }

/// PyBaMM's conventions where they are discretisation choices: its particle
/// surface extrapolation (our only one) and its arithmetic face mean of the
/// electrolyte conductivity.
SimulationOptions like_pybamm(ThermalModel thermal) {
  SimulationOptions o;
  o.thermal = thermal;
  o.potential.electrolyte_face_mean = FaceMean::arithmetic;
  return o;
}

class DischargeVersusPybamm : public ::testing::TestWithParam<DischargeCase> {};

TEST_P(DischargeVersusPybamm, VoltageCapacityTemperatureAndLithium) {
  const DischargeCase c = GetParam();
  const test::PybammCurve ref = test::read_pybamm_curve(c.stem);
  Simulation sim(parameter_sets::chen2020(), like_pybamm(c.thermal), CpuExecutor::create());
  const double lithium = sim.lithium_inventory();
  std::ostringstream step;
  step << "Discharge at " << c.c_rate << "C until 2.5 V";
  const Solution s = sim.run(Experiment({step.str()}));
  ASSERT_TRUE(s.completed) << s.termination;
  EXPECT_NE(s.termination.find("cut-off"), std::string::npos) << s.termination;
  EXPECT_NEAR(s["Voltage [V]"].back(), 2.5, 1e-6);

  const test::CurveDifference d = test::voltage_difference(s, ref);
  EXPECT_LE(d.rms, 2e-3) << d.points << " points";
  EXPECT_LE(d.max, 10e-3);
  const double capacity = s["Discharge capacity [A.h]"].back(), ref_capacity = ref["Discharge capacity [A.h]"].back();
  EXPECT_NEAR(capacity, ref_capacity, 0.005 * ref_capacity);
  if (c.thermal == ThermalModel::lumped) {
    const double rise = s["Volume-averaged cell temperature [K]"].back() - 298.15;
    const double ref_rise = ref["Volume-averaged cell temperature [K]"].back() - 298.15;
    EXPECT_NEAR(rise, ref_rise, 0.2);
  }
  EXPECT_NEAR(sim.lithium_inventory(), lithium, 1e-10 * lithium);
  RecordProperty("rms_mV", std::to_string(1e3 * d.rms));
  RecordProperty("max_mV", std::to_string(1e3 * d.max));
}

INSTANTIATE_TEST_SUITE_P(Chen2020, DischargeVersusPybamm,
                         ::testing::Values(DischargeCase{"discharge_isothermal_0.5C", 0.5, ThermalModel::isothermal},
                                           DischargeCase{"discharge_isothermal_1C", 1.0, ThermalModel::isothermal},
                                           DischargeCase{"discharge_isothermal_2C", 2.0, ThermalModel::isothermal},
                                           DischargeCase{"discharge_lumped_0.5C", 0.5, ThermalModel::lumped},
                                           DischargeCase{"discharge_lumped_1C", 1.0, ThermalModel::lumped},
                                           DischargeCase{"discharge_lumped_2C", 2.0, ThermalModel::lumped}),
                         [](const auto& info) {
                           std::string name = info.param.stem;
                           for (char& ch : name)
                             if (ch == '.') ch = '_';
                           return name;
                         });

// Our own face rule (harmonic, exact at the separator's porosity jumps) at
// PyBaMM's mesh is closer to PyBaMM's converged (160-cell) curve than PyBaMM
// is at 20 cells: the two discretisations converge to one curve.
TEST(DischargeVersusPybammConverged, HarmonicFacesAreCloserToTheConvergedCurve) {
  const test::PybammCurve fine = test::read_pybamm_curve("discharge_isothermal_1C_160pts");
  const test::PybammCurve coarse = test::read_pybamm_curve("discharge_isothermal_1C");
  SimulationOptions o;
  o.potential.electrolyte_face_mean = FaceMean::harmonic;
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 1C until 2.5 V"}));
  ASSERT_TRUE(s.completed) << s.termination;
  const double ours = std::fabs(s["Voltage [V]"].front() - fine["Voltage [V]"].front());
  const double theirs = std::fabs(coarse["Voltage [V]"].front() - fine["Voltage [V]"].front());
  EXPECT_LT(ours, 0.5 * theirs) << "initial voltage: ours " << ours << " V, PyBaMM-20 " << theirs << " V off";
  const test::CurveDifference d = test::voltage_difference(s, fine);
  EXPECT_LE(d.rms, 1e-3);
}

TEST(CccvVersusPybamm, DischargeRestChargeHold) {
  const test::PybammCurve ref = test::read_pybamm_curve("cccv_isothermal");
  Simulation sim(parameter_sets::chen2020(), like_pybamm(ThermalModel::isothermal), CpuExecutor::create());
  const Solution s = sim.run(Experiment(
      {"Discharge at 1C until 2.5 V", "Rest for 1 hour", "Charge at 0.5C until 4.2 V", "Hold at 4.2 V until C/50"}));
  ASSERT_TRUE(s.completed) << s.termination;
  EXPECT_NEAR(std::fabs(s["Current [A]"].back()), 0.1, 1e-6);
  EXPECT_NEAR(s["Time [s]"].back(), ref["Time [s]"].back(), 0.005 * ref["Time [s]"].back());
  // Away from the steps' switching instants, where both curves jump.
  const std::vector<double>& t = ref["Time [s]"];
  const std::vector<double>& step = ref["Step"];
  double worst_v = 0.0, worst_i = 0.0;
  for (std::size_t i = 1; i + 1 < t.size(); ++i) {
    if (step[i - 1] != step[i] || step[i + 1] != step[i] || t[i] > s["Time [s]"].back()) continue;
    worst_v = std::max(worst_v, std::fabs(s.at("Voltage [V]", t[i]) - ref["Voltage [V]"][i]));
    worst_i = std::max(worst_i, std::fabs(s.at("Current [A]", t[i]) - ref["Current [A]"][i]));
  }
  EXPECT_LE(worst_v, 10e-3);
  EXPECT_LE(worst_i, 0.05);
}

}  // namespace
}  // namespace voltaic
