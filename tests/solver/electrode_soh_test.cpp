// The electrode state of health (electrode_soh.hpp) against PyBaMM's eSOH
// summary variables of its ageing references (tests/data/pybamm/ageing):
// the same cyclable lithium gives the same window and capacity.
#include "voltaic/solver/electrode_soh.hpp"

#include <gtest/gtest.h>

#include <string>

#include "pybamm_curves.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_sets.hpp"

using namespace voltaic;

namespace {

void expect_pybamms_window(const ParameterSet& p, const std::string& stem) {
  SCOPED_TRACE(stem);
  const test::PybammCurve s = test::read_pybamm_curve("ageing/" + stem + "_summary");
  const std::vector<double>& lithium = s["Total lithium in particles [mol]"];
  for (std::size_t i = 0; i < lithium.size(); ++i) {
    const ElectrodeSoh e = electrode_soh(p, lithium[i]);
    EXPECT_NEAR(e.capacity_ah, s["Capacity [A.h]"][i], 1e-6 * e.capacity_ah) << "cycle " << i + 1;
    EXPECT_NEAR(e.x_100, s["x_100"][i], 1e-6) << "cycle " << i + 1;
    EXPECT_NEAR(e.x_0, s["x_0"][i], 1e-6) << "cycle " << i + 1;
    EXPECT_NEAR(e.y_100, s["y_100"][i], 1e-6) << "cycle " << i + 1;
    EXPECT_NEAR(e.y_0, s["y_0"][i], 1e-6) << "cycle " << i + 1;
  }
}

TEST(ElectrodeSoh, EqualsPybammsOverAFadingCell) {
  expect_pybamms_window(parameter_sets::chen2020(), "sei_reaction_limited_fast");
  expect_pybamms_window(parameter_sets::chen2020(), "sei_solvent_diffusion_limited");
}

TEST(ElectrodeSoh, TheInitialLithiumIsTheSetsAndTooMuchIsRefused) {
  const ParameterSet p = parameter_sets::chen2020();
  const double n = initial_particle_lithium(p);
  EXPECT_NEAR(electrode_soh(p, n).capacity_ah, 5.1532, 1e-3);  // PyBaMM's initial "Capacity [A.h]"
  const double too_much = (negative_electrode_capacity(p) + positive_electrode_capacity(p)) * 3600.0 / 96485.0;
  EXPECT_THROW(electrode_soh(p, 1.01 * too_much), InvalidArgument);
}

}  // namespace
