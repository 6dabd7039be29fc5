// CUDA kernels of PlaneOperator and PlaneMultigrid: one thread per cell (per
// coarse cell for the restriction and the block sums; per cell of one colour
// for a red-black half-sweep), running the same cell operations as the CPU
// loops (src/linalg/plane_ops.hpp), so both backends round identically. A
// half-sweep reads only the other colour, so threads never race. The
// coarsest level's dense LU and solve run on one thread (at most 32
// unknowns): no host round trip inside a V-cycle. The coarse levels run as
// one kernel of one thread block (fused_cycle_kernel): the same cell
// operations over the same cells of each step, a barrier between steps.
#include <cstdint>

#include "core/cuda_check.hpp"
#include "linalg/plane_kernels.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

namespace {

constexpr int kTileX = 32;
constexpr int kTileY = 8;

dim3 tiles(int nx, int ny) { return dim3((nx + kTileX - 1) / kTileX, (ny + kTileY - 1) / kTileY); }
dim3 tiles(const plane::CellRange& c) { return tiles(c.i1 - c.i0, c.j1 - c.j0); }
bool empty(const plane::CellRange& c) { return c.i1 <= c.i0 || c.j1 <= c.j0; }

/// This thread's cell of a range (a tile of kTileX x kTileY threads a block).
struct RangeCell {
  int i, j;
  __device__ explicit RangeCell(const plane::CellRange& c)
      : i(c.i0 + static_cast<int>(blockIdx.x) * kTileX + static_cast<int>(threadIdx.x)),
        j(c.j0 + static_cast<int>(blockIdx.y) * kTileY + static_cast<int>(threadIdx.y)) {}
  __device__ bool outside(const plane::CellRange& c) const { return i >= c.i1 || j >= c.j1; }
};

__device__ __forceinline__ void report_bad(unsigned long long* first_bad, unsigned long long index) {
  atomicMin(first_bad, index);
}

template <class T>
__global__ void __launch_bounds__(kTileX* kTileY)
    apply_kernel(plane::Level<T> l, const T* __restrict__ x, T* __restrict__ y) {
  const int i = blockIdx.x * kTileX + threadIdx.x, j = blockIdx.y * kTileY + threadIdx.y;
  if (i >= l.nx || j >= l.ny) return;
  const std::size_t n = l.cells(), c = static_cast<std::size_t>(i) + static_cast<std::size_t>(l.nx) * j;
  const plane::Pair<T> v = plane::apply_cell(l, i, j, x);
  y[c] = v.v0;
  y[n + c] = v.v1;
}

template <class T>
__global__ void first_bad_block_kernel(const T* b00, const T* b01, const T* b10, const T* b11, std::size_t n,
                                       unsigned long long* first_bad) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; c < n; c += stride) {
    const T v[4] = {b00[c], b01[c], b10[c], b11[c]};
    for (int m = 0; m < 4; ++m) {
      if (!plane::finite(v[m])) report_bad(first_bad, m * n + c);
    }
  }
}

template <class T>
__global__ void sum_blocks_kernel(plane::Level<T> fine, plane::Transfer<T> t, int coarse_nx, int coarse_ny,
                                  T* __restrict__ coarse_blocks, plane::CellRange range) {
  const RangeCell c(range);
  if (c.outside(range)) return;
  const std::size_t cells = static_cast<std::size_t>(coarse_nx) * static_cast<std::size_t>(coarse_ny);
  plane::sum_blocks(fine, t, c.i, c.j, coarse_nx, cells, coarse_blocks);
}

template <class T>
__global__ void invert_blocks_kernel(plane::Level<T> l, T* __restrict__ inverse, unsigned long long* first_bad,
                                     plane::CellRange range) {
  const RangeCell c(range);
  if (c.outside(range)) return;
  if (!plane::invert_block(l, c.i, c.j, inverse)) {
    report_bad(first_bad, static_cast<std::size_t>(c.i) + static_cast<std::size_t>(l.nx) * c.j);
  }
}

