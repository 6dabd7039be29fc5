// The potential-pair collectors against PyBaMM 26.10.1.1's 2+1D DFN
// ({"current collector": "potential pair", "dimensionality": 2}) on
// Marquis2019's pouch with its own tabs: a 1C discharge to 3.105 V
// (tests/data/pybamm/pouch, tools/pybamm_pouch_reference.py).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "solver/pybamm_curves.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

/// PyBaMM's mesh through the thickness (20 cells per region and per
/// particle), its arithmetic face mean, and an in-plane grid about as fine
/// as its 21 x 21 collector nodes.
SimulationOptions like_pybamm(int nx, int ny) {
  SimulationOptions o;
  o.grid = {20, 20, 20, 20, nx, ny, CurrentCollectorModel::potential_pair};
  o.potential.electrolyte_face_mean = FaceMean::arithmetic;
  return o;
}

TEST(CollectorsVersusPybamm, MarquisPouchDischargeAt1C) {
  const test::PybammCurve ref = test::read_pybamm_curve("pouch/marquis2019_pouch_1C_isothermal");
  Simulation sim(parameter_sets::marquis2019(), like_pybamm(10, 14), CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 1C until 3.105 V"}));
  ASSERT_TRUE(s.completed) << s.termination;
  const test::CurveDifference d = test::voltage_difference(s, ref);
  RecordProperty("rms_mV", std::to_string(1e3 * d.rms));
  RecordProperty("max_mV", std::to_string(1e3 * d.max));
  EXPECT_LT(d.rms, 2e-3);
  EXPECT_NEAR(s["Time [s]"].back(), ref["Time [s]"].back(), 0.01 * ref["Time [s]"].back());
}

}  // namespace
}  // namespace voltaic
