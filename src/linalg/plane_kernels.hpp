#pragma once
// The backend kernels behind plane_system.hpp and plane_multigrid.hpp. The
// front ends (plane_system.cpp, plane_multigrid.cpp) have checked sizes and
// memory spaces; these take raw pointers and trust them. On CUDA each call
// queues one kernel on stream 0 and returns (plane_first_bad_block excepted:
// it returns its answer). The checks of PlaneMultigrid::update report the
// smallest rejected index into a word `first_bad` in the executor's memory
// (atomicMin on the device, min on the host), which the front end has set to
// kNoneBad and reads back once for all levels.

#include <cstddef>
#include <cstdint>

#include "plane_ops.hpp"

namespace voltaic {
class CudaExecutor;
}  // namespace voltaic

namespace voltaic::plane {
constexpr unsigned long long kNoneBad = ~0ull;

/// Most levels the fused tail of a V-cycle holds (PlaneMultigrid's kPlaneFusedLevels).
constexpr int kMaxFusedLevels = 8;

/// One level of a V-cycle's fused tail, as the one kernel sees it.
template <class T>
struct FusedLevel {
  Level<T> level;
  Transfer<T> transfer;        ///< from the finer level to this one (unused on the tail's first)
  const T* inverse = nullptr;  ///< the smoother's inverse blocks (null on the coarsest)
  const T* r = nullptr;        ///< this level's right-hand side
  T* r_write = nullptr;        ///< the same array, written by the restriction (null on the tail's first)
  T* z = nullptr;              ///< this level's correction
  T* residual = nullptr;       ///< r - A z before the restriction (bilinear_transpose only)
};

/// The coarse end of a V-cycle, from the tail's first level down to the
/// coarsest (solved by the dense LU) and back up to the first.
template <class T>
struct FusedCycle {
  FusedLevel<T> levels[kMaxFusedLevels];
  int count = 0;  ///< levels in the tail, the coarsest last (>= 2)
  int pre_smoothing = 0, post_smoothing = 0;
  int cell_sum = 0;  ///< restriction by cell sums (else the transposed prolongation)
  const T* lu = nullptr;
  const int* pivot = nullptr;
  int m = 0;  ///< unknowns of the coarsest level
};

/// The cells [i0, i1) x [j0, j1) of a level that a loop or a launch visits
/// (a window of a cut level visits the cells its rank owns). `parity` is the
/// window's (first global column + first global row) & 1: red and black
/// then follow the whole level's (i + j), wherever the window starts.
struct CellRange {
  int i0 = 0, i1 = 0, j0 = 0, j1 = 0;
  int parity = 0;
};

/// Every cell of an nx x ny level.
inline CellRange whole_level(int nx, int ny) { return {0, nx, 0, ny, 0}; }

}  // namespace voltaic::plane

namespace voltaic::cpu {

/// y = A x on level l (the fine operator is level 0 of its own).
template <class T>
void plane_apply(const plane::Level<T>& l, const T* x, T* y);
/// The smallest m n + c whose block value b_m[c] (m = 00, 01, 10, 11) is not finite, or -1.
template <class T>
long long plane_first_bad_block(const T* b00, const T* b01, const T* b10, const T* b11, std::size_t n);
/// The coarse level's blocks from the fine level's (coarse_nx x coarse_ny cells).
template <class T>
void plane_sum_blocks(const plane::Level<T>& fine, const plane::Transfer<T>& t, int coarse_nx, int coarse_ny,
                      T* coarse_blocks);
/// Every cell's inverse diagonal block; the smallest cell whose block is rejected.
template <class T>
void plane_invert_blocks(const plane::Level<T>& l, T* inverse, unsigned long long* first_bad);
/// The dense LU of level l (2 n <= kMaxDense); the failing step, if any.
template <class T>
void plane_dense_factor(const plane::Level<T>& l, T* lu, int* pivot, unsigned long long* first_bad);
template <class T>
void plane_dense_solve(const T* lu, const int* pivot, int m, const T* r, T* z);
/// One half-sweep of red-black block Gauss-Seidel over the cells with
/// (i + j) % 2 == colour; with from_zero (colour 0 only) z starts from 0: the
/// red cells get M^{-1} r and the black cells 0.
template <class T>
void plane_smooth(const plane::Level<T>& l, const T* inverse, const T* r, T* z, int colour, bool from_zero);
/// r_coarse = the sum over each coarse cell's children of r - A z.
template <class T>
void plane_restrict_residual(const plane::Level<T>& fine, const plane::Transfer<T>& t, const T* r, const T* z,
                             int coarse_nx, int coarse_ny, T* r_coarse);
/// res = r - A z on every cell of level l.
template <class T>
void plane_residual(const plane::Level<T>& l, const T* r, const T* z, T* res);
/// r_coarse = P^T res (the transpose of the bilinear prolongation).
template <class T>
void plane_restrict_transpose(const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* res, int coarse_nx,
                              int coarse_ny, T* r_coarse);
/// z += P e (bilinear).
template <class T>
void plane_prolong_add(const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* e, int coarse_nx, int coarse_ny,
                       T* z);

// The same on the cells of a range only (CutPlaneMultigrid's windows: the
// level passed is the window, the range its owned cells; a coarse range for
// the steps that write the coarse level). The calls above are these over
// the whole level.
template <class T>
void plane_sum_blocks(const plane::Level<T>& fine, const plane::Transfer<T>& t, int coarse_nx, int coarse_ny,
                      T* coarse_blocks, const plane::CellRange& coarse);
template <class T>
void plane_invert_blocks(const plane::Level<T>& l, T* inverse, unsigned long long* first_bad,
                         const plane::CellRange& cells);
template <class T>
void plane_smooth(const plane::Level<T>& l, const T* inverse, const T* r, T* z, int colour, bool from_zero,
                  const plane::CellRange& cells);
template <class T>
void plane_restrict_residual(const plane::Level<T>& fine, const plane::Transfer<T>& t, const T* r, const T* z,
                             int coarse_nx, int coarse_ny, T* r_coarse, const plane::CellRange& coarse);
template <class T>
void plane_residual(const plane::Level<T>& l, const T* r, const T* z, T* res, const plane::CellRange& cells);
template <class T>
void plane_restrict_transpose(const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* res, int coarse_nx,
                              int coarse_ny, T* r_coarse, const plane::CellRange& coarse);
template <class T>
void plane_prolong_add(const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* e, int coarse_nx, int coarse_ny,
                       T* z, const plane::CellRange& fine);

}  // namespace voltaic::cpu

