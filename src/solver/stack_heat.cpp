// The heat grid of the whole stack: built once on the host (the foils'
// layers, the per-face cooling, the tabs' extra cooling as a sink in the
// foil cells under them), stepped by DiffusionStep.
#include "stack_heat.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "collector_tabs.hpp"
#include "dfn_launch.hpp"
#include "dfn_point.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

namespace {

double or_else(double h, double fallback) { return std::isnan(h) ? fallback : h; }

/// Conductance per unit area of a face with coefficient h behind a half cell
/// of width d and conductivity k (StencilOperator's Robin face).
double face_conductance(double h, double d, double k) {
  return h > 0.0 && k > 0.0 ? 1.0 / (1.0 / h + 0.5 * d / k) : 0.0;
}

bool has_tab(const CurrentCollectorParameters& c) { return !std::isnan(c.tab_width); }

}  // namespace

StackCooling StackCooling::of(const ThermalParameters& t) {
  const double h = t.heat_transfer_coefficient;
  StackCooling c;
  c.negative_face = or_else(t.negative_collector_heat_transfer_coefficient, h);
  c.positive_face = or_else(t.positive_collector_heat_transfer_coefficient, h);
  c.edge = or_else(t.edge_heat_transfer_coefficient, h);
  c.negative_tab = or_else(t.negative_tab_heat_transfer_coefficient, c.edge);
  c.positive_tab = or_else(t.positive_tab_heat_transfer_coefficient, c.edge);
  return c;
}

namespace {

/// rho c_p and lambda of each layer of the heat grid: the foils' own, the
/// cells' from the layout (uniform in each layer).
struct Layers {
  std::vector<double> rho_cp, lambda;
};

Layers layer_properties(const CellLayout& layout, const CurrentCollectorParameters* const foil[2], const bool has[2]) {
  const Grid3D& g = *layout.grid();
  const std::size_t layer = g.cells_per_layer();
  const std::vector<double> rho_cp = layout.heat_capacity().to_host(), lambda = layout.thermal_conductivity().to_host();
  Layers l;
  const auto add = [&](double rc, double k) {
    l.rho_cp.push_back(rc);
    l.lambda.push_back(k);
  };
  if (has[0]) add(foil[0]->density * foil[0]->specific_heat_capacity, foil[0]->thermal_conductivity);
  for (int k = 0; k < g.nz(); ++k) add(rho_cp[k * layer], lambda[k * layer]);
  if (has[1]) add(foil[1]->density * foil[1]->specific_heat_capacity, foil[1]->thermal_conductivity);
  return l;
}

/// The outer faces' conductance to the ambient [W/K]: the two large faces
/// and the four edges of the whole nx x ny plane, behind their half cells.
double outer_conductance(const Grid3D& g, int nx, int ny, const StackCooling& h, const std::vector<double>& lambda) {
  const double dx = g.dx(), dy = g.dy();
  const std::vector<double>& dz = g.dz();
  const int nz = g.nz();
  double G = double(nx) * double(ny) * dx * dy *
             (face_conductance(h.negative_face, dz[0], lambda[0]) +
              face_conductance(h.positive_face, dz[nz - 1], lambda[nz - 1]));
  for (int k = 0; k < nz; ++k)
    G += 2.0 * dz[k] *
         (ny * dy * face_conductance(h.edge, dx, lambda[k]) + nx * dx * face_conductance(h.edge, dy, lambda[k]));
  return G;
}

/// Each tab cools its foil's edge cells with the tab's coefficient instead
/// of the edge's: the difference, per unit volume, added to `sink` in those
/// cells (the whole nx x ny plane's, then the block's part on a cut plane).
/// Returns the tabs' extra conductance [W/K].
double add_tab_sinks(const Grid3D& g, int nx, int ny, const PlaneDecomposition* cut,
                     const CurrentCollectorParameters* const foil[2], const bool has[2], const StackCooling& h,
                     const std::vector<double>& lambda, std::vector<double>& sink) {
  const double tab_h[2] = {h.negative_tab, h.positive_tab};
  const double dx = g.dx(), dy = g.dy();
  const std::size_t layer = g.cells_per_layer();
  double G = 0.0;
  for (int f = 0; f < 2; ++f) {
    if (!has[f] || !has_tab(*foil[f]) || tab_h[f] == h.edge) continue;
    const TabCoverage tab = tab_coverage(*foil[f], f == 0 ? "Negative" : "Positive", nx * dx, ny * dy, nx, ny);
    const int k = f == 0 ? 0 : g.nz() - 1;
    const double dz = g.dz()[k], volume = dx * dy * dz;
    std::vector<double> plane(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny), 0.0);
    for (TabEdge e : {TabEdge::x_lo, TabEdge::x_hi, TabEdge::y_lo, TabEdge::y_hi}) {
      const bool x_edge = e == TabEdge::x_lo || e == TabEdge::x_hi;
      const std::vector<double>& cover = tab.of(e);
      const double width = x_edge ? dx : dy, length = x_edge ? dy : dx;
      const double extra = face_conductance(tab_h[f], width, lambda[k]) - face_conductance(h.edge, width, lambda[k]);
      for (std::size_t m = 0; m < cover.size(); ++m) {
        if (cover[m] == 0.0) continue;
        const int i = x_edge ? (e == TabEdge::x_lo ? 0 : nx - 1) : static_cast<int>(m);
        const int j = x_edge ? static_cast<int>(m) : (e == TabEdge::y_lo ? 0 : ny - 1);
        const double g_extra = cover[m] * length * dz * extra;
        plane[static_cast<std::size_t>(i) + static_cast<std::size_t>(nx) * j] += g_extra / volume;
        G += g_extra;
      }
    }
    std::vector<double> mine = plane;
    if (cut) {
      mine.resize(layer);
      cut->slice_host(plane.data(), 1, mine.data());
    }
    for (std::size_t c = 0; c < layer; ++c) sink[static_cast<std::size_t>(k) * layer + c] += mine[c];
  }
  return G;
}

