// The material functions' analytic slopes, which the implicit Butler-Volmer
// solve takes as its Newton derivative: each against a central difference
// of its own value, and the solve's root against the explicit reaction.
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <vector>

#include "voltaic/model/function_definition.hpp"
#include "voltaic/model/kinetics.hpp"
#include "voltaic/model/material_functions.hpp"
#include "voltaic/model/parameter_sets.hpp"

using namespace voltaic;

namespace {

/// f'(x) by a central difference of step h.
template <class F>
double central(F f, double x, double h) {
  return (f(x + h) - f(x - h)) / (2.0 * h);
}

/// |a - b| within rtol of the larger, or atol.
void expect_close(double a, double b, double rtol, double atol, const char* what, double at) {
  EXPECT_NEAR(a, b, rtol * std::fmax(std::fabs(a), std::fabs(b)) + atol) << what << " at " << at;
}

}  // namespace

TEST(MaterialSlopes, FitsMatchTheirCentralDifference) {
  using Fit = ValueSlope (*)(double);
  const struct {
    const char* name;
    Fit fit;
  } fits[] = {{"graphite_siox_chen2020", material::graphite_siox_ocp_chen2020_slope},
              {"nmc811_chen2020", material::nmc811_ocp_chen2020_slope},
              {"graphite_mcmb2528_dualfoil1998", material::graphite_mcmb2528_ocp_dualfoil1998_slope},
              {"lico2_dualfoil1998", material::lico2_ocp_dualfoil1998_slope}};
  for (const auto& f : fits) {
    for (double sto = 0.01; sto < 1.0; sto += 0.0123) {
      const double d = central([&](double x) { return f.fit(x).value; }, sto, 1e-6);
      expect_close(f.fit(sto).slope, d, 1e-5, 1e-6, f.name, sto);
    }
  }
}

TEST(MaterialSlopes, TablesMatchTheirCentralDifference) {
  const ParameterSet p = parameter_sets::okane2022();
  const CustomFunction& cubic = p.custom_function(FunctionSlot::negative_ocp);
  ASSERT_EQ(cubic.kind, FunctionKind::cubic_table);
  // Inside the segments (the spline's slope is continuous across nodes, the
  // central difference of one step inside), and beyond both ends.
  for (double sto = -0.05; sto < 1.05; sto += 0.00137) {
    const double d = central([&](double x) { return cubic(x); }, sto, 1e-8);
    expect_close(cubic.with_slope(sto).slope, d, 1e-5, 1e-4, "cubic table", sto);
    EXPECT_EQ(cubic.with_slope(sto).value, cubic(sto)) << sto;
  }
  const FunctionDefinition table = FunctionDefinition::table({0.0, 0.3, 0.5, 1.0}, {1.0, 0.4, 0.3, 0.1});
  const CustomFunction linear = table.handle();
  for (double x : {-0.2, 0.1, 0.4, 0.7, 1.3}) {
    expect_close(linear.with_slope(x).slope, central([&](double t) { return linear(t); }, x, 1e-6), 1e-8, 0.0,
                 "linear table", x);
  }
}

TEST(MaterialSlopes, GuardedOcpAndExchangeCurrentMatchTheirCentralDifference) {
  for (const ParameterSet& p :
       {parameter_sets::chen2020(), parameter_sets::okane2022(), parameter_sets::marquis2019()}) {
    for (const ElectrodeParameters* e : {&p.negative_electrode, &p.positive_electrode}) {
      const double t_ref = p.thermal.reference_temperature;
      for (const double T : {t_ref, t_ref + 12.0}) {
        // Near both ends too, where the barriers rise.
        for (const double sto : {0.0005, 0.004, 0.03, 0.2, 0.45, 0.61, 0.8, 0.97, 0.9985}) {
          const auto u = [&](double x) { return material::guarded_open_circuit_potential(*e, x, T, t_ref); };
          const ValueSlope s = material::guarded_open_circuit_potential_slope(*e, sto, T, t_ref);
          EXPECT_EQ(s.value, u(sto)) << sto;
          expect_close(s.slope, central(u, sto, 1e-8), 1e-4, 1e-3, "guarded OCP", sto);

          const double c_max = e->maximum_concentration, c = sto * c_max, c_e = 950.0;
          const auto j0 = [&](double x) {
            return material::regularised_exchange_current_density(*e, c_e, x, T, 1000.0);
          };
          const ValueSlope k = material::regularised_exchange_current_density_slope(*e, c_e, c, T, 1000.0);
          EXPECT_EQ(k.value, j0(c)) << sto;
          expect_close(k.slope, central(j0, c, 1e-6 * c_max), 1e-5, 1e-12, "exchange current", sto);
        }
      }
    }
  }
}

// d j / d c_surf, and the implicit solve's root: j = BV(c_surf(j)) to rounding,
// over overpotentials from a deep charge to a deep discharge.
TEST(MaterialSlopes, ImplicitButlerVolmerRootsAndSurfaceSlope) {
  const ParameterSet p = parameter_sets::okane2022();
  const ElectrodeParameters& e = p.negative_electrode;
  const double t_ref = p.thermal.reference_temperature, T = 298.15, c_max = e.maximum_concentration;
  for (const double sto : {0.05, 0.3, 0.7, 0.95}) {
    const double c = sto * c_max;
    const double u = material::guarded_open_circuit_potential(e, sto, T, t_ref);
    for (const double eta : {-0.2, -0.02, 0.0, 0.01, 0.15}) {
      const auto j = [&](double x) { return kinetics::butler_volmer(e, t_ref, u + eta, 0.0, 1000.0, x, T, 1000.0).j; };
      const kinetics::SurfaceReaction s = kinetics::butler_volmer_slope(e, t_ref, u + eta, 1000.0, c, T, 1000.0);
      EXPECT_EQ(s.r.j, j(c));
      expect_close(s.dj_dc, central(j, c, 1e-6 * c_max), 1e-5, 1e-9, "dj/dc", eta);

      const kinetics::SurfaceResponse r{c, -2.0e4, 0.0};  // a surface that moves with j
      const kinetics::ImplicitReaction x =
          kinetics::butler_volmer_implicit(e, t_ref, u + eta, 0.0, 1000.0, r, T, 1000.0, 0.0);
      ASSERT_TRUE(x.ok) << sto << " " << eta;
      EXPECT_NEAR(x.c_surf, c + r.slope * x.j / kFaraday, 1e-9 * c_max);
      EXPECT_NEAR(x.j, j(x.c_surf), 1e-11 * (std::fabs(x.j) + 1.0)) << sto << " " << eta;
    }
  }
}
