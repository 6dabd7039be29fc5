#pragma once
// Global fields in and out of a rank's ghosted block, for the mpi tests.

#include <cstring>
#include <vector>

#include "voltaic/core/grid.hpp"
#include "voltaic/mpi/halo_exchange.hpp"

namespace voltaic::mpi::test {

/// The rank's block of `global` (cell c = i + nx (j + ny k)) in the ghosted
/// layout; the ghosts hold `ghost`.
inline std::vector<double> to_block(const HaloExchange& halo, const Grid3D& grid, const std::vector<double>& global,
                                    double ghost) {
  const PlaneBlock& b = halo.block();
  std::vector<double> v(halo.ghosted_size(), ghost);
  for (int k = 0; k < grid.nz(); ++k)
    for (int lj = 0; lj < b.ny(); ++lj)
      for (int li = 0; li < b.nx(); ++li)
        v[halo.index(li, lj, k)] = global[grid.index(b.i_begin + li, b.j_begin + lj, k)];
  return v;
}

/// The owned cells of a ghosted field, in the block's order (x fastest, layer-major).
inline std::vector<double> owned_of(const HaloExchange& halo, int nz, const std::vector<double>& ghosted) {
  const PlaneBlock& b = halo.block();
  std::vector<double> v;
  for (int k = 0; k < nz; ++k)
    for (int lj = 0; lj < b.ny(); ++lj)
      for (int li = 0; li < b.nx(); ++li) v.push_back(ghosted[halo.index(li, lj, k)]);
  return v;
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
