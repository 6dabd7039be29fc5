#pragma once
/// @file plane_partition.hpp
/// @brief PlanePartition: the x-y plane of a Grid3D cut into rank-owned
/// blocks of whole reduction tiles, and the canonical order in which a sum
/// over the grid is taken, the same for every partition.

#include <cstddef>
#include <vector>

namespace voltaic {

/// One rank's block: columns [i_begin, i_end) x [j_begin, j_end) of the plane.
struct PlaneBlock {
  int i_begin = 0, i_end = 0, j_begin = 0, j_end = 0;
  int nx() const { return i_end - i_begin; }
  int ny() const { return j_end - j_begin; }
  std::size_t columns() const { return static_cast<std::size_t>(nx()) * static_cast<std::size_t>(ny()); }
};

/// The nx x ny plane in tiles of tile x tile columns (the last row and column
/// of tiles may be smaller), the tiles dealt to px x py ranks as rectangular
/// blocks of whole tiles, as even as whole tiles allow. Rank r = a + px b
/// owns block (a, b). Every block boundary is a tile boundary, so a tile's
/// cells always belong to one rank: sums taken tile by tile (canonical_sum)
/// give the same bits for any px x py.
class PlanePartition {
 public:
  /// @throws InvalidArgument naming the first size < 1, or px (py) larger
  ///         than the tiles along x (y): every rank must own a tile
  PlanePartition(int nx, int ny, int px, int py, int tile = 16);

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  int px() const { return px_; }
  int py() const { return py_; }
  int ranks() const { return px_ * py_; }
  int tile() const { return tile_; }
  int tiles_x() const { return tx_; }
  int tiles_y() const { return ty_; }
  std::size_t num_tiles() const { return static_cast<std::size_t>(tx_) * static_cast<std::size_t>(ty_); }

  /// The block of `rank` (0 <= rank < ranks()).
  PlaneBlock block(int rank) const;
  /// The rank owning column (i, j).
  int owner(int i, int j) const;
  /// The neighbouring rank across each side of `rank`'s block, -1 at the
  /// plane's edge: x_lo, x_hi, y_lo, y_hi.
  std::vector<int> neighbours(int rank) const;
  /// The tiles that lie in `rank`'s block, in global tile order t = a + tiles_x() b.
  std::vector<std::size_t> tiles_of(int rank) const;
  /// Columns [i_begin, i_end) x [j_begin, j_end) of tile t.
  PlaneBlock tile_columns(std::size_t t) const;

  /// A near-square px x py for `ranks` ranks on an nx x ny plane: the
  /// factorisation whose blocks are closest to square.
  static PlanePartition for_ranks(int nx, int ny, int ranks, int tile = 16);

 private:
  int nx_, ny_, px_, py_, tile_, tx_, ty_;
  std::vector<int> x_cut_, y_cut_;  ///< block boundaries in tiles: px + 1 and py + 1 values
};

/// Slots of tile_partial()'s column tree for a tile of `columns` columns:
/// the least power of two not below it.
inline std::size_t tile_tree_slots(std::size_t columns) {
  std::size_t p = 1;
  while (p < columns) p *= 2;
  return p;
}

/// The canonical sum of one tile's values, value(i, j, k) at global column
/// (i, j) and layer k: each column's layers in order into slot c = (i -
/// i_begin) + nx (j - j_begin), the slots padded with +0 to a power of two
/// P, then halved: slot c += slot c + h for c < h, h = P/2, P/4, .., 1. A GPU
/// block with a thread per column takes the same steps in the same order,
/// so the CUDA backend's partials have these bits (kernels/ghost_columns.cu).
template <class Value>
double tile_partial(const PlaneBlock& tile, int nz, Value value) {
  thread_local std::vector<double> s;
  s.assign(tile_tree_slots(tile.columns()), 0.0);
  const std::size_t nx = static_cast<std::size_t>(tile.nx());
  for (int k = 0; k < nz; ++k)  // layer outermost for the cache; each slot still sums its layers in order
    for (int j = tile.j_begin; j < tile.j_end; ++j)
      for (int i = tile.i_begin; i < tile.i_end; ++i)
        s[static_cast<std::size_t>(i - tile.i_begin) + nx * static_cast<std::size_t>(j - tile.j_begin)] +=
            value(i, j, k);
  for (std::size_t h = s.size() / 2; h >= 1; h /= 2)
    for (std::size_t c = 0; c < h; ++c) s[c] += s[c + h];
  return s[0];
}

/// The canonical sum over the grid from the tiles' partials in global tile
/// order: a fixed pairwise tree (the halves of each range summed, left + right),
/// so the result does not depend on who computed which partial.
double sum_of_partials(const std::vector<double>& partials);
/// The same of `count` partials at `partials`.
double sum_of_partials(const double* partials, std::size_t count);

/// The canonical sum of a whole field on one process (layer-major, i + nx (j
/// + ny k)): what a partitioned sum must reproduce bit for bit.
double canonical_sum(const PlanePartition& p, int nz, const std::vector<double>& field);

}  // namespace voltaic
