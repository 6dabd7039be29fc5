// The heat grid of the whole stack (solver/stack_heat.hpp): the foils'
// layers, heat conservation when insulated, the outer faces' conductance
// (tabs included) against the geometry by hand, the decay of a uniform
// temperature at that conductance, and CUDA against the CPU.
#include "solver/stack_heat.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "test_support.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

const CellGridSpec kGrid{4, 3, 4, 4, 5, 3};

struct Stack {
  std::shared_ptr<const Executor> exec;
  CellLayout layout;
  StackHeat heat;
  std::size_t n, layer;
  Stack(const ParameterSet& p, std::shared_ptr<const Executor> e, const CellGridSpec& grid = kGrid)
      : exec(e),
        layout(p, grid, e),
        heat(layout, SimulationOptions::default_heat()),
        n(layout.num_cells()),
        layer(layout.grid()->cells_per_layer()) {}
};

ParameterSet insulated(ParameterSet p) {
  ThermalParameters& t = p.thermal;
  for (double* h : {&t.heat_transfer_coefficient, &t.negative_collector_heat_transfer_coefficient,
                    &t.positive_collector_heat_transfer_coefficient, &t.negative_tab_heat_transfer_coefficient,
                    &t.positive_tab_heat_transfer_coefficient, &t.edge_heat_transfer_coefficient})
    *h = 0.0;
  return p;
}

/// sum over the stack of V rho c_p T [J], on the host.
double heat_content(Stack& s, const std::vector<double>& T, const std::vector<double>& T_foils, const ParameterSet& p) {
  const std::vector<double> rc = s.layout.heat_capacity().to_host(), v = s.layout.volumes().to_host();
  double sum = 0.0;
  for (std::size_t c = 0; c < s.n; ++c) sum += v[c] * rc[c] * T[c];
  const CurrentCollectorParameters* foil[2] = {&p.negative_current_collector, &p.positive_current_collector};
  const double face = s.layout.grid()->dx() * s.layout.grid()->dy();
  for (int f = 0; f < 2; ++f)
    for (std::size_t c = 0; c < s.layer; ++c)
      sum += face * foil[f]->thickness * foil[f]->density * foil[f]->specific_heat_capacity * T_foils[f * s.layer + c];
  return sum;
}

TEST(StackHeat, TheFoilsAreLayersOfTheHeatGridAndAFoilOfThicknessZeroIsLeftOut) {
  ParameterSet p = parameter_sets::marquis2019();
  Stack s(p, CpuExecutor::create());
  EXPECT_EQ(s.heat.grid().nz(), 4 + 3 + 4 + 2);
  EXPECT_EQ(s.heat.grid().regions().front().name, "negative current collector");
  EXPECT_DOUBLE_EQ(s.heat.grid().dz().back(), p.positive_current_collector.thickness);
  p.negative_current_collector.thickness = 0.0;
  Stack without(p, CpuExecutor::create());
  EXPECT_EQ(without.heat.grid().nz(), 4 + 3 + 4 + 1);
  EXPECT_EQ(without.heat.grid().regions().front().name, "negative electrode");
}

// Insulated: the heat content rises by dt times the heat, cells and foils,
// to the CG tolerance, on every backend.
TEST(StackHeat, InsulatedStackConservesHeat) {
  const ParameterSet p = insulated(parameter_sets::marquis2019());
  std::mt19937_64 rng(test::fresh_seed());
  for (const auto& e : {std::shared_ptr<const Executor>(CpuExecutor::create()),
                        std::shared_ptr<const Executor>(test::cuda_executor())}) {
    if (!e) continue;
    Stack s(p, e);
    const std::vector<double> T0 = test::random_vector<double>(s.n, rng, 290.0, 310.0),
                              F0 = test::random_vector<double>(2 * s.layer, rng, 290.0, 310.0),
                              q = test::random_vector<double>(s.n, rng, 0.0, 1e5),
                              qf = test::random_vector<double>(2 * s.layer, rng, 0.0, 1e6);
    Array<double> T = Array<double>::from_host(e, T0), F = Array<double>::from_host(e, F0);
    const double dt = 20.0;
    const SolveReport r = s.heat.step(T.view(), F.view(), Array<double>::from_host(e, q).view(),
                                      Array<double>::from_host(e, qf).view(), dt);
    ASSERT_TRUE(r.converged || r.relative_residual < StackHeat::kAcceptedResidual) << r.summary();
    double added = 0.0;
    const std::vector<double> v = s.layout.volumes().to_host();
    for (std::size_t c = 0; c < s.n; ++c) added += dt * v[c] * q[c];
    const CurrentCollectorParameters* foil[2] = {&p.negative_current_collector, &p.positive_current_collector};
    const double face = s.layout.grid()->dx() * s.layout.grid()->dy();
    for (int f = 0; f < 2; ++f)
      for (std::size_t c = 0; c < s.layer; ++c) added += dt * face * foil[f]->thickness * qf[f * s.layer + c];
    const double before = heat_content(s, T0, F0, p), after = heat_content(s, T.to_host(), F.to_host(), p);
    EXPECT_NEAR((after - before) / added, 1.0, 1e-8) << to_string(e->backend());
  }
}