/// One thread factors in shared memory (the elimination's chain of dependent
/// loads and stores then waits on shared memory, not on global memory); the
/// block copies the factors out.
template <class T>
__global__ void dense_factor_kernel(plane::Level<T> l, T* lu, int* pivot, unsigned long long* first_bad) {
  __shared__ T a[plane::kMaxDense * plane::kMaxDense];
  __shared__ int p[plane::kMaxDense];
  if (threadIdx.x == 0) {
    const std::int64_t bad = plane::dense_factor(l, a, p);
    if (bad >= 0) *first_bad = static_cast<unsigned long long>(bad);
  }
  __syncthreads();
  const int m = 2 * static_cast<int>(l.cells());
  for (int e = threadIdx.x; e < m * m; e += blockDim.x) lu[e] = a[e];
  for (int e = threadIdx.x; e < m; e += blockDim.x) pivot[e] = p[e];
}

template <class T>
__global__ void dense_solve_kernel(const T* lu, const int* pivot, int m, const T* r, T* z) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  plane::dense_solve(lu, pivot, m, r, z);
}

/// Thread (h, j) owns cell i = i0 + 2 h + ((i0 + j + parity + colour) & 1)
/// of row j (the range's cells of this colour, as the CPU loop visits them).
/// z is read at the other colour's cells and written at this colour's: not
/// __restrict__.
template <class T>
__global__ void __launch_bounds__(kTileX* kTileY)
    smooth_kernel(plane::Level<T> l, const T* __restrict__ inverse, const T* __restrict__ r, T* z, int colour,
                  plane::CellRange range) {
  const int h = blockIdx.x * kTileX + threadIdx.x, j = range.j0 + static_cast<int>(blockIdx.y) * kTileY + threadIdx.y;
  const int i = range.i0 + 2 * h + ((range.i0 + j + range.parity + colour) & 1);
  if (i >= range.i1 || j >= range.j1) return;
  plane::smooth_cell(l, inverse, r, z, i, j, false);
}

/// The first half-sweep from z = 0: this colour's cells get M^{-1} r, the other's 0.
template <class T>
__global__ void __launch_bounds__(kTileX* kTileY)
    smooth_from_zero_kernel(plane::Level<T> l, const T* __restrict__ inverse, const T* __restrict__ r,
                            T* __restrict__ z, int colour, plane::CellRange range) {
  const RangeCell c(range);
  if (c.outside(range)) return;
  const int i = c.i, j = c.j;
  if (((i + j + range.parity) & 1) == colour) {
    plane::smooth_cell(l, inverse, r, z, i, j, true);
  } else {
    const std::size_t n = l.cells(), c = static_cast<std::size_t>(i) + static_cast<std::size_t>(l.nx) * j;
    z[c] = T(0);
    z[n + c] = T(0);
  }
}

template <class T>
__global__ void restrict_kernel(plane::Level<T> fine, plane::Transfer<T> t, const T* __restrict__ r,
                                const T* __restrict__ z, int coarse_nx, int coarse_ny, T* __restrict__ r_coarse,
                                plane::CellRange range) {
  const RangeCell c(range);
  if (c.outside(range)) return;
  const std::size_t cells = static_cast<std::size_t>(coarse_nx) * static_cast<std::size_t>(coarse_ny);
  plane::restrict_residual(fine, t, r, z, c.i, c.j, coarse_nx, cells, r_coarse);
}

template <class T>
__global__ void __launch_bounds__(kTileX* kTileY)
    residual_kernel(plane::Level<T> l, const T* __restrict__ r, const T* __restrict__ z, T* __restrict__ res,
                    plane::CellRange range) {
  const RangeCell c(range);
  if (c.outside(range)) return;
  plane::residual_cell(l, c.i, c.j, r, z, res);
}

template <class T>
__global__ void restrict_transpose_kernel(plane::Transfer<T> t, int fine_nx, int fine_ny, const T* __restrict__ res,
                                          int coarse_nx, int coarse_ny, T* __restrict__ r_coarse,
                                          plane::CellRange range) {
  const RangeCell c(range);
  if (c.outside(range)) return;
  const std::size_t cells = static_cast<std::size_t>(coarse_nx) * static_cast<std::size_t>(coarse_ny);
  plane::restrict_transpose(t, fine_nx, fine_ny, res, c.i, c.j, coarse_nx, cells, r_coarse);
}

