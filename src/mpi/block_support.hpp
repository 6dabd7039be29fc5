#pragma once
// What the decomposed operators share (internal): the local boundary
// conditions, the frame of rows redone after the exchange, and the ghost
// columns' values that no owned row reads.

#include <string>

#include "voltaic/core/executor.hpp"
#include "voltaic/linalg/boundary.hpp"
#include "voltaic/linalg/stencil_point.hpp"
#include "voltaic/mpi/halo_exchange.hpp"

namespace voltaic::mpi::block_support {

/// The plane's faces keep `bc`; a face to a neighbour (a ghost column) is
/// insulated: only the ghost cells see it, and their rows are not used.
inline BoundaryConditions local_conditions(const HaloExchange& halo, const BoundaryConditions& bc) {
  BoundaryConditions local = bc;
  for (int s = 0; s < 4; ++s)
    if (halo.has_ghost(s)) local[s] = BoundaryCondition::insulated();
  return local;
}

/// The corner ghosts (where two ghost columns meet) are not exchanged: no
/// owned row reads them, but the local operator checks every cell's k.
template <class T>
void zero_corners(const HaloExchange& halo, int nz, T* k) {
  const PlaneBlock& b = halo.block();
  for (int side_x : {0, 1})
    for (int side_y : {2, 3}) {
      if (!halo.has_ghost(side_x) || !halo.has_ghost(side_y)) continue;
      const int li = side_x == 0 ? -1 : b.nx(), lj = side_y == 2 ? -1 : b.ny();
      for (int z = 0; z < nz; ++z) k[halo.index(li, lj, z)] = T(0);
    }
}

inline void require_host(const Executor& exec, const char* where) {
  if (exec.memory_space() != MemorySpace::host())
    throw ExecutorMismatch("executor", where, "the decomposed vectors live in host memory (the CPU backend) for now");
}

/// The ghost columns and the owned columns beside them: the rows apply()
/// redoes once the ghosts have arrived.
inline stencil::ColumnFrame ghost_frame(const HaloExchange& halo) {
  stencil::ColumnFrame f;
  f.x_lo = halo.has_ghost(0) ? 2 : 0;
  f.x_hi = halo.has_ghost(1) ? 2 : 0;
  f.y_lo = halo.has_ghost(2) ? 2 : 0;
  f.y_hi = halo.has_ghost(3) ? 2 : 0;
  return f;
}

/// Sets the ghost columns (corners included) of a ghosted field to `value`.
template <class T>
void set_ghost_columns(const HaloExchange& halo, int nz, T* v, T value) {
  const PlaneBlock& b = halo.block();
  for (int k = 0; k < nz; ++k) {
    for (int lj = 0; lj < b.ny(); ++lj) {
      if (halo.has_ghost(0)) v[halo.index(-1, lj, k)] = value;
      if (halo.has_ghost(1)) v[halo.index(b.nx(), lj, k)] = value;
    }
    for (int li = -1; li <= b.nx(); ++li) {
      if ((li < 0 && !halo.has_ghost(0)) || (li == b.nx() && !halo.has_ghost(1))) continue;
      if (halo.has_ghost(2)) v[halo.index(li, -1, k)] = value;
      if (halo.has_ghost(3)) v[halo.index(li, b.ny(), k)] = value;
    }
  }
}

}  // namespace voltaic::mpi::block_support
