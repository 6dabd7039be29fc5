#include "solver/collector_system.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "linalg/solver_support.hpp"
#include "solver/collector_point.hpp"
#include "solver/dfn_launch.hpp"
#include "solver/dfn_point.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

namespace {
/// The Schur complement's V-cycle smooths three times each way: on the 130 x
/// 130 pouch (H200) 16 % fewer Krylov iterations than with two, the pouch
/// 0.95 of its time (docs/performance.md, "Twentieth session"). The heat
/// step's column correction keeps two (three cost it 3 %, "Nineteenth
/// session").
PlaneMultigridOptions schur_cycle() {
  PlaneMultigridOptions o;
  o.pre_smoothing = o.post_smoothing = 3;
  return o;
}
}  // namespace

// ---- the whole Jacobian ---------------------------------------------------

template <class T>
CollectorJacobian<T>::CollectorJacobian(std::shared_ptr<const TwoFieldStencilOperator<T>> cells,
                                        std::shared_ptr<const PlaneOperator<T>> foils, double g_negative,
                                        double g_positive)
    : cells_(std::move(cells)),
      foils_(std::move(foils)),
      g_negative_(static_cast<T>(g_negative)),
      g_positive_(static_cast<T>(g_positive)) {}

template <class T>
const VectorSpace<T>& CollectorJacobian<T>::space() const {
  const StencilOperator<T>& cells = cells_->field(0);
  const auto& d = cells.decomposition();
  return d ? d->template space<T>(2 * cells.grid().nz() + 2) : VectorSpace<T>::local();
}

template <class T>
void CollectorJacobian<T>::apply(View<const T> x, View<T> y) const {
  const std::size_t n2 = cells_->size(), layer = foils_->size() / 2;
  cells_->apply(x.subview(0, n2), y.subview(0, n2));
  foils_->apply(x.subview(n2, 2 * layer), y.subview(n2, 2 * layer));
  dfn::for_each_index(*executor(), 0, layer,
                      collector::FaceCoupling<T>{n2 / 2, layer, g_negative_, g_positive_, x.data(), y.data()});
}

// ---- the block-elimination preconditioner ---------------------------------

template <class T>
CollectorPreconditioner<T>::CollectorPreconditioner(std::shared_ptr<const BlockZLinePreconditioner<T>> cells,
                                                    std::shared_ptr<const PlaneCycle> schur, double g_negative,
                                                    double g_positive, std::size_t foil_values)
    : cells_(std::move(cells)),
      schur_(std::move(schur)),
      g_negative_(static_cast<T>(g_negative)),
      g_positive_(static_cast<T>(g_positive)),
      zb_(cells_->executor(), cells_->size()),
      zt_(cells_->executor(), cells_->size()),
      t_(cells_->executor(), foil_values) {}

template <class T>
void CollectorPreconditioner<T>::apply(View<const T> r, View<T> z) const {
  const auto& exec = *executor();
  const std::size_t n2 = cells_->size(), layer = t_.size() / 2;
  const View<T> z_cells = z.subview(0, n2), z_foils = z.subview(n2, 2 * layer);
  cells_->apply(r.subview(0, n2), z_cells);
  dfn::for_each_index(
      exec, 0, layer,
      collector::SchurForward<T>{n2 / 2, layer, g_negative_, g_positive_, r.data(), z.data(), t_.data()});
  schur_->apply(t_.view(), z_foils);
  dfn::for_each_index(exec, 0, n2,
                      collector::SchurBack<T>{n2 / 2, layer, g_negative_, g_positive_, z_foils.data(), zb_.data(),
                                              zt_.data(), z.data()});
}

template class CollectorJacobian<double>;
template class CollectorPreconditioner<double>;

// ---- the collectors of one drive mode -------------------------------------

