// Material functions: properties checkable without PyBaMM (the values
// against PyBaMM's are in pybamm_functions_test.cpp).
#include "voltaic/model/material_functions.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "voltaic/model/parameter_sets.hpp"

using namespace voltaic;

TEST(MaterialFunctions, ArrheniusIsOneAtItsReferenceAndForZeroEnergy) {
  EXPECT_EQ(material::arrhenius(35000.0, 298.15), 1.0);
  EXPECT_EQ(material::arrhenius(0.0, 250.0), 1.0);
  EXPECT_GT(material::arrhenius(35000.0, 318.15), 1.0);
  EXPECT_LT(material::arrhenius(35000.0, 278.15), 1.0);
}

TEST(MaterialFunctions, OcpAddsTheEntropicTermAwayFromTheReferenceTemperature) {
  const ParameterSet p = parameter_sets::marquis2019();
  const ElectrodeParameters& n = p.negative_electrode;
  const double sto = 0.4, T_ref = p.thermal.reference_temperature;
  EXPECT_EQ(material::open_circuit_potential(n, sto, T_ref, T_ref), material::open_circuit_potential(n.ocp, sto));
  EXPECT_DOUBLE_EQ(material::open_circuit_potential(n, sto, T_ref + 10.0, T_ref),
                   material::open_circuit_potential(n.ocp, sto) + 10.0 * material::entropic_change(n.entropic, sto));
}

TEST(MaterialFunctions, CastOutOfRangeSelectorsGiveNaN) {
  EXPECT_TRUE(std::isnan(material::open_circuit_potential(static_cast<OcpModel>(42), 0.5)));
  EXPECT_TRUE(std::isnan(material::entropic_change(static_cast<EntropicModel>(42), 0.5)));
  ElectrolyteParameters e = parameter_sets::chen2020().electrolyte;
  e.conductivity_model = static_cast<ElectrolyteModel>(42);
  EXPECT_TRUE(std::isnan(material::electrolyte_conductivity(e, 1000.0, 298.15)));
}

namespace {
/// dU/dsto by a central difference.
template <class F>
double derivative(F u, double sto) {
  const double h = 1e-6;
  return (u(sto + h) - u(sto - h)) / (2 * h);
}
}  // namespace

// Moura's entropic fits are the stoichiometry derivatives of the Dualfoil OCP
// fits divided by a fixed c_max: a check that both are typed as published.
TEST(MaterialFunctions, GraphiteEntropicChangeIsTheOcpSlopeOverCmax) {
  const double c_max = 24983.2619938437;
  for (double sto = 0.02; sto < 1.0; sto += 0.02) {
    const double slope = derivative(material::graphite_mcmb2528_ocp_dualfoil1998, sto);
    EXPECT_NEAR(material::graphite_entropic_change_moura2016(sto), slope / c_max, 1e-6 * 1.5 * 120.0 / c_max) << sto;
  }
}

// The same for LiCoO2, whose fits stretch the stoichiometry by 1.062 (so the
// slope carries that factor), and whose entropic fit has 19.854 for the OCP's
// 19.8543 (a relative difference of 1.5e-5 in one term).
TEST(MaterialFunctions, LiCoO2EntropicChangeIsTheOcpSlopeOverCmax) {
  const double c_max = 51217.9257309275;
  for (double sto = 0.4; sto < 0.94; sto += 0.02) {
    const double slope = derivative(material::lico2_ocp_dualfoil1998, sto) / 1.062;
    const double entropic = material::lico2_entropic_change_moura2016(sto);
    EXPECT_NEAR(entropic, slope / c_max, 1e-4 * std::abs(slope / c_max) + 1e-12) << sto;
  }
}
