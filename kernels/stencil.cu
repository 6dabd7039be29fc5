// CUDA kernels of StencilOperator: coefficients, and two applies, the x-y tiled
// z-streaming one (the default) and the plain one-thread-per-cell baseline.
// Both call the same point formula as the CPU loop, so all three agree bit
// for bit.
//
// Memory per apply (minimal-byte model): read x, diag, tx, ty, tz, write y:
// 6 values per cell (8 with the two-field coupling). The tiled kernel reads x
// once from DRAM per layer plus tile halos (served mostly by L2), and each x
// value of a column three times from registers.
#include <algorithm>
#include <climits>

#include "core/cuda_check.hpp"
#include "linalg/stencil_kernels.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

namespace {

using stencil::ApplyArgs;
using stencil::Layout;

constexpr int kTileX = 32;
constexpr int kTileY = 8;

template <class T>
dim3 cell_grid(const Layout<T>& g) {
  return dim3((g.nx + kTileX - 1) / kTileX, (g.ny + kTileY - 1) / kTileY, g.nz);
}

template <class T>
__global__ void first_invalid_kernel(const T* k, const T* d, std::size_t n, unsigned long long* first) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; c < n; c += stride) {
    if (!stencil::valid_cell_inputs(k[c], d[c])) atomicMin(first, static_cast<unsigned long long>(c));
  }
}

template <class T>
__global__ void coefficients_kernel(Layout<T> g, const T* k, const T* d, stencil::Coefficients<T> out, T* rhs) {
  const int i = blockIdx.x * kTileX + threadIdx.x, j = blockIdx.y * kTileY + threadIdx.y, kk = blockIdx.z;
  if (i >= g.nx || j >= g.ny) return;
  const auto cc =
      stencil::cell_coefficients(i, j, kk, g.nx, g.ny, g.nz, g.dx, g.dy, g.dz, k, d, g.bc.data(), g.arithmetic);
  const long long c = i + static_cast<long long>(g.nx) * (j + static_cast<long long>(g.ny) * kk);
  out.diag[c] = cc.diag;
  out.tx[c] = cc.tx;
  out.ty[c] = cc.ty;
  out.tz[c] = cc.tz;
  if (out.faces) out.faces[c] = cc.faces;
  rhs[c] = cc.rhs;
}

template <class T>
__global__ void diagonal_kernel(Layout<T> g, const T* faces, const T* d, T* diag) {
  const int i = blockIdx.x * kTileX + threadIdx.x, j = blockIdx.y * kTileY + threadIdx.y, kk = blockIdx.z;
  if (i >= g.nx || j >= g.ny) return;
  const long long c = i + static_cast<long long>(g.nx) * (j + static_cast<long long>(g.ny) * kk);
  diag[c] = stencil::diagonal_of(g, faces, d, c, kk);
}

/// One thread per cell; neighbours read straight from global memory (L1/L2).
template <class T>
__global__ void __launch_bounds__(kTileX* kTileY) apply_untiled_kernel(Layout<T> g, ApplyArgs<T> a) {
  const int i = blockIdx.x * kTileX + threadIdx.x, j = blockIdx.y * kTileY + threadIdx.y, k = blockIdx.z;
  if (i >= g.nx || j >= g.ny) return;
  a.y[i + static_cast<long long>(g.nx) * (j + static_cast<long long>(g.ny) * k)] = stencil::apply_cell(g, a, i, j, k);
}

/// One thread per cell of the frame's columns (x) and layer (y).
template <class T>
__global__ void apply_frame_kernel(Layout<T> g, ApplyArgs<T> a, stencil::ColumnFrame frame, long long columns) {
  const long long n = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int k = blockIdx.y;
  if (n >= columns) return;
  int i = 0, j = 0;
  frame.column(g.nx, g.ny, n, i, j);
  a.y[i + static_cast<long long>(g.nx) * (j + static_cast<long long>(g.ny) * k)] = stencil::apply_cell(g, a, i, j, k);
}

/// What a thread reads for one layer: its cell's coefficients and, at the tile
/// edges, the halo values its tile needs from the neighbouring tiles.
template <class T>
struct LayerLoads {
  T diag, tz, tx, ty;
  T x_left, tx_left;    ///< threads of tile column 0: x and tx of cell c-x
  T x_right;            ///< tile column 31: x of c+x
  T x_below, ty_below;  ///< tile row 0: x and ty of c-y
  T x_above;            ///< tile row 7: x of c+y
};

