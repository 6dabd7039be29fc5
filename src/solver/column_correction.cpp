// The two-level heat-step preconditioner: z-line smoothing around a column
// (z-collapsed) coarse correction solved by the plane multigrid.
#include "column_correction.hpp"

#include <vector>

#include "column_point.hpp"
#include "dfn_launch.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/linalg/plane_system.hpp"

namespace voltaic {

ColumnCorrection::ColumnCorrection(std::shared_ptr<const StencilOperator<double>> op,
                                   std::shared_ptr<const ZLinePreconditioner<double>> zline, double sheet_conductance)
    : op_(std::move(op)), zline_(std::move(zline)), exec_(op_->executor()) {
  const Grid3D& g = op_->grid();
  n_ = g.num_cells();
  layer_ = g.cells_per_layer();
  nz_ = g.nz();
  ones_ = Array<double>::from_host(exec_, std::vector<double>(n_, 1.0));
  diagonal_ = Array<double>::from_host(exec_, std::vector<double>(layer_, 1.0));  // until update()
  for (Array<double>* a : {&t_, &u_}) *a = Array<double>(exec_, n_);
  for (Array<double>* a : {&c_, &rc_}) *a = Array<double>(exec_, 2 * layer_);
  // The coarse plane: the whole plane's (PlaneCycle: cut over the ranks, or gathered, on a cut plane).
  const auto& cut = op_->decomposition();
  const int nx = cut ? cut->plane_nx() : g.nx(), ny = cut ? cut->plane_ny() : g.ny();
  const std::size_t columns = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  const Array<double> ones = Array<double>::from_host(exec_, std::vector<double>(columns, 1.0));
  const Array<double> zeros = Array<double>::from_host(exec_, std::vector<double>(columns, 0.0));
  // No tabs: the column operator's outer faces are in its diagonal.
  const View<const double> x_edge = zeros.const_view().subview(0, static_cast<std::size_t>(ny));
  const View<const double> y_edge = zeros.const_view().subview(0, static_cast<std::size_t>(nx));
  const PlaneEdges<double> none{x_edge, x_edge, y_edge, y_edge};
  const View<const double> d = ones.const_view(), zero = zeros.const_view();
  const PlaneSystem<double> system(PlaneGrid(nx, ny, g.dx(), g.dy()), exec_, {sheet_conductance, sheet_conductance},
                                   none, none, {d, zero, zero, d});
  coarse_ = std::make_unique<PlaneCycle>(system, cut);
}

void ColumnCorrection::update() {
  // C's diagonal part: the column sums of A 1 (the in-plane and z faces
  // between cells cancel in A 1; the mass and the outer faces stay).
  op_->apply(ones_.const_view(), t_.view());
  dfn::for_each_index(*exec_, 0, layer_, column::Sum{layer_, nz_, t_.data(), diagonal_.data()});
  coarse_->update_diagonal(diagonal_.const_view());
}

void ColumnCorrection::apply(View<const double> r, View<double> z) const {
  const Executor& e = *exec_;
  const auto residual = [&] {  // t = r - A z
    op_->apply(View<const double>(z), t_.view());
    axpby(e, 1.0, r, -1.0, t_.view());
  };
  zline_->apply(r, z);
  residual();
  dfn::for_each_index(e, 0, layer_, column::Sum{layer_, nz_, t_.data(), rc_.data()});
  fill(e, rc_.view().subview(layer_, layer_), 0.0);
  coarse_->apply(rc_.const_view(), c_.view());
  dfn::for_each_index(e, 0, n_, column::Add{layer_, c_.data(), z.data()});
  residual();
  zline_->apply(t_.const_view(), u_.view());
  axpy(e, 1.0, u_.const_view(), z);
}

}  // namespace voltaic
