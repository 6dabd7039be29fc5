#pragma once
// Global fields in and out of a rank's ghosted block (BlockDecomposition's
// layout), for the mpi tests.

#include <cstring>
#include <memory>
#include <vector>

#include "voltaic/core/grid.hpp"
#include "voltaic/mpi/block_decomposition.hpp"

namespace voltaic::mpi::test {

/// Values of a ghosted field of `layers` layers.
inline std::size_t ghosted_size(const BlockDecomposition& cut, int layers) {
  return cut.shape().layer() * static_cast<std::size_t>(layers);
}

/// The rank's block of `global` (cell c = i + nx (j + ny k)) in the ghosted
/// layout; the ghosts hold `ghost`.
inline std::vector<double> to_block(const BlockDecomposition& cut, const Grid3D& grid,
                                    const std::vector<double>& global, double ghost) {
  const PlaneBlock& b = cut.block();
  std::vector<double> v(ghosted_size(cut, grid.nz()), ghost);
  for (int k = 0; k < grid.nz(); ++k)
    for (int lj = 0; lj < b.ny(); ++lj)
      for (int li = 0; li < b.nx(); ++li)
        v[cut.index(li, lj, k)] = global[grid.index(b.i_begin + li, b.j_begin + lj, k)];
  return v;
}

/// The owned cells of a ghosted field, in the block's order (x fastest, layer-major).
inline std::vector<double> owned_of(const BlockDecomposition& cut, int nz, const std::vector<double>& ghosted) {
  const PlaneBlock& b = cut.block();
  std::vector<double> v;
  for (int k = 0; k < nz; ++k)
    for (int lj = 0; lj < b.ny(); ++lj)
      for (int li = 0; li < b.nx(); ++li) v.push_back(ghosted[cut.index(li, lj, k)]);
  return v;
}

/// The ghosted block's own grid: `global`'s layers and spacings on the
/// ghosted columns (what CellLayout builds for a rank).
inline std::shared_ptr<const Grid3D> local_grid(const BlockDecomposition& cut, const Grid3D& global) {
  std::vector<ZRegionSpec> regions;
  for (const ZRegion& r : global.regions()) regions.push_back({r.name, r.cells(), r.dz * r.cells()});
  return std::make_shared<const Grid3D>(cut.ghosted_nx(), cut.ghosted_ny(), global.dx(), global.dy(), regions);
}

/// How many cells of this rank's block of `one_block` (a global field, the
/// one-block run's) differ in their bits from `owned` (owned_of()).
inline std::size_t differing_bits(const PlaneBlock& b, const Grid3D& grid, const std::vector<double>& one_block,
                                  const std::vector<double>& owned) {
  std::size_t m = 0, differ = 0;
  for (int k = 0; k < grid.nz(); ++k)
    for (int j = b.j_begin; j < b.j_end; ++j)
      for (int i = b.i_begin; i < b.i_end; ++i, ++m) {
        const double a = one_block[grid.index(i, j, k)], c = owned[m];
        if (std::memcmp(&a, &c, sizeof(double)) != 0) ++differ;
      }
  return differ;
}

}  // namespace voltaic::mpi::test