template <class T>
__global__ void __launch_bounds__(kTileX* kTileY)
    prolong_kernel(plane::Transfer<T> t, int fine_nx, int fine_ny, const T* __restrict__ e, int coarse_nx,
                   int coarse_ny, T* __restrict__ z, plane::CellRange range) {
  const RangeCell c(range);
  if (c.outside(range)) return;
  const int i = c.i, j = c.j;
  const std::size_t fine_cells = static_cast<std::size_t>(fine_nx) * static_cast<std::size_t>(fine_ny);
  const std::size_t coarse_cells = static_cast<std::size_t>(coarse_nx) * static_cast<std::size_t>(coarse_ny);
  plane::prolong_add(t, i, j, fine_nx, fine_ny, fine_cells, e, coarse_nx, coarse_cells, z);
}

constexpr int kFusedThreads = 512;

/// This block's share of every cell of level l: f(i, j).
template <class T, class F>
__device__ void for_cells(const plane::Level<T>& l, F&& f) {
  for (int q = threadIdx.x; q < l.nx * l.ny; q += blockDim.x) f(q % l.nx, q / l.nx);
}

/// One red-black half-sweep of the block's level, as smooth_kernel and
/// smooth_from_zero_kernel make it, then a barrier.
template <class T>
__device__ void fused_smooth(const plane::FusedLevel<T>& f, int colour, bool from_zero) {
  const plane::Level<T>& l = f.level;
  if (from_zero) {
    for_cells(l, [&](int i, int j) {
      if (((i + j) & 1) == colour) {
        plane::smooth_cell(l, f.inverse, f.r, f.z, i, j, true);
      } else {
        const std::size_t c = static_cast<std::size_t>(i) + static_cast<std::size_t>(l.nx) * j;
        f.z[c] = T(0);
        f.z[l.cells() + c] = T(0);
      }
    });
  } else {
    const int half = (l.nx + 1) / 2;
    for (int q = threadIdx.x; q < half * l.ny; q += blockDim.x) {
      const int j = q / half, i = 2 * (q % half) + ((j + colour) & 1);
      if (i < l.nx) plane::smooth_cell(l, f.inverse, f.r, f.z, i, j, false);
    }
  }
  __syncthreads();
}

/// The tail of a V-cycle: down from the tail's first level to the coarsest,
/// the dense solve on one thread (the LU in shared memory), back up.
template <class T>
__global__ void __launch_bounds__(kFusedThreads)
    fused_cycle_kernel(const __grid_constant__ plane::FusedCycle<T> cycle) {
  __shared__ T lu[plane::kMaxDense * plane::kMaxDense];
  __shared__ int pivot[plane::kMaxDense];
  for (int e = threadIdx.x; e < cycle.m * cycle.m; e += blockDim.x) lu[e] = cycle.lu[e];
  for (int e = threadIdx.x; e < cycle.m; e += blockDim.x) pivot[e] = cycle.pivot[e];
  const int last = cycle.count - 1;
  for (int l = 0; l < last; ++l) {
    const plane::FusedLevel<T>& f = cycle.levels[l];
    const plane::FusedLevel<T>& c = cycle.levels[l + 1];
    if (cycle.pre_smoothing == 0) {
      for (int e = threadIdx.x; e < 2 * static_cast<int>(f.level.cells()); e += blockDim.x) f.z[e] = T(0);
      __syncthreads();
    }
    for (int s = 0; s < cycle.pre_smoothing; ++s) {
      fused_smooth(f, 0, s == 0);
      fused_smooth(f, 1, false);
    }
    const std::size_t coarse_cells = c.level.cells();
    if (cycle.cell_sum) {
      for_cells(c.level, [&](int ci, int cj) {
        plane::restrict_residual(f.level, c.transfer, f.r, f.z, ci, cj, c.level.nx, coarse_cells, c.r_write);
      });
    } else {
      for_cells(f.level, [&](int i, int j) { plane::residual_cell(f.level, i, j, f.r, f.z, f.residual); });
      __syncthreads();
      for_cells(c.level, [&](int ci, int cj) {
        plane::restrict_transpose(c.transfer, f.level.nx, f.level.ny, f.residual, ci, cj, c.level.nx, coarse_cells,
                                  c.r_write);
      });
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) plane::dense_solve(lu, pivot, cycle.m, cycle.levels[last].r, cycle.levels[last].z);
  __syncthreads();
  for (int l = last - 1; l >= 0; --l) {
    const plane::FusedLevel<T>& f = cycle.levels[l];
    const plane::FusedLevel<T>& c = cycle.levels[l + 1];
    for_cells(f.level, [&](int i, int j) {
      plane::prolong_add(c.transfer, i, j, f.level.nx, f.level.ny, f.level.cells(), c.z, c.level.nx, c.level.cells(),
                         f.z);
    });
    __syncthreads();
    for (int s = 0; s < cycle.post_smoothing; ++s) {
      fused_smooth(f, 1, false);
      fused_smooth(f, 0, false);
    }
  }
}

}  // namespace