template <class T>
__device__ __forceinline__ LayerLoads<T> load_layer(const Layout<T>& g, const ApplyArgs<T>& a, long long c, int i,
                                                    int j, bool inside) {
  const long long sy = g.nx;
  LayerLoads<T> l{};
  l.diag = inside ? a.diag[c] : T(0);
  l.tz = inside ? a.tz[c] : T(0);
  l.tx = inside ? a.tx[c] : T(0);
  l.ty = inside ? a.ty[c] : T(0);
  if (threadIdx.x == 0 && inside && i > 0) {
    l.x_left = a.x[c - 1];
    l.tx_left = a.tx[c - 1];
  }
  if (threadIdx.x == kTileX - 1 && inside && i + 1 < g.nx) l.x_right = a.x[c + 1];
  if (threadIdx.y == 0 && inside && j > 0) {
    l.x_below = a.x[c - sy];
    l.ty_below = a.ty[c - sy];
  }
  if (threadIdx.y == kTileY - 1 && inside && j + 1 < g.ny) l.x_above = a.x[c + sy];
  return l;
}

/// A block owns a 32 x 8 tile of (i, j) columns and a chunk of z layers. Per
/// layer it stages x, tx and ty of the tile (with halos) in shared memory and
/// keeps x and tz of the layers below and above in registers. Two things hide
/// memory latency: the next layer's loads are issued before this layer is
/// computed (software pipelining), and the tile is double-buffered, so one
/// barrier per layer suffices (a thread can only overwrite a buffer after
/// every thread has passed the next barrier, i.e. finished reading it).
/// Rows are read whole by one warp, so they do not conflict; the +2 padding
/// keeps the halo columns off the rows' banks. Missing neighbours (domain
/// edges) are the cell's own x with coupling 0, as on the CPU.
template <class T, bool kCoupled>
__global__ void __launch_bounds__(kTileX* kTileY) apply_tiled_kernel(Layout<T> g, ApplyArgs<T> a, int z_chunk) {
  __shared__ T xs[2][kTileY + 2][kTileX + 2];
  __shared__ T txs[2][kTileY][kTileX + 1];
  __shared__ T tys[2][kTileY + 1][kTileX];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * kTileX + tx, j = blockIdx.y * kTileY + ty;
  const int k_begin = blockIdx.z * z_chunk, k_end = min(k_begin + z_chunk, g.nz);
  const bool inside = i < g.nx && j < g.ny;
  const long long sz = static_cast<long long>(g.nx) * g.ny;
  long long c = inside ? i + static_cast<long long>(g.nx) * j + sz * k_begin : 0;

  LayerLoads<T> cur = load_layer(g, a, c, i, j, inside);
  T x_c = inside ? a.x[c] : T(0);
  T x_down = inside && k_begin > 0 ? a.x[c - sz] : x_c;
  T tz_down = inside && k_begin > 0 ? a.tz[c - sz] : T(0);
  T x_up = inside && k_begin + 1 < g.nz ? a.x[c + sz] : x_c;
  for (int k = k_begin; k < k_end; ++k) {
    LayerLoads<T> next{};
    T x_up_next = x_up;
    if (k + 1 < k_end) {
      next = load_layer(g, a, c + sz, i, j, inside);
      if (inside && k + 2 < g.nz) x_up_next = a.x[c + 2 * sz];
    }
    const int b = (k - k_begin) & 1;
    xs[b][ty + 1][tx + 1] = x_c;
    txs[b][ty][tx + 1] = cur.tx;
    tys[b][ty + 1][tx] = cur.ty;
    if (tx == 0) {
      xs[b][ty + 1][0] = cur.x_left;
      txs[b][ty][0] = cur.tx_left;
    }
    if (tx == kTileX - 1) xs[b][ty + 1][kTileX + 1] = cur.x_right;
    if (ty == 0) {
      xs[b][0][tx + 1] = cur.x_below;
      tys[b][0][tx] = cur.ty_below;
    }
    if (ty == kTileY - 1) xs[b][kTileY + 1][tx + 1] = cur.x_above;
    __syncthreads();
    if (inside) {
      const T x_xp = i + 1 < g.nx ? xs[b][ty + 1][tx + 2] : x_c, x_xm = i > 0 ? xs[b][ty + 1][tx] : x_c;
      const T x_yp = j + 1 < g.ny ? xs[b][ty + 2][tx + 1] : x_c, x_ym = j > 0 ? xs[b][ty][tx + 1] : x_c;
      T y = stencil::apply_point(cur.diag, x_c, txs[b][ty][tx + 1], x_xp, txs[b][ty][tx], x_xm, tys[b][ty + 1][tx],
                                 x_yp, tys[b][ty][tx], x_ym, cur.tz, x_up, tz_down, x_down);
      if constexpr (kCoupled) y = fp::fma(a.coupling[c], a.other[c], y);
      a.y[c] = y;
    }
    x_down = x_c;
    x_c = x_up;
    x_up = x_up_next;
    tz_down = cur.tz;
    cur = next;
    c += sz;
  }
}

