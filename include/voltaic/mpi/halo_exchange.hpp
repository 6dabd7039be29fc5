#pragma once
/// @file halo_exchange.hpp
/// @brief One layer of ghost columns around each rank's block of the x-y
/// plane, exchanged with the four neighbours; and the reproducible sum of a
/// field held in blocks.

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "voltaic/core/grid.hpp"
#include "voltaic/core/plane_partition.hpp"
#include "voltaic/mpi/communicator.hpp"

namespace voltaic::mpi {

/// A rank's fields are stored ghosted: the owned bx x by block of columns
/// with one ghost column on each side that has a neighbour (none on the
/// plane's edge, where the boundary conditions act), x fastest, nz layers:
/// the local grid local_grid() describes. begin() packs the owned edge
/// columns and posts the sends and receives; end() waits and unpacks into
/// the ghosts, so work on the interior can run between them. Corners are
/// not exchanged (the 5- and 7-point stencils do not read them). Host memory
/// (the CPU backend); each side packs layer-major, row or column in order.
class HaloExchange {
 public:
  /// @throws InvalidArgument when comm's size is not the partition's ranks or nz < 1
  HaloExchange(const Communicator& comm, const PlanePartition& partition, int nz);

  const PlaneBlock& block() const { return block_; }
  /// Whether side s (x_lo, x_hi, y_lo, y_hi) has a neighbour, hence a ghost column.
  bool has_ghost(int side) const { return neighbour_[side] >= 0; }
  /// Values of a ghosted field.
  std::size_t ghosted_size() const;
  /// Index of owned column (li, lj) (0 <= li < bx; -1 and bx: a ghost), layer k.
  std::size_t index(int li, int lj, int k) const {
    return static_cast<std::size_t>(li + x0_) +
           gx_ * (static_cast<std::size_t>(lj + y0_) + gy_ * static_cast<std::size_t>(k));
  }
  /// The ghosted block as a grid of its own: `global`'s spacing and
  /// z-regions over the block's columns and ghosts.
  std::shared_ptr<const Grid3D> local_grid(const Grid3D& global) const;
  const Communicator& communicator() const { return comm_; }

  /// T is double or float (GMRES-IR's inner vectors).
  template <class T>
  void begin(const T* field);
  template <class T>
  void end(T* field);
  /// begin() then end().
  template <class T>
  void exchange(T* field) {
    begin(field);
    end(field);
  }

 private:
  const Communicator& comm_;
  PlaneBlock block_;
  int nz_;
  int x0_, y0_;                                        ///< 1 where a ghost column precedes the block in x (y)
  std::size_t gx_, gy_;                                ///< columns of the ghosted block in x and y
  std::array<int, 4> neighbour_;                       ///< x_lo, x_hi, y_lo, y_hi; -1 at the plane's edge
  std::array<std::vector<double>, 4> send_, receive_;  ///< room for a side's values of either precision
  std::vector<MPI_Request> requests_;
};

/// The canonical sum over the grid of value(i, j, k) (global column, layer),
/// each rank evaluating it on its own tiles only: the tiles' partials meet in
/// combine_disjoint(), exactly, and every rank sums them by the same tree.
template <class Value>
double canonical_block_sum(const Communicator& comm, const PlanePartition& partition, int nz, Value value) {
  std::vector<double> partials(partition.num_tiles(), 0.0);
  for (std::size_t t : partition.tiles_of(comm.rank()))
    partials[t] = tile_partial(partition.tile_columns(t), nz, value);
  comm.combine_disjoint(partials);
  return sum_of_partials(partials);
}

/// The canonical sum (core/plane_partition.hpp) of a field held in blocks,
/// `owned` the rank's bx x by x nz values (x fastest, layer-major): the same
/// bits on every rank, for every partition of the plane, and as
/// canonical_sum() of the whole field on one process. Each rank sums its own
/// tiles; the tiles' partials meet in combine_disjoint(), exactly.
double reproducible_sum(const Communicator& comm, const PlanePartition& partition, int nz, const double* owned);

}  // namespace voltaic::mpi