namespace {

/// Tab coverage of one foil on the executor: x_lo, x_hi (ny each), y_lo,
/// y_hi (nx each); zero for a foil without a Dirichlet tab (empty `t`).
Array<double> coverage_array(const std::shared_ptr<const Executor>& exec, const TabCoverage& t, int nx, int ny) {
  std::vector<double> v(2 * static_cast<std::size_t>(nx + ny), 0.0);
  if (!t.x_lo.empty()) {
    auto at = v.begin();
    for (const std::vector<double>* e : {&t.x_lo, &t.x_hi, &t.y_lo, &t.y_hi}) at = std::copy(e->begin(), e->end(), at);
  }
  return Array<double>::from_host(exec, v);
}

PlaneEdges<double> edges_of(const Array<double>& a, int nx, int ny) {
  const View<const double> v = a.const_view();
  const std::size_t x = static_cast<std::size_t>(ny), y = static_cast<std::size_t>(nx);
  return {v.subview(0, x), v.subview(x, x), v.subview(2 * x, y), v.subview(2 * x + y, y)};
}

/// Per column: the tab's Dirichlet conductance 2 k w len / h summed over the
/// column's covered boundary faces [S], and the share w len / tab length.
void tab_columns(const TabCoverage& t, double k, int nx, int ny, double dx, double dy, std::vector<double>& dirichlet,
                 std::vector<double>& share) {
  const std::size_t layer = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  dirichlet.assign(layer, 0.0);
  share.assign(layer, 0.0);
  double total = 0.0;
  auto add = [&](std::size_t col, double w, double len, double h) {
    dirichlet[col] += 2.0 * k * w * len / h;
    share[col] += w * len;
    total += w * len;
  };
  for (int j = 0; j < ny; ++j) {
    add(static_cast<std::size_t>(j) * nx, t.x_lo[j], dy, dx);
    add(static_cast<std::size_t>(j) * nx + nx - 1, t.x_hi[j], dy, dx);
  }
  for (int i = 0; i < nx; ++i) {
    add(static_cast<std::size_t>(i), t.y_lo[i], dx, dy);
    add(static_cast<std::size_t>(ny - 1) * nx + i, t.y_hi[i], dx, dy);
  }
  for (double& s : share) s /= total;
}

/// The block's part (ghosts included) of a whole-plane column array, or the array itself.
std::vector<double> block_of(const std::shared_ptr<const PlaneDecomposition>& cut, const std::vector<double>& whole) {
  if (!cut) return whole;
  std::vector<double> v(static_cast<std::size_t>(cut->ghosted_nx()) * static_cast<std::size_t>(cut->ghosted_ny()));
  cut->slice_host(whole.data(), 1, v.data());
  return v;
}

/// The tab coverage of a block's own plane: the whole plane's on the edges
/// the block shares with it, none where a ghost column is the block's edge.
TabCoverage block_coverage(const TabCoverage& whole, const PlaneDecomposition& cut) {
  TabCoverage t = whole;
  if (whole.x_lo.empty()) return t;  // no Dirichlet tab
  const int gx = cut.ghosted_nx(), gy = cut.ghosted_ny(), i0 = cut.first_i(), j0 = cut.first_j();
  const auto part = [](const std::vector<double>& edge, bool shared, int first, int count) {
    std::vector<double> v(static_cast<std::size_t>(count), 0.0);
    if (shared) std::copy(edge.begin() + first, edge.begin() + first + count, v.begin());
    return v;
  };
  t.x_lo = part(whole.x_lo, i0 == 0, j0, gy);
  t.x_hi = part(whole.x_hi, i0 + gx == cut.plane_nx(), j0, gy);
  t.y_lo = part(whole.y_lo, j0 == 0, i0, gx);
  t.y_hi = part(whole.y_hi, j0 + gy == cut.plane_ny(), i0, gx);
  return t;
}

}  // namespace

