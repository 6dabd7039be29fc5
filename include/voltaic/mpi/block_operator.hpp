#pragma once
/// @file block_operator.hpp
/// @brief The x-y decomposition's linear algebra: a rank's ghosted block as
/// a LinearOperator whose vector space sums in the canonical order over all
/// ranks, so that the library's own solvers (CgSolver, GmresSolver) run on
/// it unchanged and give the same bits for every partition of the plane.

#include <memory>

#include "voltaic/linalg/boundary.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/stencil_operator.hpp"
#include "voltaic/linalg/vector_space.hpp"
#include "voltaic/mpi/halo_exchange.hpp"

namespace voltaic::mpi {

/// The vectors of a ghosted block (HaloExchange's layout), `fields` of them
/// one after the other ([field 0 ghosted, field 1 ghosted] for the
/// two-field operator): inner products and norms over the owned cells only,
/// each the canonical sum over every rank (the tiles' partials exactly
/// combined, then one fixed tree; a tile runs over field 0's layers, then
/// field 1's), so the same bits on every rank and for every partition.
/// Every call is collective. Host memory (the CPU backend). FP32 vectors
/// sum their exact double products in double, as the library's FP32 dot does.
template <class T>
class BlockSpace final : public VectorSpace<T> {
 public:
  BlockSpace(const HaloExchange& halo, const PlanePartition& partition, int nz, int fields = 1);
  double dot(const Executor& exec, View<const T> x, View<const T> y) const override;
  void dot(const Executor& exec, View<const T> x, View<const T> y, View<T> result) const override;
  double nrm2(const Executor& exec, View<const T> x) const override;
  void nrm2(const Executor& exec, View<const T> x, View<T> result) const override;

 private:
  const HaloExchange& halo_;
  const PlanePartition& partition_;
  int nz_, fields_;
};

/// A = V d - div(k grad) (StencilOperator's) over the whole plane, each rank
/// holding its block in HaloExchange's ghosted layout on the CPU.
///
/// apply() posts the exchange of x's edge columns, applies the local
/// operator to the whole block while they travel (the rows away from the
/// ghosts need none of them), then, once they have arrived, recomputes the
/// rows next to the ghosts (StencilOperator::apply_frame) and zeroes y's
/// ghosts. Every owned row is the one-block operator's, bit for bit (the
/// same cell arithmetic from the same values). A vector's ghost entries are
/// scratch: apply() overwrites x's, though x is const to the solvers. The
/// plane's outer faces take `bc`; the block's faces to its neighbours are
/// interior faces through the ghost columns.
template <class T>
class BlockOperator final : public LinearOperator<T> {
 public:
  /// @param k, d ghosted (HaloExchange::ghosted_size() values); k's ghosts
  ///        are refreshed here (the faces to the neighbours read them), its
  ///        corner ghosts zeroed; d's ghosts are the discarded ghost rows'
  ///        own and need only be finite
  BlockOperator(HaloExchange& halo, const PlanePartition& partition, const Grid3D& global, View<T> k, View<const T> d,
                const BoundaryConditions& bc);
  /// The same operator with its coefficients rounded to U (GMRES-IR's FP32 copy).
  template <class U>
  BlockOperator<U> converted() const;

  /// New coefficients (same grid and boundary kinds; no allocation); k's
  /// ghosts are refreshed here, as in the constructor.
  void update(View<T> k, View<const T> d);

  std::size_t size() const override { return halo_.ghosted_size(); }
  const std::shared_ptr<const Executor>& executor() const override { return op_->executor(); }
  void apply(View<const T> x, View<T> y) const override;
  const VectorSpace<T>& space() const override { return space_; }

  /// b += the outer faces' constant terms (Robin ambients, Dirichlet values).
  void add_boundary_terms(View<T> b) const;
  /// Sets the ghost columns of v to 0.
  void zero_ghosts(View<T> v) const { set_ghosts(v, T(0)); }
  /// Sets the ghost columns of v to `value`.
  void set_ghosts(View<T> v, T value) const;
  /// The local operator on the ghosted block.
  const StencilOperator<T>& local() const { return *op_; }

 private:
  template <class U>
  friend class BlockOperator;
  BlockOperator(HaloExchange& halo, const PlanePartition& partition, std::shared_ptr<StencilOperator<T>> op);

  HaloExchange& halo_;
  const PlanePartition& partition_;
  BlockSpace<T> space_;
  std::shared_ptr<StencilOperator<T>> op_;
  stencil::ColumnFrame frame_;  ///< the ghost columns and the owned columns beside them
};

/// M^{-1} r by the z-line solves of the owned columns (every column is whole
/// on its rank, so no exchange); the ghosts of z are zeroed.
template <class T>
class OwnedZLinePreconditioner final : public Preconditioner<T> {
 public:
  explicit OwnedZLinePreconditioner(const BlockOperator<T>& a);
  /// Refactors for the operator's present coefficients (no allocation).
  void update() { zline_.update(a_.local()); }
  std::size_t size() const override { return a_.size(); }
  const std::shared_ptr<const Executor>& executor() const override { return a_.executor(); }
  void apply(View<const T> r, View<T> z) const override;

 private:
  const BlockOperator<T>& a_;
  ZLinePreconditioner<T> zline_;
};

}  // namespace voltaic::mpi
