// The CPU's four-lane evaluations (voltaic/core/lanes4.hpp,
// voltaic/model/kinetics_lanes.hpp) give each lane the scalar code's bits:
// exp, the guarded OCP of every built-in fit (barriers and NaN included),
// and the implicit Butler-Volmer solves run four evaluations at a time
// against the same solves run alone. The CPU cell program's results, and so
// CPU = GPU, rest on it.
#include "voltaic/model/kinetics_lanes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "voltaic/model/parameter_sets.hpp"

#if VOLTAIC_HAS_LANES4
using namespace voltaic;

namespace {

/// The same bits (any NaN matches any NaN: payloads are not the model's).
bool same(double a, double b) {
  if (a != a && b != b) return true;
  std::uint64_t x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
}

/// Inputs of four lanes at a time, lane i of call k = xs[4 k + i].
template <class F>
void for_quads(const std::vector<double>& xs, F f) {
  for (std::size_t k = 0; k + 4 <= xs.size(); k += 4) f(lanes::D4{xs[k], xs[k + 1], xs[k + 2], xs[k + 3]}, k);
}

std::vector<double> exp_arguments() {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> x = {0.0,    -0.0,  nan,    inf,   -inf,   700.0,  -700.0, 700.0001, -700.0001, 709.78,
                           -708.5, -745., -746.0, 710.0, 1e-300, -1e-17, 0.5,    -39.36,   1e-5,      -1e-5};
  std::mt19937_64 g(41);
  std::uniform_real_distribution<double> wide(-760.0, 720.0), narrow(-45.0, 45.0), tiny(-1e-6, 1e-6);
  for (int i = 0; i < 300000; ++i) x.push_back(i % 3 == 0 ? wide(g) : i % 3 == 1 ? narrow(g) : tiny(g));
  while (x.size() % 4) x.push_back(1.0);
  return x;
}

TEST(KineticsLanes, ExpIsTheScalarExpInEveryLane) {
  const std::vector<double> xs = exp_arguments();
  int differ = 0;
  for_quads(xs, [&](lanes::D4 x, std::size_t k) {
    const lanes::D4 y = pmath::exp(x);
    for (int i = 0; i < 4; ++i) differ += !same(y[i], pmath::exp(xs[k + i]));
  });
  EXPECT_EQ(differ, 0);
}

TEST(KineticsLanes, GuardedOcpOfEveryBuiltInFitIsTheScalars) {
  const ParameterSet sets[] = {parameter_sets::chen2020(), parameter_sets::marquis2019()};
  std::mt19937_64 g(43);
  std::uniform_real_distribution<double> sto(-0.05, 1.05), edge(-1e-3, 0.02), temp(250.0, 340.0);
  std::vector<double> stos = {0.0,   1.0, 1e-10, 1.0 - 1e-10, 0.5, -0.0, std::numeric_limits<double>::quiet_NaN(),
                              0.0095};
  for (int i = 0; i < 60000; ++i) stos.push_back(i % 4 == 0 ? edge(g) : i % 4 == 1 ? 1.0 - edge(g) : sto(g));
  while (stos.size() % 4) stos.push_back(0.3);
  int checked = 0, differ = 0;
  for (const ParameterSet& p : sets) {
    for (ElectrodeParameters e : {p.negative_electrode, p.positive_electrode}) {
      e.entropic = EntropicModel::none;  // the four-lane form's domain (material::has_lanes_ocp)
      ASSERT_TRUE(material::has_lanes_ocp(e));
      const double t_ref = p.thermal.reference_temperature;
      for_quads(stos, [&](lanes::D4 s, std::size_t k) {
        const lanes::D4 T{temp(g), t_ref, temp(g), temp(g)};
        const ValueSlopeOf<lanes::D4> u = material::guarded_open_circuit_potential_slope(e, s, T, t_ref);
        for (int i = 0; i < 4; ++i) {
          const ValueSlope v = material::guarded_open_circuit_potential_slope(e, stos[k + i], T[i], t_ref);
          // The value is also the plain function's (HeatSourceT::all takes it so).
          const double plain = material::guarded_open_circuit_potential(e, stos[k + i], T[i], t_ref);
          differ += !same(u.value[i], v.value) + !same(u.slope[i], v.slope) + !same(u.value[i], plain);
          ++checked;
        }
      });
    }
  }
  EXPECT_EQ(differ, 0) << "of " << checked;
}

/// A solve as the cell program makes one, from random state: a potential
/// difference around the OCP, a surface that moves with j, a guess and
/// sometimes a known quadratic constant.
kinetics::ImplicitSolve random_solve(const ElectrodeParameters& e, double t_ref, std::mt19937_64& g) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double c_max = e.maximum_concentration, sto = 0.02 + 0.96 * u(g);
  const double T = 280.0 + 40.0 * u(g);
  const double ocp = material::guarded_open_circuit_potential(e, sto, T, t_ref);
  const double eta = (u(g) - 0.5) * (u(g) < 0.2 ? 0.6 : 0.05);
  const kinetics::SurfaceResponse s{sto * c_max, -(1e3 + 1e5 * u(g)), (u(g) - 0.5) * 1e-5};
  const double c_e = u(g) < 0.05 ? 5.0 * u(g) : 200.0 + 1500.0 * u(g);
  const double guess = u(g) < 0.3 ? 0.0 : (u(g) - 0.5) * 40.0;
  const double quadratic = u(g) < 0.5 ? 0.0 : std::pow(10.0, -4.0 + 4.0 * u(g));
  return kinetics::ImplicitSolve(e, t_ref, ocp + eta, 0.0, c_e, s, T, 1000.0, guess, quadratic);
}