CollectorSystem::CollectorSystem(const CellLayout& layout, CellDrive::Mode mode,
                                 std::shared_ptr<TwoFieldStencilOperator<double>> cells,
                                 std::shared_ptr<BlockZLinePreconditioner<double>> zline, const SolverOptions& linear)
    : layout_(layout), mode_(mode), cells_(std::move(cells)), zline_(std::move(zline)) {
  const auto& exec = layout.executor();
  const auto& cut = layout.decomposition();
  const Grid3D& g = *layout.grid();
  const ParameterSet& p = layout.parameters();
  n_ = layout.num_cells();
  layer_ = static_cast<std::size_t>(g.nx()) * static_cast<std::size_t>(g.ny());
  // The whole plane's columns (the block's grid on a cut plane has fewer).
  const int nx = layout.spec().nx, ny = layout.spec().ny;
  const std::size_t plane = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  const DfnConstants& k = layout.host_constants();
  g_negative_ =
      dfn::half_cell_conductance(k.map.face_area, k.of(CellRegion::negative).solid_conductivity, k.first_layer_dz);
  g_positive_ =
      dfn::half_cell_conductance(k.map.face_area, k.of(CellRegion::positive).solid_conductivity, k.last_layer_dz);
  const double height = p.cell.electrode_height, width = p.cell.electrode_width;
  const TabCoverage negative = tab_coverage(p.negative_current_collector, "Negative", height, width, nx, ny);
  const TabCoverage positive = tab_coverage(p.positive_current_collector, "Positive", height, width, nx, ny);
  const double k_n = p.negative_current_collector.conductivity * p.negative_current_collector.thickness;
  const double k_p = p.positive_current_collector.conductivity * p.positive_current_collector.thickness;
  std::vector<double> d_n, q_n, d_p, q_p;
  tab_columns(negative, k_n, nx, ny, g.dx(), g.dy(), d_n, q_n);
  tab_columns(positive, k_p, nx, ny, g.dx(), g.dy(), d_p, q_p);
  tab_drop_ = 0.0;
  for (std::size_t c = 0; c < plane; ++c)
    if (d_p[c] > 0.0) tab_drop_ += q_p[c] * q_p[c] / d_p[c];
  negative_dirichlet_ = Array<double>::from_host(exec, block_of(cut, d_n));
  tab_dirichlet_ = Array<double>::from_host(exec, block_of(cut, d_p));
  tab_share_ = Array<double>::from_host(exec, block_of(cut, q_p));

  // The foils' plane: the negative tab held at 0, the positive one held at V
  // under voltage control and free (carrying I) under current control.
  const TabCoverage positive_held = mode == CellDrive::Mode::voltage ? positive : TabCoverage{};
  const auto foil_plane = [&](const PlaneGrid& grid, const TabCoverage& n, const TabCoverage& p, std::size_t columns) {
    const Array<double> cover_n = coverage_array(exec, n, grid.nx(), grid.ny());
    const Array<double> cover_p = coverage_array(exec, p, grid.nx(), grid.ny());
    const Array<double> b00 = Array<double>::from_host(exec, std::vector<double>(columns, g_negative_));
    const Array<double> b11 = Array<double>::from_host(exec, std::vector<double>(columns, g_positive_));
    const Array<double> zero = Array<double>::from_host(exec, std::vector<double>(columns, 0.0));
    return std::make_shared<PlaneOperator<double>>(
        grid, exec, std::array<double, 2>{k_n, k_p}, edges_of(cover_n, grid.nx(), grid.ny()),
        edges_of(cover_p, grid.nx(), grid.ny()), PlaneBlocks<double>{b00.view(), zero.view(), zero.view(), b11.view()});
  };
  // The Schur complement's V-cycle is the whole plane's (PlaneCycle: cut over the ranks or gathered).
  const std::shared_ptr<PlaneOperator<double>> whole =
      foil_plane(PlaneGrid(nx, ny, g.dx(), g.dy()), negative, positive_held, plane);
  if (cut) {
    foils_ = foil_plane(PlaneGrid(g.nx(), g.ny(), g.dx(), g.dy(), cut->first_i(), cut->first_j()),
                        block_coverage(negative, *cut), block_coverage(positive_held, *cut), layer_);
    foils_->decompose(cut);
  } else {
    foils_ = std::make_shared<PlaneOperator<double>>(whole->converted<double>());
  }
  schur_ = std::make_shared<PlaneCycle>(whole->system(), cut, schur_cycle());
  preconditioner_ =
      std::make_shared<CollectorPreconditioner<double>>(zline_, schur_, g_negative_, g_positive_, 2 * layer_);
  SolverOptions options = linear;
  options.throw_on_failure = false;
  solver_ = std::make_unique<GmresSolver<double>>(
      std::make_shared<CollectorJacobian<double>>(cells_, foils_, g_negative_, g_positive_), preconditioner_, options);

  std::vector<double> bottom(2 * n_, 0.0), top(2 * n_, 0.0);
  for (std::size_t c = 0; c < layer_; ++c) {
    bottom[c] = 1.0;
    top[n_ - layer_ + c] = 1.0;
  }
  face_bottom_ = Array<double>::from_host(exec, bottom);
  face_top_ = Array<double>::from_host(exec, top);
  blocks_ = Array<double>(exec, 4 * layer_);
  plane_ = Array<double>(exec, 2 * layer_);
  heat_ = Array<double>(exec, 2 * layer_);
  ones_ = Array<double>::from_host(exec, std::vector<double>(2 * layer_, 1.0));
}