// Marquis2019's pouch coefficients: faces 0, edges 0.3, tabs 10 W/(m^2 K)
// over the tab's width and its foil's thickness. With the foils' conductivity
// large a uniform temperature decays by backward Euler at that conductance.
TEST(StackHeat, OuterFacesAndTabsCoolAtTheConductanceTheGeometryGives) {
  ParameterSet p = parameter_sets::marquis2019();
  // The foils spread the heat in-plane (the stack is uniform through its
  // thickness within 0.1 s anyway).
  for (double* k :
       {&p.negative_current_collector.thermal_conductivity, &p.positive_current_collector.thermal_conductivity})
    *k *= 1e2;
  const ThermalParameters& t = p.thermal;
  const CurrentCollectorParameters &cn = p.negative_current_collector, &cp = p.positive_current_collector;
  const double H = p.cell.electrode_height, W = p.cell.electrode_width;
  const double L = cn.thickness + p.negative_electrode.thickness + p.separator.thickness +
                   p.positive_electrode.thickness + cp.thickness;
  const double expected = t.edge_heat_transfer_coefficient * 2.0 * (H + W) * L +
                          (t.negative_tab_heat_transfer_coefficient - t.edge_heat_transfer_coefficient) *
                              (cn.tab_width * cn.thickness + cp.tab_width * cp.thickness);
  Stack s(p, CpuExecutor::create());
  // Less by the half cells behind the faces (0.5 dx / lambda against 1 / h: 0.3 % on the edges).
  EXPECT_NEAR(s.heat.cooling_conductance() / expected, 1.0, 1e-2);

  double C = 0.0;
  {
    const std::vector<double> ones(s.n, 1.0), foil_ones(2 * s.layer, 1.0);
    C = heat_content(s, ones, foil_ones, p);
  }
  const double T0 = 320.0, dt = 600.0;
  Array<double> T = Array<double>::from_host(s.exec, std::vector<double>(s.n, T0));
  Array<double> F = Array<double>::from_host(s.exec, std::vector<double>(2 * s.layer, T0));
  const Array<double> q = Array<double>::from_host(s.exec, std::vector<double>(s.n, 0.0));
  const Array<double> qf = Array<double>::from_host(s.exec, std::vector<double>(2 * s.layer, 0.0));
  const SolveReport r = s.heat.step(T.view(), F.view(), q.view(), qf.view(), dt);
  ASSERT_TRUE(r.converged || r.relative_residual < StackHeat::kAcceptedResidual) << r.summary();
  double mean = 0.0, lo = 0.0, hi = 0.0;
  s.heat.temperatures(T.view(), F.view(), mean, lo, hi);
  const double G = s.heat.cooling_conductance();
  const double predicted = t.ambient_temperature + (T0 - t.ambient_temperature) * C / (C + dt * G);
  EXPECT_NEAR(mean, predicted, 1e-4 * (T0 - predicted));
  EXPECT_LE(hi - lo, 1e-2 * (T0 - predicted));
}

// The foils conduct in-plane about 200 times better than the electrodes;
// the column correction keeps CG's iterations flat as the plane is refined.
// Measured: 11, 15 and 15 iterations at 16^2, 32^2, 64^2.
TEST(StackHeat, IterationsStayFlatAsThePlaneIsRefined) {
  const ParameterSet p = parameter_sets::marquis2019();
  std::mt19937_64 rng(test::fresh_seed());
  std::vector<int> iterations;
  for (int n : {16, 32, 64}) {
    Stack s(p, CpuExecutor::create(), CellGridSpec{4, 3, 4, 4, n, n});
    Array<double> T = Array<double>::from_host(s.exec, test::random_vector<double>(s.n, rng, 290.0, 310.0));
    Array<double> F = Array<double>::from_host(s.exec, test::random_vector<double>(2 * s.layer, rng, 290.0, 310.0));
    const Array<double> q = Array<double>::from_host(s.exec, test::random_vector<double>(s.n, rng, 0.0, 1e5));
    const Array<double> qf = Array<double>::from_host(s.exec, test::random_vector<double>(2 * s.layer, rng, 0.0, 1e6));
    const SolveReport r = s.heat.step(T.view(), F.view(), q.view(), qf.view(), 30.0);
    ASSERT_TRUE(r.converged || r.relative_residual < StackHeat::kAcceptedResidual) << r.summary();
    iterations.push_back(r.iterations);
  }
  EXPECT_LE(iterations[2], 1.3 * iterations[0] + 2);
}

}  // namespace
}  // namespace voltaic
