// The DFN through rates, charges, power and drive cycles against PyBaMM
// 26.10.1.1 (tests/data/pybamm, tools/pybamm_reference.py): PyBaMM's mesh,
// its discretisation choices, our default step control. The bars: voltage
// within 2 mV RMS and 10 mV at most over the common time span (away from the
// instants where a step switches and both curves jump), capacity within
// 0.5 %, final temperature within 0.2 K, lithium conserved.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "solver/pybamm_curves.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

struct Case {
  const char* stem;
  const char* set;
  ThermalModel thermal;
  std::vector<std::string> steps;
  double c_n0 = 0.0, c_p0 = 0.0;  ///< initial particle concentrations (0: the set's own)
  const char* table = nullptr;    ///< a drive cycle's CSV in tests/data/pybamm, named "trips"
  /// Electrolyte depleted to zero: lithium conserved to the split's tolerance, not to rounding.
  bool depletes = false;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.stem; }

// The states PyBaMM's initial_soc gives (tests/data/pybamm/README.md).
constexpr double kSoc01[2] = {3802.774336107004, 50165.26498633016};
constexpr double kSoc05[2] = {15522.211404385793, 35269.45346023288};
constexpr double kSoc08[2] = {24311.789205594887, 24097.59481565992};

DriveCycles tables_of(const Case& c) {
  if (!c.table) return {};
  const test::PybammCurve csv = test::read_pybamm_curve(c.table);
  const std::string column = csv.columns.count("Current [A]") ? "Current [A]" : "Power [W]";
  return {{"trips", std::make_shared<const DriveCycle>("trips", csv["Time [s]"], csv[column])}};
}

class ExperimentVersusPybamm : public ::testing::TestWithParam<Case> {};

TEST_P(ExperimentVersusPybamm, VoltageCapacityTemperatureAndLithium) {
  const Case& c = GetParam();
  const test::PybammCurve ref = test::read_pybamm_curve(c.stem);
  ParameterSet p = std::string(c.set) == "Marquis2019" ? parameter_sets::marquis2019() : parameter_sets::chen2020();
  if (c.c_n0 > 0.0) {
    p.negative_electrode.initial_concentration = c.c_n0;
    p.positive_electrode.initial_concentration = c.c_p0;
  }
  SimulationOptions o;
  o.thermal = c.thermal;
  o.potential.electrolyte_face_mean = FaceMean::arithmetic;  // PyBaMM's
  Simulation sim(p, o, CpuExecutor::create());
  const double lithium = sim.lithium_inventory();
  const Solution s = sim.run(Experiment(c.steps, 1, tables_of(c)));
  ASSERT_TRUE(s.completed) << s.termination;

  const std::vector<double>& t = ref["Time [s]"];
  const std::vector<double>& v = ref["Voltage [V]"];
  const std::vector<double>* step = ref.columns.count("Step") ? &ref["Step"] : nullptr;
  const auto switching = [&](std::size_t i) {
    return step && ((i > 0 && (*step)[i - 1] != (*step)[i]) || (i + 1 < t.size() && (*step)[i + 1] != (*step)[i]));
  };
  const double end = std::min(s["Time [s]"].back(), t.back());
  double sum = 0.0, worst = 0.0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < t.size() && t[i] <= end; ++i) {
    if (switching(i)) continue;
    const double e = s.at("Voltage [V]", t[i]) - v[i];
    sum += e * e;
    worst = std::max(worst, std::fabs(e));
    ++n;
  }
  ASSERT_GT(n, 5u);
  const double rms = std::sqrt(sum / double(n));
  EXPECT_LE(rms, 2e-3) << n << " rows";
  EXPECT_LE(worst, 10e-3);
  const double capacity = s["Discharge capacity [A.h]"].back();
  const double ref_capacity = ref["Discharge capacity [A.h]"].back();
  EXPECT_NEAR(capacity, ref_capacity, 0.005 * std::fabs(ref_capacity));
  if (c.thermal == ThermalModel::lumped) {
    EXPECT_NEAR(s["Volume-averaged cell temperature [K]"].back(), ref["Volume-averaged cell temperature [K]"].back(),
                0.2);
  }
  EXPECT_NEAR(sim.lithium_inventory(), lithium, (c.depletes ? 1e-6 : 1e-10) * lithium);
  RecordProperty("rms_mV", std::to_string(1e3 * rms));
  RecordProperty("max_mV", std::to_string(1e3 * worst));
  RecordProperty("steps", s.steps_taken);
}