void expect_same_solve(const kinetics::ImplicitSolve& a, const kinetics::ImplicitSolve& b, int& differ) {
  const kinetics::ImplicitReaction x = a.result(), y = b.result();
  differ += !same(x.j, y.j) + !same(x.dj, y.dj) + !same(x.c_surf, y.c_surf) + (x.ok != y.ok) +
            !same(a.quadratic(), b.quadratic()) + (a.running() != b.running()) + !same(a.iterate(), b.iterate());
}

TEST(KineticsLanes, SolvesRunTogetherEqualTheSolvesRunAlone) {
  const ParameterSet sets[] = {parameter_sets::chen2020(), parameter_sets::marquis2019()};
  std::mt19937_64 g(47);
  int differ = 0, solves = 0;
  for (const ParameterSet& p : sets) {
    for (ElectrodeParameters e : {p.negative_electrode, p.positive_electrode}) {
      e.entropic = EntropicModel::none;
      const double t_ref = p.thermal.reference_temperature;
      for (int trial = 0; trial < 400; ++trial) {
        const std::size_t m = 1 + trial % kinetics::kLanesBatch;  // every batch size, odd ones padded
        std::vector<kinetics::ImplicitSolve> together(m), alone;
        for (auto& x : together) x = random_solve(e, t_ref, g);
        alone = together;
        // One round of four-lane steps against one step() each, then the whole runs.
        if (m <= 4) {
          std::vector<kinetics::ImplicitSolve*> ptr;
          for (auto& x : together) ptr.push_back(&x);
          kinetics::step_lanes(ptr.data(), m);
          for (auto& x : alone) x.step();
          for (std::size_t i = 0; i < m; ++i) expect_same_solve(together[i], alone[i], differ);
        }
        kinetics::run_lanes(together.data(), m);
        for (auto& x : alone) kinetics::run_to_end(x);
        for (std::size_t i = 0; i < m; ++i) expect_same_solve(together[i], alone[i], differ);
        solves += static_cast<int>(m);
      }
    }
  }
  EXPECT_EQ(differ, 0) << "over " << solves << " solves";
}

}  // namespace
#endif
