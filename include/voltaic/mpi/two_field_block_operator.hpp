#pragma once
/// @file two_field_block_operator.hpp
/// @brief The potential step's two-field operator (phi_s, phi_e coupled per
/// cell) on a rank's ghosted block, for the library's GMRES and GMRES-IR.

#include <array>
#include <memory>

#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/stencil_operator.hpp"
#include "voltaic/mpi/block_operator.hpp"

namespace voltaic::mpi {

/// TwoFieldStencilOperator over the whole plane, each rank holding its block
/// of both fields ghosted. apply() posts both fields' exchanges, applies the
/// local two-field operator while they travel, then redoes the ghost-side
/// rows of each field with its coupling (StencilOperator::
/// apply_coupled_frame) and zeroes the ghosts: every owned row is the
/// one-block operator's, bit for bit. x's ghosts are scratch, overwritten.
template <class T>
class TwoFieldBlockOperator final : public LinearOperator<T> {
 public:
  /// @param k0, k1 ghosted cell coefficients (their ghosts refreshed here,
  ///        the corner ghosts zeroed); d0, d1, c01, c10 ghosted, their ghosts
  ///        the discarded ghost rows' own: any values that keep those rows'
  ///        2x2 pivots invertible (d > 0 there)
  TwoFieldBlockOperator(const Communicator& comm, const PlanePartition& partition, const Grid3D& global,
                        std::array<View<T>, 2> k, std::array<View<const T>, 2> d, View<const T> c01, View<const T> c10,
                        const std::array<BoundaryConditions, 2>& bc);

  std::size_t size() const override { return 2 * halo_[0].ghosted_size(); }
  const std::shared_ptr<const Executor>& executor() const override { return op_->executor(); }
  void apply(View<const T> x, View<T> y) const override;
  const VectorSpace<T>& space() const override { return space_; }

  /// b += both fields' outer-face constants.
  void add_boundary_terms(View<T> b) const;
  /// Sets the ghost columns of both fields of v to 0.
  void zero_ghosts(View<T> v) const;
  /// The local two-field operator on the ghosted block.
  const TwoFieldStencilOperator<T>& local() const { return *op_; }

 private:
  mutable std::array<HaloExchange, 2> halo_;  ///< one per field: both in flight at once
  BlockSpace<T> space_;                       ///< of two fields
  std::unique_ptr<TwoFieldStencilOperator<T>> op_;
  stencil::ColumnFrame frame_;
};

/// The 2x2-block z-line solves (BlockZLinePreconditioner) of the owned
/// columns; both fields' ghosts of z zeroed.
template <class T>
class TwoFieldOwnedZLinePreconditioner final : public Preconditioner<T> {
 public:
  explicit TwoFieldOwnedZLinePreconditioner(const TwoFieldBlockOperator<T>& a);
  std::size_t size() const override { return a_.size(); }
  const std::shared_ptr<const Executor>& executor() const override { return a_.executor(); }
  void apply(View<const T> r, View<T> z) const override;

 private:
  const TwoFieldBlockOperator<T>& a_;
  BlockZLinePreconditioner<T> zline_;
};

}  // namespace voltaic::mpi