const std::vector<std::string> kCccv3 = {"Charge at 3C until 4.2 V", "Hold at 4.2 V until C/20"};
const std::vector<std::string> kCccv1 = {"Charge at 1C until 4.2 V", "Hold at 4.2 V until C/20"};
constexpr ThermalModel kIso = ThermalModel::isothermal, kLumped = ThermalModel::lumped;

INSTANTIATE_TEST_SUITE_P(
    Pybamm, ExperimentVersusPybamm,
    ::testing::Values(
        Case{"discharge_isothermal_0.1C", "Chen2020", kIso, {"Discharge at 0.1C until 2.5 V"}},
        Case{"discharge_lumped_0.1C", "Chen2020", kLumped, {"Discharge at 0.1C until 2.5 V"}},
        Case{"discharge_isothermal_3C", "Chen2020", kIso, {"Discharge at 3C until 2.5 V"}, 0, 0, nullptr, true},
        Case{"discharge_lumped_3C", "Chen2020", kLumped, {"Discharge at 3C until 2.5 V"}, 0, 0, nullptr, true},
        Case{"discharge_isothermal_5C", "Chen2020", kIso, {"Discharge at 5C until 2.5 V"}, 0, 0, nullptr, true},
        Case{"discharge_lumped_5C", "Chen2020", kLumped, {"Discharge at 5C until 2.5 V"}, 0, 0, nullptr, true},
        Case{"cccv_3C_soc0.1_isothermal", "Chen2020", kIso, kCccv3, kSoc01[0], kSoc01[1]},
        Case{"cccv_3C_soc0.1_lumped", "Chen2020", kLumped, kCccv3, kSoc01[0], kSoc01[1]},
        Case{"cccv_1C_soc0.1_isothermal", "Chen2020", kIso, kCccv1, kSoc01[0], kSoc01[1]},
        Case{"cccv_1C_soc0.1_lumped", "Chen2020", kLumped, kCccv1, kSoc01[0], kSoc01[1]},
        Case{"power_discharge_12W_isothermal", "Chen2020", kIso, {"Discharge at 12 W until 2.5 V"}},
        Case{"power_discharge_12W_lumped", "Chen2020", kLumped, {"Discharge at 12 W until 2.5 V"}},
        Case{"power_charge_5W_10min_soc0.5_isothermal",
             "Chen2020",
             kIso,
             {"Charge at 5 W for 10 minutes"},
             kSoc05[0],
             kSoc05[1]},
        Case{"drive_cycle_current_soc0.8_isothermal",
             "Chen2020",
             kIso,
             {"Run trips (A) until 2.5 V"},
             kSoc08[0],
             kSoc08[1],
             "drive_cycle_current"},
        Case{"drive_cycle_current_soc0.8_lumped",
             "Chen2020",
             kLumped,
             {"Run trips (A) until 2.5 V"},
             kSoc08[0],
             kSoc08[1],
             "drive_cycle_current"},
        Case{"drive_cycle_power_soc0.8_isothermal",
             "Chen2020",
             kIso,
             {"Run trips (W) until 2.5 V"},
             kSoc08[0],
             kSoc08[1],
             "drive_cycle_power"},
        Case{"marquis2019_discharge_isothermal_1C", "Marquis2019", kIso, {"Discharge at 1C until 3.105 V"}},
        Case{"marquis2019_discharge_lumped_1C", "Marquis2019", kLumped, {"Discharge at 1C until 3.105 V"}}),
    [](const auto& info) {
      std::string name = info.param.stem;
      for (char& ch : name)
        if (ch == '.') ch = '_';
      return name;
    });

}  // namespace
}  // namespace voltaic