BoundaryConditions outer_faces(const StackCooling& h, double ambient) {
  BoundaryConditions bc;
  const auto robin = [&](double coefficient) { return BoundaryCondition::robin(coefficient, ambient); };
  bc[static_cast<int>(Face::x_lo)] = bc[static_cast<int>(Face::x_hi)] = robin(h.edge);
  bc[static_cast<int>(Face::y_lo)] = bc[static_cast<int>(Face::y_hi)] = robin(h.edge);
  bc[static_cast<int>(Face::z_lo)] = robin(h.negative_face);
  bc[static_cast<int>(Face::z_hi)] = robin(h.positive_face);
  return bc;
}

/// One value per cell of the heat grid from one per layer.
std::vector<double> per_cell(const std::vector<double>& per_layer, std::size_t layer) {
  std::vector<double> v(per_layer.size() * layer);
  for (std::size_t c = 0; c < v.size(); ++c) v[c] = per_layer[c / layer];
  return v;
}

}  // namespace

StackHeat::StackHeat(const CellLayout& layout, const SolverOptions& options)
    : exec_(layout.executor()), cut_(layout.decomposition()) {
  const ParameterSet& p = layout.parameters();
  const Grid3D& g = *layout.grid();
  const CurrentCollectorParameters* const foil[2] = {&p.negative_current_collector, &p.positive_current_collector};
  const StackCooling h = StackCooling::of(p.thermal);
  n_ = g.num_cells();
  layer_ = g.cells_per_layer();
  ambient_ = p.thermal.ambient_temperature;
  for (int f = 0; f < 2; ++f) has_[f] = foil[f]->thickness > 0.0;
  offset_ = has_[0] ? layer_ : 0;

  std::vector<ZRegionSpec> regions;
  if (has_[0]) regions.push_back({"negative current collector", 1, foil[0]->thickness});
  for (const ZRegion& r : g.regions()) regions.push_back({r.name, r.cells(), r.dz * r.cells()});
  if (has_[1]) regions.push_back({"positive current collector", 1, foil[1]->thickness});
  grid_ = std::make_shared<const Grid3D>(g.nx(), g.ny(), g.dx(), g.dy(), regions);
  const std::size_t total = grid_->num_cells();
  // The whole plane's columns (a cut plane's block has fewer).
  const int nx = layout.spec().nx, ny = layout.spec().ny;
  total_volume_ = nx * g.dx() * ny * g.dy() * grid_->thickness();

  const Layers layers = layer_properties(layout, foil, has_);
  std::vector<double> sink(total, 0.0), dz(grid_->dz());
  conductance_ = outer_conductance(*grid_, nx, ny, h, layers.lambda) +
                 add_tab_sinks(*grid_, nx, ny, cut_.get(), foil, has_, h, layers.lambda, sink);
  rho_cp_ = Array<double>::from_host(exec_, per_cell(layers.rho_cp, layer_));
  lambda_ = Array<double>::from_host(exec_, per_cell(layers.lambda, layer_));
  for (double& d : dz) d *= g.dx() * g.dy();
  volume_ = Array<double>::from_host(exec_, per_cell(dz, layer_));
  sink_ = Array<double>::from_host(exec_, sink);
  for (double& s : sink) s *= ambient_;
  sink_ambient_ = Array<double>::from_host(exec_, sink);
  for (Array<double>* a : {&T_, &q_, &mass_, &rhs_}) *a = Array<double>(exec_, total);

  fill(*exec_, mass_.view(), 1.0);  // placeholder coefficients; every step rebuilds them in place
  op_ = std::make_shared<StencilOperator<double>>(grid_, exec_, lambda_.const_view(), mass_.const_view(),
                                                  outer_faces(h, ambient_));
  op_->decompose(cut_);
  zline_ = std::make_shared<ZLinePreconditioner<double>>(*op_);
  if (nx * ny > 1) {
    double sheet = 0.0;  // sum of lambda dz over the layers
    for (std::size_t k = 0; k < layers.lambda.size(); ++k) sheet += layers.lambda[k] * grid_->dz()[k];
    columns_ = std::make_shared<ColumnCorrection>(op_, zline_, sheet);
    cg_ = std::make_unique<CgSolver<double>>(op_, columns_, options);
  }
}

