// Every material function of Chen2020, Marquis2019 and OKane2022 against
// PyBaMM at the sample points of tools/pybamm_parameter_reference.py: the
// published formulas (OKane2022's cubic-spline OCP included) to 1e-12, and
// PyBaMM's DFN-level safeguards shown to be the only difference where they act.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "pybamm_reference.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/material_functions.hpp"

using namespace voltaic;
using test::ReferenceSet;

namespace {

constexpr double kRel = 1e-12;

using Evaluator = std::function<double(const std::vector<double>&)>;

/// voltaic's function for each of PyBaMM's function names, called with PyBaMM's arguments.
std::map<std::string, Evaluator> published(const ParameterSet& p) {
  std::map<std::string, Evaluator> f;
  for (const auto* e : {&p.negative_electrode, &p.positive_electrode}) {
    const std::string Side = e == &p.negative_electrode ? "Negative" : "Positive";
    f[Side + " electrode OCP [V]"] = [e](const auto& x) {
      return material::reference_open_circuit_potential(*e, x[0]);
    };
    f[Side + " electrode OCP entropic change [V.K-1]"] = [e](const auto& x) {
      return material::entropic_change(*e, x[0]);
    };
    f[Side + " electrode exchange-current density [A.m-2]"] = [e](const auto& x) {
      EXPECT_EQ(x[2], e->maximum_concentration);  // PyBaMM passes c_max; voltaic's is the set's
      return material::exchange_current_density(*e, x[0], x[1], x[3]);
    };
    f[Side + " particle diffusivity [m2.s-1]"] = [e](const auto& x) {
      return material::particle_diffusivity(*e, x[0], x[1]);
    };
  }
  f["Electrolyte conductivity [S.m-1]"] = [&p](const auto& x) {
    return material::electrolyte_conductivity(p.electrolyte, x[0], x[1]);
  };
  f["Electrolyte diffusivity [m2.s-1]"] = [&p](const auto& x) {
    return material::electrolyte_diffusivity(p.electrolyte, x[0], x[1]);
  };
  return f;
}

double max_abs(const nlohmann::json& values) {
  double m = 0.0;
  for (const auto& v : values) m = std::max(m, std::abs(v.get<double>()));
  return m;
}

class PyBaMMFunctions : public ::testing::TestWithParam<ReferenceSet> {
 protected:
  const nlohmann::json& ref() const { return test::pybamm_reference(GetParam().stem); }
  ParameterSet p_ = GetParam().make();
};

}  // namespace

TEST_P(PyBaMMFunctions, PublishedFormulasEqualPyBaMMs) {
  const auto f = published(p_);
  int points = 0;
  for (const auto& [name, table] : ref().at("functions").items()) {
    ASSERT_TRUE(f.count(name)) << "no voltaic function for PyBaMM's '" << name << "'";
    const auto& values = table.at("values");
    // Floor of the relative tolerance: a thousandth of the function's size,
    // for points near a zero crossing (entropic changes).
    const double floor = 1e-3 * max_abs(values);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto x = table.at("points")[i].get<std::vector<double>>();
      EXPECT_TRUE(test::close(f.at(name)(x), values[i].get<double>(), kRel, floor))
          << name << " at " << table.at("points")[i];
      ++points;
    }
  }
  EXPECT_EQ(ref().at("functions").size(), 10u);
  RecordProperty("points_compared", points);
}

// Each OCP at 201 stoichiometries, 0 to 1: for OKane2022's negative OCP, a
// spline through 248 points, this samples most of its segments.
TEST_P(PyBaMMFunctions, OcpOnADenseGridEqualsPyBaMMs) {
  for (const auto* e : {&p_.negative_electrode, &p_.positive_electrode}) {
    const std::string Side = e == &p_.negative_electrode ? "Negative" : "Positive";
    const auto& table = ref().at("ocp_dense").at(Side + " electrode OCP [V]");
    ASSERT_EQ(table.at("values").size(), 201u);
    for (std::size_t i = 0; i < table.at("values").size(); ++i) {
      const double sto = table.at("points")[i][0].get<double>();
      EXPECT_TRUE(test::close(material::reference_open_circuit_potential(*e, sto), table.at("values")[i].get<double>(),
                              kRel, 0.0))
          << Side << " sto " << sto;
    }
  }
}

// O'Kane's plating functions, whose forms voltaic fixes (PlatingParameters):
// j0_plating = F k c_e, j0_stripping = F k c_Li, gamma = gamma_0 L_sei_0 / L_sei.
TEST_P(PyBaMMFunctions, PlatingFormsWithTheSetsNumbersEqualPyBaMMs) {
  const auto& forms = ref().at("fixed_forms");
  if (forms.empty()) {
    EXPECT_TRUE(std::isnan(p_.plating.kinetic_rate_constant));  // the set has no plating
    return;
  }
  ASSERT_EQ(forms.size(), 3u);
  const double fk = kFaraday * p_.plating.kinetic_rate_constant;
  for (const auto& [name, table] : forms.items()) {
    for (std::size_t i = 0; i < table.at("values").size(); ++i) {
      const auto x = table.at("points")[i].get<std::vector<double>>();
      double ours = NAN;
      if (name == "Exchange-current density for plating [A.m-2]") ours = fk * x[0];
      if (name == "Exchange-current density for stripping [A.m-2]") ours = fk * x[1];
      if (name == "Dead lithium decay rate [s-1]") {
        ours = p_.plating.dead_lithium_decay_constant * p_.sei.initial_thickness / x[0];
      }
      EXPECT_TRUE(test::close(ours, table.at("values")[i].get<double>(), kRel, 0.0)) << name << " at " << x[0];
    }
  }
}

