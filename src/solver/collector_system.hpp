#pragma once
// The potential-pair current collectors in the potential step's Newton
// system: two foil potentials per column (negative, positive) appended to
// [phi_s; phi_e], their rows (in-plane foil conduction, the columns' face
// currents, the tabs), and the linear solve of the whole Jacobian by GMRES-IR
// by FP64 GMRES with a block-elimination preconditioner: the block z-line
// solve for the cells and geometric multigrid on the Schur complement of the
// foils. FP64, not GMRES-IR: the foils make the Jacobian's condition number
// grow with the in-plane grid (foil conductance x n^2 against a column's), so
// FP32 inner solves need ever more iterations (5.8, 7.6, 11.2, 14.5 per
// Newton step on 8^2 .. 64^2), while FP64 GMRES takes 5, 6-7, 7, 8
// (docs/performance.md, "Pouch cells").

#include <memory>

#include "solver/collector_tabs.hpp"
#include "solver/plane_cycle.hpp"
#include "voltaic/linalg/krylov.hpp"
#include "voltaic/linalg/plane_multigrid.hpp"
#include "voltaic/linalg/plane_system.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/stencil_operator.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/potential_step.hpp"

namespace voltaic {

/// The whole Jacobian: the cells' two-field operator, the foils' plane
/// operator (its 2x2 blocks: each node's conductance to its face cell) and
/// the -G couplings between them.
template <class T>
class CollectorJacobian final : public LinearOperator<T> {
 public:
  CollectorJacobian(std::shared_ptr<const TwoFieldStencilOperator<T>> cells,
                    std::shared_ptr<const PlaneOperator<T>> foils, double g_negative, double g_positive);
  std::size_t size() const override { return cells_->size() + foils_->size(); }
  const std::shared_ptr<const Executor>& executor() const override { return cells_->executor(); }
  void apply(View<const T> x, View<T> y) const override;
  bool stream_ordered() const override { return cells_->stream_ordered() && foils_->stream_ordered(); }
  /// On a cut plane, [cells; foils] is one ghosted field of 2 nz + 2 layers.
  const VectorSpace<T>& space() const override;

 private:
  std::shared_ptr<const TwoFieldStencilOperator<T>> cells_;
  std::shared_ptr<const PlaneOperator<T>> foils_;
  T g_negative_, g_positive_;
};

/// Block elimination with the z-line solve Z for the cells:
///   y = Z^{-1} r_cells;  S w = r_foils - C y;  z_cells = y - Z^{-1} B w
/// with S = D - C Z^{-1} B the foils' Schur complement (per column a 2x2
/// block, exact for the z-line matrix; the cells' in-plane couplings, 1e-12
/// of the rest, are left out), solved by one multigrid V-cycle (PlaneCycle:
/// on a cut plane cut over the ranks in host memory, gathered and run whole
/// on a GPU; the same bits for every cut).
template <class T>
class CollectorPreconditioner final : public Preconditioner<T> {
 public:
  /// @param foil_values the block's foil unknowns (two fields of its columns)
  CollectorPreconditioner(std::shared_ptr<const BlockZLinePreconditioner<T>> cells,
                          std::shared_ptr<const PlaneCycle> schur, double g_negative, double g_positive,
                          std::size_t foil_values);
  std::size_t size() const override { return cells_->size() + t_.size(); }
  const std::shared_ptr<const Executor>& executor() const override { return cells_->executor(); }
  void apply(View<const T> r, View<T> z) const override;
  bool stream_ordered() const override { return cells_->stream_ordered() && schur_->stream_ordered(); }
  /// Z^{-1} of the unit vectors at the face cells (2 n values each).
  View<T> zb() { return zb_.view(); }
  View<T> zt() { return zt_.view(); }

 private:
  std::shared_ptr<const BlockZLinePreconditioner<T>> cells_;
  std::shared_ptr<const PlaneCycle> schur_;
  T g_negative_, g_positive_;
  Array<T> zb_, zt_;
  mutable Array<T> t_;  // the foils' right-hand side (the block's on a cut plane)
};

/// Everything of the collectors for one drive mode of the potential step.
class CollectorSystem {
 public:
  CollectorSystem(const CellLayout& layout, CellDrive::Mode mode,
                  std::shared_ptr<TwoFieldStencilOperator<double>> cells,
                  std::shared_ptr<BlockZLinePreconditioner<double>> zline, const SolverOptions& linear);
  ~CollectorSystem();

  /// The foils' rows of the residual, for phi = [phi_s; phi_e; foils].
  void residual(const CellDrive& drive, View<const double> phi, View<double> residual);
  /// After the cells' Jacobian and z-line factors are updated: the Schur
  /// blocks and the multigrid levels.
  void update();
  /// J x = b for the whole Jacobian to the linear options' relative
  /// tolerance, from x = 0 (x's content is not read). inner_iterations
  /// counts the GMRES iterations, as GMRES-IR's do.
  SolveReport solve(View<const double> b, View<double> x);
  /// The positive tab's mean potential (the negative tab is the reference).
  double terminal_voltage(const CellDrive& drive, View<const double> phi) const;
  /// Joule heat of the two foils, the tabs' contact with them included [W].
  double foil_heat(const CellDrive& drive, View<const double> phi) const;
  /// The same per foil and column [W]: heat[col] the negative foil's,
  /// heat[L + col] the positive's (2 L values, the executor's memory).
  void foil_heat(const CellDrive& drive, View<const double> phi, View<double> heat) const;

  double g_negative() const { return g_negative_; }
  double g_positive() const { return g_positive_; }

 private:
  const CellLayout& layout_;
  CellDrive::Mode mode_;
  std::size_t n_, layer_;
  double g_negative_, g_positive_;
  double tab_drop_;  ///< sum over the positive tab of q^2 / d: V = q . phi_p - I tab_drop_
  std::shared_ptr<TwoFieldStencilOperator<double>> cells_;
  std::shared_ptr<BlockZLinePreconditioner<double>> zline_;
  std::shared_ptr<PlaneOperator<double>> foils_;  ///< the block's foils
  std::shared_ptr<PlaneCycle> schur_;             ///< the V-cycle of the foils' Schur complement
  std::shared_ptr<CollectorPreconditioner<double>> preconditioner_;
  std::unique_ptr<GmresSolver<double>> solver_;
  Array<double> tab_share_, tab_dirichlet_, negative_dirichlet_;  ///< per column
  Array<double> face_bottom_, face_top_;                          ///< unit vectors at the face cells' phi_s
  Array<double> blocks_;                                          ///< the Schur blocks, 4 layer values
  mutable Array<double> plane_;                                   ///< A_foil phi_foil
  mutable Array<double> heat_;                                    ///< per foil and column [W]
  Array<double> ones_;  ///< sums heat_ on the device: no copy to the host per step
};

}  // namespace voltaic