template <class T>
void plane_apply(const CudaExecutor& exec, const plane::Level<T>& l, const T* x, T* y) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  apply_kernel<T><<<tiles(l.nx, l.ny), dim3(kTileX, kTileY), 0, s>>>(l, x, y);
  VOLTAIC_LAUNCH_CHECK(s, apply_kernel);
}

template <class T>
long long plane_first_bad_block(const CudaExecutor& exec, const T* b00, const T* b01, const T* b10, const T* b11,
                                std::size_t n) {
  if (n == 0) return -1;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  auto* first = static_cast<unsigned long long*>(exec.scratch(sizeof(unsigned long long)));
  VOLTAIC_CUDA_CHECK(cudaMemsetAsync(first, 0xff, sizeof(unsigned long long), s));
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096);
  first_bad_block_kernel<T><<<blocks, 256, 0, s>>>(b00, b01, b10, b11, n, first);
  VOLTAIC_LAUNCH_CHECK(s, first_bad_block_kernel);
  unsigned long long host = 0;
  exec.copy(&host, MemorySpace::host(), first, exec.memory_space(), sizeof(host));
  return host == plane::kNoneBad ? -1 : static_cast<long long>(host);
}

template <class T>
void plane_sum_blocks(const CudaExecutor& exec, const plane::Level<T>& fine, const plane::Transfer<T>& t, int coarse_nx,
                      int coarse_ny, T* coarse_blocks, const plane::CellRange& coarse) {
  if (empty(coarse)) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  sum_blocks_kernel<T>
      <<<tiles(coarse), dim3(kTileX, kTileY), 0, s>>>(fine, t, coarse_nx, coarse_ny, coarse_blocks, coarse);
  VOLTAIC_LAUNCH_CHECK(s, sum_blocks_kernel);
}

template <class T>
void plane_invert_blocks(const CudaExecutor& exec, const plane::Level<T>& l, T* inverse, unsigned long long* first_bad,
                         const plane::CellRange& cells) {
  if (empty(cells)) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  invert_blocks_kernel<T><<<tiles(cells), dim3(kTileX, kTileY), 0, s>>>(l, inverse, first_bad, cells);
  VOLTAIC_LAUNCH_CHECK(s, invert_blocks_kernel);
}

template <class T>
void plane_dense_factor(const CudaExecutor& exec, const plane::Level<T>& l, T* lu, int* pivot,
                        unsigned long long* first_bad) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  dense_factor_kernel<T><<<1, 128, 0, s>>>(l, lu, pivot, first_bad);
  VOLTAIC_LAUNCH_CHECK(s, dense_factor_kernel);
}

template <class T>
void plane_dense_solve(const CudaExecutor& exec, const T* lu, const int* pivot, int m, const T* r, T* z) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  dense_solve_kernel<T><<<1, 1, 0, s>>>(lu, pivot, m, r, z);
  VOLTAIC_LAUNCH_CHECK(s, dense_solve_kernel);
}