void StackHeat::gather_into(Array<double>& out, View<const double> cells, View<const double> foils) const {
  const Executor& e = *exec_;
  copy(e, cells, out.view().subview(offset_, n_));
  if (has_[0]) copy(e, foils.subview(0, layer_), out.view().subview(0, layer_));
  if (has_[1]) copy(e, foils.subview(layer_, layer_), out.view().subview(offset_ + n_, layer_));
}

View<const double> StackHeat::gather(View<const double> T, View<const double> T_foils) {
  gather_into(T_, T, T_foils);
  return T_.const_view();
}

void StackHeat::temperatures(View<const double> T, View<const double> T_foils, double& mean, double& lo, double& hi) {
  const Executor& e = *exec_;
  const View<const double> all = gather(T, T_foils);
  const int layers = grid_->nz();
  mean = (cut_ ? cut_->dot(all.data(), volume_.data(), layers) : dot(e, all, volume_.const_view())) / total_volume_;
  hi = cut_ ? cut_->max_abs(all.data(), layers) : max_abs(e, all);
  dfn::for_each_index(e, 0, all.size(), dfn::Reciprocal{all.data(), q_.data()});
  lo = 1.0 / (cut_ ? cut_->max_abs(q_.data(), layers) : max_abs(e, q_.view()));
}

SolveReport StackHeat::step(View<double> T, View<double> T_foils, View<const double> q, View<const double> q_foils,
                            double dt) {
  const Executor& e = *exec_;
  if (!(dt > 0.0) || !std::isfinite(dt))
    throw InvalidArgument("dt", "StackHeat::step", "dt = " + std::to_string(dt) + " must be finite and > 0");
  gather_into(T_, T, T_foils);
  gather_into(q_, q, q_foils);
  // rhs = V (rho c_p / dt T_old + q + sink T_amb) + the outer faces' ambient terms
  copy(e, rho_cp_.const_view(), mass_.view());
  scale(e, 1.0 / dt, mass_.view());
  multiply(e, mass_.const_view(), T_.const_view(), rhs_.view());
  axpy(e, 1.0, q_.const_view(), rhs_.view());
  axpy(e, 1.0, sink_ambient_.const_view(), rhs_.view());
  multiply(e, volume_.const_view(), rhs_.const_view(), q_.view());
  op_->add_boundary_terms(q_.view());
  // The operator: V (rho c_p / dt + sink) - div(lambda grad) with the outer faces.
  axpy(e, 1.0, sink_.const_view(), mass_.view());
  op_->update(lambda_.const_view(), mass_.const_view());
  zline_->update(*op_);
  SolveReport r;
  if (columns_) {
    columns_->update();
    r = cg_->solve(q_.const_view(), T_.view());
  } else {  // one z-line: its factorisation is the exact LU
    zline_->apply(q_.const_view(), T_.view());
    r.converged = true;
    r.reason = StopReason::converged;
    r.iterations = 1;
  }
  if (cut_) cut_->exchange(T_.data(), grid_->nz());
  copy(e, T_.const_view().subview(offset_, n_), T);
  if (has_[0]) copy(e, T_.const_view().subview(0, layer_), T_foils.subview(0, layer_));
  if (has_[1]) copy(e, T_.const_view().subview(offset_ + n_, layer_), T_foils.subview(layer_, layer_));
  return r;
}

}  // namespace voltaic
