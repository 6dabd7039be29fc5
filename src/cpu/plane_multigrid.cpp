// CPU backend of PlaneOperator and PlaneMultigrid: plain loops over the cell
// operations that the CUDA kernels run one thread at a time (plane_ops.hpp),
// so both round identically. The red-black smoother updates one colour from
// the other only, so the loop order does not change a bit.
#include "../linalg/plane_kernels.hpp"
#include "fma_clones.hpp"

namespace voltaic::cpu {

namespace {
void keep_first(unsigned long long* first_bad, unsigned long long index) {
  if (index < *first_bad) *first_bad = index;
}
}  // namespace

template <class T>
VOLTAIC_FMA_CLONES void plane_apply(const plane::Level<T>& l, const T* x, T* y) {
  const std::size_t n = l.cells();
  for (int j = 0; j < l.ny; ++j) {
    for (int i = 0; i < l.nx; ++i) {
      const std::size_t c = static_cast<std::size_t>(i) + static_cast<std::size_t>(l.nx) * j;
      const plane::Pair<T> v = plane::apply_cell(l, i, j, x);
      y[c] = v.v0;
      y[n + c] = v.v1;
    }
  }
}

template <class T>
long long plane_first_bad_block(const T* b00, const T* b01, const T* b10, const T* b11, std::size_t n) {
  const T* b[4] = {b00, b01, b10, b11};
  for (int m = 0; m < 4; ++m) {
    for (std::size_t c = 0; c < n; ++c) {
      if (!plane::finite(b[m][c])) return static_cast<long long>(m * n + c);
    }
  }
  return -1;
}

template <class T>
void plane_sum_blocks(const plane::Level<T>& fine, const plane::Transfer<T>& t, int coarse_nx, int coarse_ny,
                      T* coarse_blocks, const plane::CellRange& coarse) {
  const std::size_t cells = static_cast<std::size_t>(coarse_nx) * static_cast<std::size_t>(coarse_ny);
  for (int cj = coarse.j0; cj < coarse.j1; ++cj) {
    for (int ci = coarse.i0; ci < coarse.i1; ++ci) plane::sum_blocks(fine, t, ci, cj, coarse_nx, cells, coarse_blocks);
  }
}

template <class T>
VOLTAIC_FMA_CLONES void plane_invert_blocks(const plane::Level<T>& l, T* inverse, unsigned long long* first_bad,
                                            const plane::CellRange& cells) {
  for (int j = cells.j0; j < cells.j1; ++j) {
    for (int i = cells.i0; i < cells.i1; ++i) {
      if (!plane::invert_block(l, i, j, inverse)) {
        keep_first(first_bad, static_cast<std::size_t>(i) + static_cast<std::size_t>(l.nx) * j);
        return;
      }
    }
  }
}

template <class T>
VOLTAIC_FMA_CLONES void plane_dense_factor(const plane::Level<T>& l, T* lu, int* pivot, unsigned long long* first_bad) {
  const std::int64_t bad = plane::dense_factor(l, lu, pivot);
  if (bad >= 0) keep_first(first_bad, static_cast<unsigned long long>(bad));
}

template <class T>
VOLTAIC_FMA_CLONES void plane_dense_solve(const T* lu, const int* pivot, int m, const T* r, T* z) {
  plane::dense_solve(lu, pivot, m, r, z);
}

template <class T>
VOLTAIC_FMA_CLONES void plane_smooth(const plane::Level<T>& l, const T* inverse, const T* r, T* z, int colour,
                                     bool from_zero, const plane::CellRange& cells) {
  const std::size_t n = l.cells();
  for (int j = cells.j0; j < cells.j1; ++j) {
    if (from_zero) {
      for (int i = cells.i0; i < cells.i1; ++i) {
        if (((i + j + cells.parity) & 1) == colour) {
          plane::smooth_cell(l, inverse, r, z, i, j, true);
        } else {
          const std::size_t c = static_cast<std::size_t>(i) + static_cast<std::size_t>(l.nx) * j;
          z[c] = T(0);
          z[n + c] = T(0);
        }
      }
    } else {
      const int first = cells.i0 + ((cells.i0 + j + cells.parity + colour) & 1);
      for (int i = first; i < cells.i1; i += 2) plane::smooth_cell(l, inverse, r, z, i, j, false);
    }
  }
}

template <class T>
VOLTAIC_FMA_CLONES void plane_restrict_residual(const plane::Level<T>& fine, const plane::Transfer<T>& t, const T* r,
                                                const T* z, int coarse_nx, int coarse_ny, T* r_coarse,
                                                const plane::CellRange& coarse) {
  const std::size_t cells = static_cast<std::size_t>(coarse_nx) * static_cast<std::size_t>(coarse_ny);
  for (int cj = coarse.j0; cj < coarse.j1; ++cj) {
    for (int ci = coarse.i0; ci < coarse.i1; ++ci) {
      plane::restrict_residual(fine, t, r, z, ci, cj, coarse_nx, cells, r_coarse);
    }
  }
}

template <class T>
VOLTAIC_FMA_CLONES void plane_residual(const plane::Level<T>& l, const T* r, const T* z, T* res,
                                       const plane::CellRange& cells) {
  for (int j = cells.j0; j < cells.j1; ++j) {
    for (int i = cells.i0; i < cells.i1; ++i) plane::residual_cell(l, i, j, r, z, res);
  }
}

template <class T>
VOLTAIC_FMA_CLONES void plane_restrict_transpose(const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* res,
                                                 int coarse_nx, int coarse_ny, T* r_coarse,
                                                 const plane::CellRange& coarse) {
  const std::size_t cells = static_cast<std::size_t>(coarse_nx) * static_cast<std::size_t>(coarse_ny);
  for (int cj = coarse.j0; cj < coarse.j1; ++cj) {
    for (int ci = coarse.i0; ci < coarse.i1; ++ci) {
      plane::restrict_transpose(t, fine_nx, fine_ny, res, ci, cj, coarse_nx, cells, r_coarse);
    }
  }
}

template <class T>
VOLTAIC_FMA_CLONES void plane_prolong_add(const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* e,
                                          int coarse_nx, int coarse_ny, T* z, const plane::CellRange& fine) {
  const std::size_t fine_cells = static_cast<std::size_t>(fine_nx) * static_cast<std::size_t>(fine_ny);
  const std::size_t coarse_cells = static_cast<std::size_t>(coarse_nx) * static_cast<std::size_t>(coarse_ny);
  for (int j = fine.j0; j < fine.j1; ++j) {
    for (int i = fine.i0; i < fine.i1; ++i)
      plane::prolong_add(t, i, j, fine_nx, fine_ny, fine_cells, e, coarse_nx, coarse_cells, z);
  }
}

// The whole level: the ranged loops over every cell.

template <class T>
void plane_sum_blocks(const plane::Level<T>& fine, const plane::Transfer<T>& t, int coarse_nx, int coarse_ny,
                      T* coarse_blocks) {
  plane_sum_blocks(fine, t, coarse_nx, coarse_ny, coarse_blocks, plane::whole_level(coarse_nx, coarse_ny));
}

template <class T>
void plane_invert_blocks(const plane::Level<T>& l, T* inverse, unsigned long long* first_bad) {
  plane_invert_blocks(l, inverse, first_bad, plane::whole_level(l.nx, l.ny));
}

template <class T>
void plane_smooth(const plane::Level<T>& l, const T* inverse, const T* r, T* z, int colour, bool from_zero) {
  plane_smooth(l, inverse, r, z, colour, from_zero, plane::whole_level(l.nx, l.ny));
}

template <class T>
void plane_restrict_residual(const plane::Level<T>& fine, const plane::Transfer<T>& t, const T* r, const T* z,
                             int coarse_nx, int coarse_ny, T* r_coarse) {
  plane_restrict_residual(fine, t, r, z, coarse_nx, coarse_ny, r_coarse, plane::whole_level(coarse_nx, coarse_ny));
}

template <class T>
void plane_residual(const plane::Level<T>& l, const T* r, const T* z, T* res) {
  plane_residual(l, r, z, res, plane::whole_level(l.nx, l.ny));
}

template <class T>
void plane_restrict_transpose(const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* res, int coarse_nx,
                              int coarse_ny, T* r_coarse) {
  plane_restrict_transpose(t, fine_nx, fine_ny, res, coarse_nx, coarse_ny, r_coarse,
                           plane::whole_level(coarse_nx, coarse_ny));
}

template <class T>
void plane_prolong_add(const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* e, int coarse_nx, int coarse_ny,
                       T* z) {
  plane_prolong_add(t, fine_nx, fine_ny, e, coarse_nx, coarse_ny, z, plane::whole_level(fine_nx, fine_ny));
}

#define VOLTAIC_INSTANTIATE(T)                                                                                         \
  template void plane_apply<T>(const plane::Level<T>&, const T*, T*);                                                  \
  template long long plane_first_bad_block<T>(const T*, const T*, const T*, const T*, std::size_t);                    \
  template void plane_sum_blocks<T>(const plane::Level<T>&, const plane::Transfer<T>&, int, int, T*);                  \
  template void plane_invert_blocks<T>(const plane::Level<T>&, T*, unsigned long long*);                               \
  template void plane_dense_factor<T>(const plane::Level<T>&, T*, int*, unsigned long long*);                          \
  template void plane_dense_solve<T>(const T*, const int*, int, const T*, T*);                                         \
  template void plane_smooth<T>(const plane::Level<T>&, const T*, const T*, T*, int, bool);                            \
  template void plane_restrict_residual<T>(const plane::Level<T>&, const plane::Transfer<T>&, const T*, const T*, int, \
                                           int, T*);                                                                   \
  template void plane_residual<T>(const plane::Level<T>&, const T*, const T*, T*);                                     \
  template void plane_restrict_transpose<T>(const plane::Transfer<T>&, int, int, const T*, int, int, T*);              \
  template void plane_prolong_add<T>(const plane::Transfer<T>&, int, int, const T*, int, int, T*);                     \
  template void plane_sum_blocks<T>(const plane::Level<T>&, const plane::Transfer<T>&, int, int, T*,                   \
                                    const plane::CellRange&);                                                          \
  template void plane_invert_blocks<T>(const plane::Level<T>&, T*, unsigned long long*, const plane::CellRange&);      \
  template void plane_smooth<T>(const plane::Level<T>&, const T*, const T*, T*, int, bool, const plane::CellRange&);   \
  template void plane_restrict_residual<T>(const plane::Level<T>&, const plane::Transfer<T>&, const T*, const T*, int, \
                                           int, T*, const plane::CellRange&);                                          \
  template void plane_residual<T>(const plane::Level<T>&, const T*, const T*, T*, const plane::CellRange&);            \
  template void plane_restrict_transpose<T>(const plane::Transfer<T>&, int, int, const T*, int, int, T*,               \
                                            const plane::CellRange&);                                                  \
  template void plane_prolong_add<T>(const plane::Transfer<T>&, int, int, const T*, int, int, T*,                      \
                                     const plane::CellRange&);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cpu