namespace voltaic::cuda {

template <class T>
void plane_apply(const CudaExecutor& exec, const plane::Level<T>& l, const T* x, T* y);
/// Reads back one word (waits).
template <class T>
long long plane_first_bad_block(const CudaExecutor& exec, const T* b00, const T* b01, const T* b10, const T* b11,
                                std::size_t n);
template <class T>
void plane_sum_blocks(const CudaExecutor& exec, const plane::Level<T>& fine, const plane::Transfer<T>& t, int coarse_nx,
                      int coarse_ny, T* coarse_blocks);
template <class T>
void plane_invert_blocks(const CudaExecutor& exec, const plane::Level<T>& l, T* inverse, unsigned long long* first_bad);
/// One thread: the coarsest system is at most kMaxDense unknowns.
template <class T>
void plane_dense_factor(const CudaExecutor& exec, const plane::Level<T>& l, T* lu, int* pivot,
                        unsigned long long* first_bad);
template <class T>
void plane_dense_solve(const CudaExecutor& exec, const T* lu, const int* pivot, int m, const T* r, T* z);
template <class T>
void plane_smooth(const CudaExecutor& exec, const plane::Level<T>& l, const T* inverse, const T* r, T* z, int colour,
                  bool from_zero);
template <class T>
void plane_restrict_residual(const CudaExecutor& exec, const plane::Level<T>& fine, const plane::Transfer<T>& t,
                             const T* r, const T* z, int coarse_nx, int coarse_ny, T* r_coarse);
template <class T>
void plane_residual(const CudaExecutor& exec, const plane::Level<T>& l, const T* r, const T* z, T* res);
template <class T>
void plane_restrict_transpose(const CudaExecutor& exec, const plane::Transfer<T>& t, int fine_nx, int fine_ny,
                              const T* res, int coarse_nx, int coarse_ny, T* r_coarse);
template <class T>
void plane_prolong_add(const CudaExecutor& exec, const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* e,
                       int coarse_nx, int coarse_ny, T* z);
// The same on the cells of a range only (as the CPU's: a launch over the
// range's cells; none for an empty range). The calls above are these over
// the whole level.
template <class T>
void plane_sum_blocks(const CudaExecutor& exec, const plane::Level<T>& fine, const plane::Transfer<T>& t, int coarse_nx,
                      int coarse_ny, T* coarse_blocks, const plane::CellRange& coarse);
template <class T>
void plane_invert_blocks(const CudaExecutor& exec, const plane::Level<T>& l, T* inverse, unsigned long long* first_bad,
                         const plane::CellRange& cells);
template <class T>
void plane_smooth(const CudaExecutor& exec, const plane::Level<T>& l, const T* inverse, const T* r, T* z, int colour,
                  bool from_zero, const plane::CellRange& cells);
template <class T>
void plane_restrict_residual(const CudaExecutor& exec, const plane::Level<T>& fine, const plane::Transfer<T>& t,
                             const T* r, const T* z, int coarse_nx, int coarse_ny, T* r_coarse,
                             const plane::CellRange& coarse);
template <class T>
void plane_residual(const CudaExecutor& exec, const plane::Level<T>& l, const T* r, const T* z, T* res,
                    const plane::CellRange& cells);
template <class T>
void plane_restrict_transpose(const CudaExecutor& exec, const plane::Transfer<T>& t, int fine_nx, int fine_ny,
                              const T* res, int coarse_nx, int coarse_ny, T* r_coarse, const plane::CellRange& coarse);
template <class T>
void plane_prolong_add(const CudaExecutor& exec, const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* e,
                       int coarse_nx, int coarse_ny, T* z, const plane::CellRange& fine);
/// The tail of a V-cycle as one kernel of one thread block: the steps above
/// for each of its levels, in the same order, a barrier between them.
template <class T>
void plane_fused_cycle(const CudaExecutor& exec, const plane::FusedCycle<T>& cycle);

}  // namespace voltaic::cuda