CollectorSystem::~CollectorSystem() = default;

void CollectorSystem::residual(const CellDrive& drive, View<const double> phi, View<double> residual) {
  const auto& exec = *layout_.executor();
  foils_->apply(phi.subview(2 * n_, 2 * layer_), plane_.view());
  const bool voltage = drive.mode == CellDrive::Mode::voltage;
  dfn::for_each_index(exec, 0, layer_,
                      collector::FoilResidual{n_, layer_, g_negative_, g_positive_, voltage ? 0.0 : drive.value,
                                              voltage ? drive.value : 0.0, phi.data(), plane_.data(), tab_share_.data(),
                                              tab_dirichlet_.data(), residual.data()});
}

void CollectorSystem::update() {
  const auto& exec = *layout_.executor();
  const View<double> zb = preconditioner_->zb(), zt = preconditioner_->zt();
  zline_->apply(face_bottom_.view(), zb);
  zline_->apply(face_top_.view(), zt);
  auto part = [&](int i) { return blocks_.view().subview(i * layer_, layer_); };
  dfn::for_each_index(exec, 0, layer_,
                      collector::SchurBlocks{n_, layer_, g_negative_, g_positive_, zb.data(), zt.data(), part(0).data(),
                                             part(1).data(), part(2).data(), part(3).data()});
  schur_->update(blocks_.const_view());
}

SolveReport CollectorSystem::solve(View<const double> b, View<double> x) {
  SolveReport r = solver_->solve_from_zero(b, x);
  r.inner_iterations = r.iterations;
  return r;
}

double CollectorSystem::terminal_voltage(const CellDrive& drive, View<const double> phi) const {
  if (drive.mode == CellDrive::Mode::voltage) return drive.value;
  const View<const double> foil = phi.subview(2 * n_ + layer_, layer_);
  const auto& cut = layout_.decomposition();
  const double mean =
      cut ? cut->dot(foil.data(), tab_share_.data(), 1) : dot(*layout_.executor(), foil, tab_share_.const_view());
  return mean - drive.value * tab_drop_;
}

void CollectorSystem::foil_heat(const CellDrive& drive, View<const double> phi, View<double> heat) const {
  const auto& exec = *layout_.executor();
  const Grid3D& g = *layout_.grid();
  const ParameterSet& p = layout_.parameters();
  const double k[2] = {p.negative_current_collector.conductivity * p.negative_current_collector.thickness,
                       p.positive_current_collector.conductivity * p.positive_current_collector.thickness};
  const bool voltage = drive.mode == CellDrive::Mode::voltage;
  collector::FoilJoule f{g.nx(),
                         g.ny(),
                         {k[0] * g.dy() / g.dx(), k[1] * g.dy() / g.dx()},
                         {k[0] * g.dx() / g.dy(), k[1] * g.dx() / g.dy()},
                         voltage,
                         voltage ? 0.0 : drive.value,
                         voltage ? drive.value : 0.0,
                         phi.data() + 2 * n_,
                         negative_dirichlet_.data(),
                         tab_dirichlet_.data(),
                         tab_share_.data(),
                         heat.data()};
  dfn::for_each_index(exec, 0, layer_, f);
}

double CollectorSystem::foil_heat(const CellDrive& drive, View<const double> phi) const {
  foil_heat(drive, phi, heat_.view());
  if (const auto& cut = layout_.decomposition()) return cut->dot(heat_.data(), nullptr, 2);
  return dot(*layout_.executor(), heat_.const_view(), ones_.const_view());  // the same bits on every backend
}

}  // namespace voltaic