template <class T>
void plane_smooth(const CudaExecutor& exec, const plane::Level<T>& l, const T* inverse, const T* r, T* z, int colour,
                  bool from_zero, const plane::CellRange& cells) {
  if (empty(cells)) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  if (from_zero) {
    smooth_from_zero_kernel<T><<<tiles(cells), dim3(kTileX, kTileY), 0, s>>>(l, inverse, r, z, colour, cells);
    VOLTAIC_LAUNCH_CHECK(s, smooth_from_zero_kernel);
  } else {
    const dim3 grid = tiles((cells.i1 - cells.i0 + 1) / 2, cells.j1 - cells.j0);
    smooth_kernel<T><<<grid, dim3(kTileX, kTileY), 0, s>>>(l, inverse, r, z, colour, cells);
    VOLTAIC_LAUNCH_CHECK(s, smooth_kernel);
  }
}

template <class T>
void plane_restrict_residual(const CudaExecutor& exec, const plane::Level<T>& fine, const plane::Transfer<T>& t,
                             const T* r, const T* z, int coarse_nx, int coarse_ny, T* r_coarse,
                             const plane::CellRange& coarse) {
  if (empty(coarse)) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  restrict_kernel<T>
      <<<tiles(coarse), dim3(kTileX, kTileY), 0, s>>>(fine, t, r, z, coarse_nx, coarse_ny, r_coarse, coarse);
  VOLTAIC_LAUNCH_CHECK(s, restrict_kernel);
}

template <class T>
void plane_residual(const CudaExecutor& exec, const plane::Level<T>& l, const T* r, const T* z, T* res,
                    const plane::CellRange& cells) {
  if (empty(cells)) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  residual_kernel<T><<<tiles(cells), dim3(kTileX, kTileY), 0, s>>>(l, r, z, res, cells);
  VOLTAIC_LAUNCH_CHECK(s, residual_kernel);
}

template <class T>
void plane_restrict_transpose(const CudaExecutor& exec, const plane::Transfer<T>& t, int fine_nx, int fine_ny,
                              const T* res, int coarse_nx, int coarse_ny, T* r_coarse, const plane::CellRange& coarse) {
  if (empty(coarse)) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  restrict_transpose_kernel<T>
      <<<tiles(coarse), dim3(kTileX, kTileY), 0, s>>>(t, fine_nx, fine_ny, res, coarse_nx, coarse_ny, r_coarse, coarse);
  VOLTAIC_LAUNCH_CHECK(s, restrict_transpose_kernel);
}

template <class T>
void plane_prolong_add(const CudaExecutor& exec, const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* e,
                       int coarse_nx, int coarse_ny, T* z, const plane::CellRange& fine) {
  if (empty(fine)) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  prolong_kernel<T><<<tiles(fine), dim3(kTileX, kTileY), 0, s>>>(t, fine_nx, fine_ny, e, coarse_nx, coarse_ny, z, fine);
  VOLTAIC_LAUNCH_CHECK(s, prolong_kernel);
}

// The whole level: the ranged launches over every cell.

template <class T>
void plane_sum_blocks(const CudaExecutor& exec, const plane::Level<T>& fine, const plane::Transfer<T>& t, int coarse_nx,
                      int coarse_ny, T* coarse_blocks) {
  plane_sum_blocks(exec, fine, t, coarse_nx, coarse_ny, coarse_blocks, plane::whole_level(coarse_nx, coarse_ny));
}

template <class T>
void plane_invert_blocks(const CudaExecutor& exec, const plane::Level<T>& l, T* inverse,
                         unsigned long long* first_bad) {
  plane_invert_blocks(exec, l, inverse, first_bad, plane::whole_level(l.nx, l.ny));
}

template <class T>
void plane_smooth(const CudaExecutor& exec, const plane::Level<T>& l, const T* inverse, const T* r, T* z, int colour,
                  bool from_zero) {
  plane_smooth(exec, l, inverse, r, z, colour, from_zero, plane::whole_level(l.nx, l.ny));
}

template <class T>
void plane_restrict_residual(const CudaExecutor& exec, const plane::Level<T>& fine, const plane::Transfer<T>& t,
                             const T* r, const T* z, int coarse_nx, int coarse_ny, T* r_coarse) {
  plane_restrict_residual(exec, fine, t, r, z, coarse_nx, coarse_ny, r_coarse,
                          plane::whole_level(coarse_nx, coarse_ny));
}

template <class T>
void plane_residual(const CudaExecutor& exec, const plane::Level<T>& l, const T* r, const T* z, T* res) {
  plane_residual(exec, l, r, z, res, plane::whole_level(l.nx, l.ny));
}

