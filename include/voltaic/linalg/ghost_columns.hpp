#pragma once
/// @file ghost_columns.hpp
/// @brief The per-block work of a plane cut over processes, on either
/// backend: packing the owned edge columns for the neighbours, unpacking
/// theirs into the ghosts, filling ghosts, the canonical sum's tile
/// partials and the exact maximum over the owned cells, and the pieces of a
/// whole-plane gather (slice, owned cells, placing a block). voltaic::mpi
/// moves what these pack and reduces the partials; on a GPU only the edges,
/// one partial per tile and gathered blocks cross to the host.

#include <cstddef>

#include "voltaic/core/executor.hpp"

namespace voltaic {

/// The layout of a ghosted block (PlaneDecomposition's): the owned bx x by
/// columns with one ghost column on each side that has a neighbour (x_lo,
/// x_hi, y_lo, y_hi), x fastest, then y, then the layers.
struct GhostedBlock {
  int bx = 0, by = 0;
  bool ghost[4] = {false, false, false, false};

  int x0() const { return ghost[0] ? 1 : 0; }
  int y0() const { return ghost[2] ? 1 : 0; }
  int gx() const { return bx + x0() + (ghost[1] ? 1 : 0); }
  int gy() const { return by + y0() + (ghost[3] ? 1 : 0); }
  std::size_t layer() const { return static_cast<std::size_t>(gx()) * static_cast<std::size_t>(gy()); }
  /// Index of owned column (li, lj) (-1 and bx, by: ghosts), layer k.
  std::size_t index(int li, int lj, int k) const {
    return static_cast<std::size_t>(li + x0()) +
           static_cast<std::size_t>(gx()) * (static_cast<std::size_t>(lj + y0()) + static_cast<std::size_t>(gy()) * k);
  }
  /// Values of side s's owned edge (one layer).
  int side_length(int s) const { return s < 2 ? by : bx; }
  /// Values pack() writes for `layers` layers: every side with a ghost.
  std::size_t edge_values(int layers) const;
};

/// Where ghost_columns::tile_partials() writes the partial of the block's tile (a, b):
/// partials[first + a + row b]. row 0 numbers the block's tiles alone (a +
/// tiles_x b from 0); a rank's slots in the whole plane's partials are first
/// = its first tile's global number and row = the plane's tiles across.
struct TileSlots {
  std::size_t first = 0;
  std::size_t row = 0;
};

namespace ghost_columns {

/// Writes the owned columns beside each side that has a ghost into `edges`,
/// side after side (x_lo, x_hi, y_lo, y_hi), each layer after layer, along
/// the side in order. Queued on `stream` (the CPU works at once).
template <class T>
void pack(const Executor& exec, const GhostedBlock& b, int layers, const T* field, T* edges, int stream = 0);

/// The inverse for the neighbours' edges: each side's values (pack()'s
/// order) into its ghost column; each corner ghost between two ghost
/// columns takes the owned corner cell's value.
template <class T>
void unpack(const Executor& exec, const GhostedBlock& b, int layers, const T* edges, T* field, int stream = 0);

/// Every ghost cell (corners included) of a field of `layers` layers = value.
template <class T>
void fill(const Executor& exec, const GhostedBlock& b, int layers, T* field, T value);

/// tile_partial() (core/plane_partition.hpp) of x y (y null: of x) over the
/// owned cells of each tile x tile tile of the block (the block's first
/// column is a tile boundary; the last tiles may be narrower), into
/// partials at `slots` (executor memory; the products in double). Other
/// values of partials are left as they are. The same bits on both backends.
/// @throws InvalidArgument on a CUDA executor when tile > 32
template <class T>
void tile_partials(const Executor& exec, const GhostedBlock& b, int layers, int tile, const T* x, const T* y,
                   double* partials, TileSlots slots = {});

/// tile_partials() of `count` rows at once: of xs[i] y (y null: of xs[i])
/// into partials + i stride, at `slots` (the row pointers in host memory,
/// the rows in executor memory). One launch on a GPU (one per
/// kRowsPerLaunch rows), where a loop of tile_partials() takes `count`: a
/// distributed block dot's rows. The same bits as the loop.
template <class T>
void tile_partials_of_rows(const Executor& exec, const GhostedBlock& b, int layers, int tile, const T* const* xs,
                           int count, const T* y, double* partials, std::size_t stride, TileSlots slots = {});

/// Rows tile_partials_of_rows() takes in one launch on a GPU.
constexpr int kRowsPerLaunch = 64;

/// Largest `count` that sum_partials() takes on a GPU.
constexpr std::size_t kMostPartials = 16384;

/// out[i] = sum_of_partials() (core/plane_partition.hpp) of the `count`
/// partials at partials + i count, for i < sums, rounded to T; the first
/// `roots` of them are square roots (taken in double). Executor memory,
/// queued on `stream` (the CPU works at once). The same bits on both
/// backends: the canonical tree on the device, so that a distributed sum
/// need not come back to the host.
/// @throws InvalidArgument when count is 0, or on a GPU over kMostPartials
template <class T>
void sum_partials(const Executor& exec, const double* partials, std::size_t count, int sums, int roots, T* out,
                  int stream = 0);

/// The largest |x| over the owned cells (NaN if one is NaN); exact.
double max_abs(const Executor& exec, const GhostedBlock& b, int layers, const double* x);

/// field = the ghosted block whose first column is (first_i, first_j) of a
/// whole plane_nx x plane_ny plane's field `whole`.
void slice(const Executor& exec, const GhostedBlock& b, int layers, int plane_nx, int plane_ny, int first_i,
           int first_j, const double* whole, double* field);

/// owned = the owned cells of a ghosted field, x fastest, then y, then the
/// layers (bx by layers values): what a rank sends to a whole-plane gather.
void owned(const Executor& exec, const GhostedBlock& b, int layers, const double* field, double* owned);

/// The inverse for a gathered block: the bx x by x layers values `block`
/// (owned()'s order) into columns [i0, i0 + bx) x [j0, j0 + by) of every
/// layer of the whole plane_nx x plane_ny plane's field `whole`.
void place(const Executor& exec, int bx, int by, int layers, int plane_nx, int plane_ny, int i0, int j0,
           const double* block, double* whole);

}  // namespace ghost_columns

}  // namespace voltaic