// PyBaMM's DFN evaluates U at the stoichiometry clipped to [1e-10, 1 - 1e-10],
// adds U_ref's entropic term (T - T_ref) dU/dT, and adds a barrier that is
// 1 mV at 0.001 (and 1 - 0.999) and below 1e-15 V from 0.01 to 0.99.
TEST_P(PyBaMMFunctions, OcpWithTemperatureEqualsPyBaMMsAwayFromTheBarrier) {
  const double T_ref = p_.thermal.reference_temperature;
  for (const auto* e : {&p_.negative_electrode, &p_.positive_electrode}) {
    const std::string Side = e == &p_.negative_electrode ? "Negative" : "Positive";
    const auto& table = ref().at("model_level").at(Side + " electrode OCP [V]");
    for (std::size_t i = 0; i < table.at("values").size(); ++i) {
      const auto x = table.at("points")[i].get<std::vector<double>>();
      const double sto = x[0], T = x[1], pybamm = table.at("values")[i].get<double>();
      const double ours = material::open_circuit_potential(*e, sto, T, T_ref);
      if (sto >= 0.01 && sto <= 0.99) {
        EXPECT_TRUE(test::close(ours, pybamm, kRel, 1.0)) << Side << " sto " << sto << " T " << T;
      } else {
        // PyBaMM's barrier: about +1 mV at 0.001, -1 mV at 0.999.
        const double barrier = pybamm - ours;
        EXPECT_NEAR(std::abs(barrier), 1e-3, 2e-4) << Side << " sto " << sto;
        EXPECT_EQ(barrier > 0, sto < 0.5) << Side << " sto " << sto;
      }
    }
  }
}

// PyBaMM's DFN replaces each square root in j0 by RegPower (delta = 1e-3) on
// the scaled concentrations c_e / c_e0, c_s / c_max, (c_max - c_s) / c_max:
// sqrt(x) (1 + delta^2 / x^2)^(-1/4). That factor is the whole difference:
// 2.25e-6 relative at stoichiometry 0.5 and c_e = c_e0, 0.25% at 0.01 and 0.99.
TEST_P(PyBaMMFunctions, ExchangeCurrentDiffersFromPyBaMMsOnlyByItsRegularisation) {
  const double delta = 1e-3, c_e0 = p_.electrolyte.initial_concentration;
  for (const auto* e : {&p_.negative_electrode, &p_.positive_electrode}) {
    const std::string Side = e == &p_.negative_electrode ? "Negative" : "Positive";
    const auto& table = ref().at("model_level").at(Side + " electrode exchange-current density [A.m-2]");
    for (std::size_t i = 0; i < table.at("values").size(); ++i) {
      const auto x = table.at("points")[i].get<std::vector<double>>();
      const double c_e = x[0], c_s = x[1], T = x[2], c_max = e->maximum_concentration;
      double factor = 1.0;
      for (const double s : {c_e / c_e0, c_s / c_max, (c_max - c_s) / c_max}) {
        factor *= std::pow(1.0 + delta * delta / (s * s), -0.25);
      }
      const double ours = material::exchange_current_density(*e, c_e, c_s, T);
      EXPECT_TRUE(test::close(ours * factor, table.at("values")[i].get<double>(), 1e-11, 0.0))
          << Side << " at " << table.at("points")[i];
    }
  }
}

// PyBaMM's DFN evaluates the electrolyte functions at max(c_e, 10 mol/m3).
TEST_P(PyBaMMFunctions, ElectrolyteEqualsPyBaMMsAboveItsConcentrationFloor) {
  for (const char* name : {"Electrolyte conductivity [S.m-1]", "Electrolyte diffusivity [m2.s-1]"}) {
    const auto& table = ref().at("model_level").at(name);
    const bool kappa = std::string(name).find("conductivity") != std::string::npos;
    for (std::size_t i = 0; i < table.at("values").size(); ++i) {
      const auto x = table.at("points")[i].get<std::vector<double>>();
      const double c_e = std::max(x[0], 10.0), T = x[1];
      const double ours = kappa ? material::electrolyte_conductivity(p_.electrolyte, c_e, T)
                                : material::electrolyte_diffusivity(p_.electrolyte, c_e, T);
      EXPECT_TRUE(test::close(ours, table.at("values")[i].get<double>(), kRel, 0.0)) << name << " at c_e " << x[0];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sets, PyBaMMFunctions, ::testing::ValuesIn(test::kReferenceSets), test::reference_set_name);
