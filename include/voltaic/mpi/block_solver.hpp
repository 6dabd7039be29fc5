#pragma once
/// @file block_solver.hpp
/// @brief The x-y decomposition's linear algebra on the CPU: the stencil
/// operator and z-line preconditioner on a rank's ghosted block, and CG
/// whose every reduction is the canonical sum, so that its iterates have the
/// same bits for every partition of the plane.

#include <memory>

#include "voltaic/linalg/boundary.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/solver.hpp"
#include "voltaic/linalg/stencil_operator.hpp"
#include "voltaic/mpi/halo_exchange.hpp"

namespace voltaic::mpi {

/// A = V d - div(k grad) (StencilOperator's) over the whole plane, each rank
/// holding its block in HaloExchange's ghosted layout on the CPU. apply()
/// refreshes x's ghosts from the neighbours, applies the local operator and
/// zeroes y's ghosts; the owned cells' values are those of the one-block
/// operator, bit for bit (the same cell arithmetic from the same values).
/// The plane's outer faces take `bc`; the block's faces to its neighbours
/// are interior faces through the ghost columns.
class BlockOperator {
 public:
  /// @param k, d ghosted (HaloExchange::ghosted_size() values); k's ghosts
  ///        are refreshed here (the faces to the neighbours read them)
  BlockOperator(HaloExchange& halo, const PlanePartition& partition, const Grid3D& global, View<double> k,
                View<const double> d, const BoundaryConditions& bc);

  std::size_t size() const { return halo_.ghosted_size(); }
  /// y = A x on the owned cells; x's ghosts are overwritten.
  void apply(View<double> x, View<double> y) const;
  /// z = M^{-1} r by the z-line solves of the owned columns (ghosts zeroed).
  void precondition(View<const double> r, View<double> z) const;
  /// b += the outer faces' constant terms (Robin ambients, Dirichlet values).
  void add_boundary_terms(View<double> b) const;
  /// The canonical sum of a .* b over the owned cells, on every rank.
  double dot(View<const double> a, View<const double> b) const;
  /// Sets the ghost columns of v to 0.
  void zero_ghosts(View<double> v) const;

 private:
  HaloExchange& halo_;
  const PlanePartition& partition_;
  std::shared_ptr<const Grid3D> local_;
  std::shared_ptr<StencilOperator<double>> op_;
  std::unique_ptr<ZLinePreconditioner<double>> zline_;
};

/// Preconditioned CG on a BlockOperator until its recursive residual is at
/// most rtol ||b|| (the report gives the true one, recomputed), from x
/// (ghosted) as the initial guess. Every rank takes the same iterations
/// and, for every partition of the plane, the owned cells end with the
/// same bits.
SolveReport block_cg(const BlockOperator& a, View<const double> b, View<double> x, double rtol, int max_iterations);

}  // namespace voltaic::mpi
