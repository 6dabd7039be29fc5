#include "voltaic/solver/lumped_thermal.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "voltaic/core/error.hpp"

using voltaic::LumpedThermal;

namespace {
// Roughly PyBaMM's Chen2020 cell: rho c_p about 2.6e6 J/m^3/K over 2.42e-5 m^3,
// h = 10 W/m^2/K over 5.31e-3 m^2.
const LumpedThermal kCell(2.6e6 * 2.42e-5, 10.0 * 5.31e-3, 298.15);
}  // namespace

TEST(LumpedThermal, EnergyBalanceHoldsEachStep) {
  double t = 298.15;
  for (int i = 0; i < 100; ++i) {
    const double next = kCell.step(t, 2.5, 10.0);
    const double stored = kCell.heat_capacity() * (next - t), added = 10.0 * (2.5 - kCell.cooling_power(next));
    EXPECT_NEAR(stored, added, 1e-12 * std::abs(added) + 1e-12);
    t = next;
  }
}

TEST(LumpedThermal, ConvergesToTheExponentialAtFirstOrder) {
  // Constant heat Q: T(t) = T_amb + Q/hA (1 - exp(-hA t / C)).
  const double q = 3.0, horizon = 600.0;
  const double exact =
      kCell.ambient() + q / kCell.cooling() * (1.0 - std::exp(-kCell.cooling() * horizon / kCell.heat_capacity()));
  double previous_error = 0;
  for (int steps : {10, 20, 40, 80}) {
    double t = kCell.ambient();
    for (int i = 0; i < steps; ++i) t = kCell.step(t, q, horizon / steps);
    const double error = std::abs(t - exact);
    if (previous_error > 0) {
      EXPECT_NEAR(previous_error / error, 2.0, 0.1) << steps << " steps";
    }
    previous_error = error;
  }
  const double steady = kCell.step(kCell.ambient() + q / kCell.cooling(), q, 1e3);
  EXPECT_NEAR(steady, kCell.ambient() + q / kCell.cooling(), 1e-9);
}

TEST(LumpedThermal, BadValuesAreNamed) {
  EXPECT_THROW(LumpedThermal(0.0, 1.0, 298.0), voltaic::InvalidArgument);
  EXPECT_THROW(LumpedThermal(1.0, -1.0, 298.0), voltaic::InvalidArgument);
  EXPECT_THROW(LumpedThermal(1.0, 1.0, std::nan("")), voltaic::InvalidArgument);
  try {
    kCell.step(298.0, 1.0, -1.0);
    FAIL() << "negative dt accepted";
  } catch (const voltaic::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("dt"), std::string::npos);
  }
}