/// Layers per block: enough blocks for about two full waves of 256-thread blocks.
template <class T>
int z_chunk_for(const CudaExecutor& exec, const Layout<T>& g) {
  const long long tiles = static_cast<long long>((g.nx + kTileX - 1) / kTileX) * ((g.ny + kTileY - 1) / kTileY);
  const long long wanted = 2LL * exec.info().multiprocessors * (exec.info().max_threads_per_multiprocessor / 256);
  const long long chunks = std::max(1LL, std::min<long long>(g.nz, (wanted + tiles - 1) / tiles));
  return static_cast<int>((g.nz + chunks - 1) / chunks);
}

}  // namespace

template <class T>
long long first_invalid_cell(const CudaExecutor& exec, const T* k, const T* d, std::size_t n) {
  if (n == 0) return -1;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  auto* first = static_cast<unsigned long long*>(exec.scratch(sizeof(unsigned long long)));
  VOLTAIC_CUDA_CHECK(cudaMemsetAsync(first, 0xff, sizeof(unsigned long long), s));
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 4096));
  first_invalid_kernel<<<blocks, 256, 0, s>>>(k, d, n, first);
  VOLTAIC_LAUNCH_CHECK(s, first_invalid_kernel);
  unsigned long long host = 0;
  exec.copy(&host, MemorySpace::host(), first, exec.memory_space(), sizeof(host));
  return host == ULLONG_MAX ? -1 : static_cast<long long>(host);
}

template <class T>
void stencil_coefficients(const CudaExecutor& exec, const Layout<T>& g, const T* k, const T* d,
                          stencil::Coefficients<T> out, T* boundary_rhs) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  coefficients_kernel<<<cell_grid(g), dim3(kTileX, kTileY), 0, s>>>(g, k, d, out, boundary_rhs);
  VOLTAIC_LAUNCH_CHECK(s, coefficients_kernel);
}

template <class T>
void stencil_diagonal(const CudaExecutor& exec, const Layout<T>& g, const T* faces, const T* d, T* diag) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  diagonal_kernel<<<cell_grid(g), dim3(kTileX, kTileY), 0, s>>>(g, faces, d, diag);
  VOLTAIC_LAUNCH_CHECK(s, diagonal_kernel);
}

template <class T>
void stencil_apply(const CudaExecutor& exec, const Layout<T>& g, const ApplyArgs<T>& a) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  const int chunk = z_chunk_for(exec, g);
  const dim3 grid((g.nx + kTileX - 1) / kTileX, (g.ny + kTileY - 1) / kTileY, (g.nz + chunk - 1) / chunk);
  if (a.coupling) {
    apply_tiled_kernel<T, true><<<grid, dim3(kTileX, kTileY), 0, s>>>(g, a, chunk);
  } else {
    apply_tiled_kernel<T, false><<<grid, dim3(kTileX, kTileY), 0, s>>>(g, a, chunk);
  }
  VOLTAIC_LAUNCH_CHECK(s, apply_tiled_kernel);
}

template <class T>
void stencil_apply_untiled(const CudaExecutor& exec, const Layout<T>& g, const ApplyArgs<T>& a) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  apply_untiled_kernel<T><<<cell_grid(g), dim3(kTileX, kTileY), 0, s>>>(g, a);
  VOLTAIC_LAUNCH_CHECK(s, apply_untiled_kernel);
}

template <class T>
void stencil_apply_frame(const CudaExecutor& exec, const Layout<T>& g, const ApplyArgs<T>& a,
                         stencil::ColumnFrame frame) {
  const long long columns = frame.columns(g.nx, g.ny);
  if (columns == 0) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  constexpr int kThreads = 256;
  const dim3 grid(static_cast<unsigned>((columns + kThreads - 1) / kThreads), static_cast<unsigned>(g.nz));
  apply_frame_kernel<T><<<grid, kThreads, 0, s>>>(g, a, frame, columns);
  VOLTAIC_LAUNCH_CHECK(s, apply_frame_kernel);
}

#define VOLTAIC_INSTANTIATE(T)                                                                        \
  template long long first_invalid_cell<T>(const CudaExecutor&, const T*, const T*, std::size_t);     \
  template void stencil_coefficients<T>(const CudaExecutor&, const Layout<T>&, const T*, const T*,    \
                                        stencil::Coefficients<T>, T*);                                \
  template void stencil_diagonal<T>(const CudaExecutor&, const Layout<T>&, const T*, const T*, T*);   \
  template void stencil_apply<T>(const CudaExecutor&, const Layout<T>&, const ApplyArgs<T>&);         \
  template void stencil_apply_untiled<T>(const CudaExecutor&, const Layout<T>&, const ApplyArgs<T>&); \
  template void stencil_apply_frame<T>(const CudaExecutor&, const Layout<T>&, const ApplyArgs<T>&,    \
                                       stencil::ColumnFrame);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cuda