template <class T>
void plane_restrict_transpose(const CudaExecutor& exec, const plane::Transfer<T>& t, int fine_nx, int fine_ny,
                              const T* res, int coarse_nx, int coarse_ny, T* r_coarse) {
  plane_restrict_transpose(exec, t, fine_nx, fine_ny, res, coarse_nx, coarse_ny, r_coarse,
                           plane::whole_level(coarse_nx, coarse_ny));
}

template <class T>
void plane_prolong_add(const CudaExecutor& exec, const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* e,
                       int coarse_nx, int coarse_ny, T* z) {
  plane_prolong_add(exec, t, fine_nx, fine_ny, e, coarse_nx, coarse_ny, z, plane::whole_level(fine_nx, fine_ny));
}

template <class T>
void plane_fused_cycle(const CudaExecutor& exec, const plane::FusedCycle<T>& cycle) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  fused_cycle_kernel<T><<<1, kFusedThreads, 0, s>>>(cycle);
  VOLTAIC_LAUNCH_CHECK(s, fused_cycle_kernel);
}

#define VOLTAIC_INSTANTIATE(T)                                                                                         \
  template void plane_apply<T>(const CudaExecutor&, const plane::Level<T>&, const T*, T*);                             \
  template long long plane_first_bad_block<T>(const CudaExecutor&, const T*, const T*, const T*, const T*,             \
                                              std::size_t);                                                            \
  template void plane_sum_blocks<T>(const CudaExecutor&, const plane::Level<T>&, const plane::Transfer<T>&, int, int,  \
                                    T*);                                                                               \
  template void plane_invert_blocks<T>(const CudaExecutor&, const plane::Level<T>&, T*, unsigned long long*);          \
  template void plane_dense_factor<T>(const CudaExecutor&, const plane::Level<T>&, T*, int*, unsigned long long*);     \
  template void plane_dense_solve<T>(const CudaExecutor&, const T*, const int*, int, const T*, T*);                    \
  template void plane_smooth<T>(const CudaExecutor&, const plane::Level<T>&, const T*, const T*, T*, int, bool);       \
  template void plane_restrict_residual<T>(const CudaExecutor&, const plane::Level<T>&, const plane::Transfer<T>&,     \
                                           const T*, const T*, int, int, T*);                                          \
  template void plane_residual<T>(const CudaExecutor&, const plane::Level<T>&, const T*, const T*, T*);                \
  template void plane_restrict_transpose<T>(const CudaExecutor&, const plane::Transfer<T>&, int, int, const T*, int,   \
                                            int, T*);                                                                  \
  template void plane_prolong_add<T>(const CudaExecutor&, const plane::Transfer<T>&, int, int, const T*, int, int,     \
                                     T*);                                                                              \
  template void plane_fused_cycle<T>(const CudaExecutor&, const plane::FusedCycle<T>&);                                \
  template void plane_sum_blocks<T>(const CudaExecutor&, const plane::Level<T>&, const plane::Transfer<T>&, int, int,  \
                                    T*, const plane::CellRange&);                                                      \
  template void plane_invert_blocks<T>(const CudaExecutor&, const plane::Level<T>&, T*, unsigned long long*,           \
                                       const plane::CellRange&);                                                       \
  template void plane_smooth<T>(const CudaExecutor&, const plane::Level<T>&, const T*, const T*, T*, int, bool,        \
                                const plane::CellRange&);                                                              \
  template void plane_restrict_residual<T>(const CudaExecutor&, const plane::Level<T>&, const plane::Transfer<T>&,     \
                                           const T*, const T*, int, int, T*, const plane::CellRange&);                 \
  template void plane_residual<T>(const CudaExecutor&, const plane::Level<T>&, const T*, const T*, T*,                 \
                                  const plane::CellRange&);                                                            \
  template void plane_restrict_transpose<T>(const CudaExecutor&, const plane::Transfer<T>&, int, int, const T*, int,   \
                                            int, T*, const plane::CellRange&);                                         \
  template void plane_prolong_add<T>(const CudaExecutor&, const plane::Transfer<T>&, int, int, const T*, int, int, T*, \
                                     const plane::CellRange&);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cuda
