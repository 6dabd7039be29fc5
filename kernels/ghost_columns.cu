// CUDA kernels of the ghost-column work of a block of a cut plane. The tile
// partials take tile_partial()'s steps (core/plane_partition.hpp) with
// explicit rounding, so they have the CPU loops' bits.
#include <algorithm>
#include <cstring>
#include <cub/block/block_reduce.cuh>

#include "core/cuda_check.hpp"
#include "linalg/ghost_columns_kernels.hpp"
#include "vector_access.cuh"

namespace voltaic::cuda::ghost_columns {

namespace {

constexpr int kBlock = 256;

/// The block's shape as the kernels read it, with where each side's values
/// start in pack()'s order (offset[4]: one layer's total).
struct Shape {
  int bx, by, gx, gy, x0, y0;
  bool ghost[4];
  int offset[5];
  __host__ __device__ std::size_t index(int li, int lj, int k) const {
    return static_cast<std::size_t>(li + x0) +
           static_cast<std::size_t>(gx) * (static_cast<std::size_t>(lj + y0) + static_cast<std::size_t>(gy) * k);
  }
};

Shape shape_of(const GhostedBlock& b) {
  Shape s{b.bx, b.by, b.gx(), b.gy(), b.x0(), b.y0(), {b.ghost[0], b.ghost[1], b.ghost[2], b.ghost[3]}, {0}};
  for (int side = 0; side < 4; ++side) s.offset[side + 1] = s.offset[side] + (b.ghost[side] ? b.side_length(side) : 0);
  return s;
}

/// The cell of value m of the edges (pack()'s order, `layers` layers): the
/// owned column beside the side, or (ghost) the ghost column across it.
__device__ std::size_t edge_cell(const Shape& s, int layers, std::size_t m, bool ghost) {
  int side = 0;
  std::size_t before = 0;  // values of the sides before `side`, all layers
  for (; side < 3; ++side) {
    const std::size_t n = std::size_t(s.offset[side + 1] - s.offset[side]) * layers;
    if (m < before + n) break;
    before += n;
  }
  const int length = side < 2 ? s.by : s.bx;
  const std::size_t r = m - before;
  const int k = static_cast<int>(r / length), p = static_cast<int>(r % length);
  if (side < 2) return s.index(side == 0 ? (ghost ? -1 : 0) : (ghost ? s.bx : s.bx - 1), p, k);
  return s.index(p, side == 2 ? (ghost ? -1 : 0) : (ghost ? s.by : s.by - 1), k);
}

template <class T>
__global__ void pack_kernel(Shape s, int layers, std::size_t n, const T* field, T* edges) {
  for (std::size_t m = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; m < n;
       m += std::size_t(gridDim.x) * blockDim.x)
    edges[m] = field[edge_cell(s, layers, m, false)];
}

/// The edges into the ghosts; past them, 4 corners a layer.
template <class T>
__global__ void unpack_kernel(Shape s, int layers, std::size_t n, const T* edges, T* field) {
  const std::size_t all = n + 4 * std::size_t(layers);
  for (std::size_t m = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; m < all;
       m += std::size_t(gridDim.x) * blockDim.x) {
    if (m < n) {
      field[edge_cell(s, layers, m, true)] = edges[m];
      continue;
    }
    const int c = static_cast<int>((m - n) % 4), k = static_cast<int>((m - n) / 4);
    const int sx = c % 2, sy = 2 + c / 2;
    if (!s.ghost[sx] || !s.ghost[sy]) continue;
    const int li = sx == 0 ? -1 : s.bx, lj = sy == 2 ? -1 : s.by;
    field[s.index(li, lj, k)] = field[s.index(sx == 0 ? 0 : s.bx - 1, sy == 2 ? 0 : s.by - 1, k)];
  }
}

/// The ghosted block's rim, a layer at a time: the x sides' columns, then the y sides' rows.
template <class T>
__global__ void fill_kernel(Shape s, int layers, T* field, T value) {
  const std::size_t rim = 2 * std::size_t(s.gy) + 2 * std::size_t(s.gx), n = rim * layers;
  for (std::size_t m = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; m < n;
       m += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t k = m / rim;
    std::size_t r = m % rim;
    int i, j;
    if (r < 2 * std::size_t(s.gy)) {
      const int side = r < std::size_t(s.gy) ? 0 : 1;
      if (!s.ghost[side]) continue;
      i = side == 0 ? 0 : s.gx - 1;
      j = static_cast<int>(r % s.gy);
    } else {
      r -= 2 * std::size_t(s.gy);
      const int side = r < std::size_t(s.gx) ? 2 : 3;
      if (!s.ghost[side]) continue;
      i = static_cast<int>(r % s.gx);
      j = side == 2 ? 0 : s.gy - 1;
    }
    field[std::size_t(i) + std::size_t(s.gx) * (std::size_t(j) + std::size_t(s.gy) * k)] = value;
  }
}

__host__ __device__ int tree_slots(int columns) {
  int p = 1;
  while (p < columns) p *= 2;
  return p;
}

/// Tile (blockIdx.x, blockIdx.y), a thread a column: its layers in order,
/// then the slots halved (tile_partial()'s steps, rounded as on the CPU).
template <class T>
struct Rows {
  const T* x[::voltaic::ghost_columns::kRowsPerLaunch];
};

/// Row blockIdx.z's partials at partials + z stride.
template <class T>
__global__ void tile_partials_kernel(Shape s, int layers, int tile, Rows<T> rows, const T* y, double* partials,
                                     std::size_t stride, std::size_t first, std::size_t row) {
  extern __shared__ double slot[];
  const int a = blockIdx.x, b = blockIdx.y, t = threadIdx.x;
  const T* x = rows.x[blockIdx.z];
  const int w = min(tile, s.bx - a * tile), h = min(tile, s.by - b * tile), n = w * h, p = tree_slots(n);
  double acc = 0.0;
  if (t < n) {
    const int li = a * tile + t % w, lj = b * tile + t / w;
    for (int k = 0; k < layers; ++k) {
      const std::size_t c = s.index(li, lj, k);
      const double v = y ? __dmul_rn(static_cast<double>(x[c]), static_cast<double>(y[c])) : static_cast<double>(x[c]);
      acc = __dadd_rn(acc, v);
    }
  }
  slot[t] = acc;
  __syncthreads();
  for (int half = p / 2; half >= 1; half /= 2) {
    if (t < half) slot[t] = __dadd_rn(slot[t], slot[t + half]);
    __syncthreads();
  }
  if (t == 0) partials[blockIdx.z * stride + first + a + row * b] = slot[0];
}

/// Sum blockIdx.x of sum_of_partials()' tree (core/plane_partition.cpp:
/// [lo, hi) is [lo, mid) + [mid, hi), mid = lo + (hi - lo) / 2) over
/// 2^depth >= count slots. Node (d, j) of the tree lives in slot j 2^(depth -
/// d), the slot of its leftmost leaf; stop[k] is the depth of slot k's leaf.
/// Level by level from the leaves, each internal node adds its right child
/// to its left one: the CPU's additions, in parallel.
template <class T>
__global__ void sum_partials_kernel(const double* partials, std::size_t count, int depth, int roots, T* out) {
  extern __shared__ double node[];
  const int slots = 1 << depth;
  auto* stop = reinterpret_cast<unsigned char*>(node + slots);
  const double* x = partials + blockIdx.x * count;
  for (int k = threadIdx.x; k < slots; k += blockDim.x) {
    std::size_t lo = 0, hi = count;
    int d = 0;
    for (; d < depth && hi - lo > 1; ++d) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if ((k >> (depth - 1 - d)) & 1)
        lo = mid;
      else
        hi = mid;
    }
    const bool leftmost = (k & ((1 << (depth - d)) - 1)) == 0;  // slot k holds the leaf [lo, lo + 1)
    stop[k] = static_cast<unsigned char>(d);
    node[k] = leftmost ? x[lo] : 0.0;
  }
  __syncthreads();
  for (int d = depth - 1; d >= 0; --d) {
    const int step = 1 << (depth - d);
    for (int k = threadIdx.x * step; k < slots; k += blockDim.x * step)
      if (stop[k] > d) node[k] = __dadd_rn(node[k], node[k + step / 2]);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const double s = node[0];
    out[blockIdx.x] = static_cast<T>(static_cast<int>(blockIdx.x) < roots ? __dsqrt_rn(s) : s);
  }
}

/// The largest |x| as bits: non-negative doubles order as their bits, and a
/// NaN's bits lie above infinity's, so a NaN wins.
__global__ void max_abs_kernel(Shape s, int layers, const double* x, unsigned long long* result) {
  using Reduce = cub::BlockReduce<unsigned long long, kBlock>;
  __shared__ typename Reduce::TempStorage temp;
  const std::size_t n = std::size_t(s.bx) * s.by * layers;
  unsigned long long m = 0;
  for (std::size_t q = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; q < n;
       q += std::size_t(gridDim.x) * blockDim.x) {
    const int li = static_cast<int>(q % s.bx), lj = static_cast<int>((q / s.bx) % s.by),
              k = static_cast<int>(q / (std::size_t(s.bx) * s.by));
    const double v = fabs(x[s.index(li, lj, k)]);
    const unsigned long long bits =
        isnan(v) ? 0x7ff8000000000000ull : static_cast<unsigned long long>(__double_as_longlong(v));
    m = bits > m ? bits : m;
  }
  const unsigned long long block_max =
      Reduce(temp).Reduce(m, [](unsigned long long p, unsigned long long q) { return p > q ? p : q; });
  if (threadIdx.x == 0) atomicMax(result, block_max);
}

__global__ void slice_kernel(Shape s, int layers, int plane_nx, int plane_ny, int first_i, int first_j,
                             const double* whole, double* field) {
  const std::size_t layer = std::size_t(s.gx) * s.gy, n = layer * layers;
  const std::size_t plane = std::size_t(plane_nx) * plane_ny;
  for (std::size_t m = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; m < n;
       m += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t i = m % s.gx, j = (m / s.gx) % s.gy, k = m / layer;
    field[m] = whole[(first_i + i) + std::size_t(plane_nx) * (first_j + j) + plane * k];
  }
}

__global__ void owned_kernel(Shape s, int layers, const double* field, double* owned) {
  const std::size_t n = std::size_t(s.bx) * s.by * layers;
  for (std::size_t q = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; q < n;
       q += std::size_t(gridDim.x) * blockDim.x) {
    const int li = static_cast<int>(q % s.bx), lj = static_cast<int>((q / s.bx) % s.by);
    owned[q] = field[s.index(li, lj, static_cast<int>(q / (std::size_t(s.bx) * s.by)))];
  }
}

__global__ void place_kernel(int bx, int by, int layers, int plane_nx, int plane_ny, int i0, int j0,
                             const double* block, double* whole) {
  const std::size_t n = std::size_t(bx) * by * layers, plane = std::size_t(plane_nx) * plane_ny;
  for (std::size_t q = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; q < n;
       q += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t i = q % bx, j = (q / bx) % by, k = q / (std::size_t(bx) * by);
    whole[(i0 + i) + std::size_t(plane_nx) * (j0 + j) + plane * k] = block[q];
  }
}

}  // namespace

void owned(const CudaExecutor& exec, const GhostedBlock& b, int layers, const double* field, double* owned) {
  exec.activate();
  cudaStream_t st = exec.stream(0);
  const std::size_t n = std::size_t(b.bx) * b.by * layers;
  owned_kernel<<<grid_for(exec, n, kBlock), kBlock, 0, st>>>(shape_of(b), layers, field, owned);
  VOLTAIC_LAUNCH_CHECK(st, owned_kernel);
}

void place(const CudaExecutor& exec, int bx, int by, int layers, int plane_nx, int plane_ny, int i0, int j0,
           const double* block, double* whole) {
  exec.activate();
  cudaStream_t st = exec.stream(0);
  const std::size_t n = std::size_t(bx) * by * layers;
  place_kernel<<<grid_for(exec, n, kBlock), kBlock, 0, st>>>(bx, by, layers, plane_nx, plane_ny, i0, j0, block, whole);
  VOLTAIC_LAUNCH_CHECK(st, place_kernel);
}

template <class T>
void pack(const CudaExecutor& exec, const GhostedBlock& b, int layers, const T* field, T* edges, int stream) {
  const std::size_t n = b.edge_values(layers);
  if (n == 0) return;
  exec.activate();
  cudaStream_t st = exec.stream(stream);
  pack_kernel<<<grid_for(exec, n, kBlock), kBlock, 0, st>>>(shape_of(b), layers, n, field, edges);
  VOLTAIC_LAUNCH_CHECK(st, pack_kernel);
}

template <class T>
void unpack(const CudaExecutor& exec, const GhostedBlock& b, int layers, const T* edges, T* field, int stream) {
  const std::size_t n = b.edge_values(layers);
  exec.activate();
  cudaStream_t st = exec.stream(stream);
  unpack_kernel<<<grid_for(exec, n + 4 * std::size_t(layers), kBlock), kBlock, 0, st>>>(shape_of(b), layers, n, edges,
                                                                                        field);
  VOLTAIC_LAUNCH_CHECK(st, unpack_kernel);
}

template <class T>
void fill(const CudaExecutor& exec, const GhostedBlock& b, int layers, T* field, T value) {
  const std::size_t n = (2 * std::size_t(b.gx()) + 2 * std::size_t(b.gy())) * layers;
  exec.activate();
  cudaStream_t st = exec.stream(0);
  fill_kernel<<<grid_for(exec, n, kBlock), kBlock, 0, st>>>(shape_of(b), layers, field, value);
  VOLTAIC_LAUNCH_CHECK(st, fill_kernel);
}

template <class T>
void tile_partials(const CudaExecutor& exec, const GhostedBlock& b, int layers, int tile, const T* const* xs, int count,
                   const T* y, double* partials, std::size_t stride, TileSlots slots) {
  exec.activate();
  cudaStream_t st = exec.stream(0);
  const int threads = tree_slots(tile * tile);
  const unsigned tx = (b.bx + tile - 1) / tile, ty = (b.by + tile - 1) / tile;
  const std::size_t row = slots.row != 0 ? slots.row : tx;
  for (int first = 0; first < count; first += ::voltaic::ghost_columns::kRowsPerLaunch) {
    const int rows = std::min(::voltaic::ghost_columns::kRowsPerLaunch, count - first);
    Rows<T> r{};
    for (int i = 0; i < rows; ++i) r.x[i] = xs[first + i];
    tile_partials_kernel<<<dim3(tx, ty, rows), threads, threads * sizeof(double), st>>>(
        shape_of(b), layers, tile, r, y, partials + first * stride, stride, slots.first, row);
    VOLTAIC_LAUNCH_CHECK(st, tile_partials_kernel);
  }
}

template <class T>
void sum_partials(const CudaExecutor& exec, const double* partials, std::size_t count, int sums, int roots, T* out,
                  int stream) {
  exec.activate();
  cudaStream_t st = exec.stream(stream);
  int depth = 0;
  while ((std::size_t(1) << depth) < count) ++depth;
  const std::size_t bytes = (std::size_t(1) << depth) * (sizeof(double) + 1);
  // Up to kMostPartials (147 KB): above the default 48 KB the kernel must ask.
  if (bytes > 48 * 1024)
    VOLTAIC_CUDA_CHECK(cudaFuncSetAttribute(sum_partials_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
  const int threads = std::min(kBlock, std::max(32, 1 << depth));
  sum_partials_kernel<T><<<sums, threads, bytes, st>>>(partials, count, depth, roots, out);
  VOLTAIC_LAUNCH_CHECK(st, sum_partials_kernel);
}

double max_abs(const CudaExecutor& exec, const GhostedBlock& b, int layers, const double* x) {
  exec.activate();
  cudaStream_t st = exec.stream(0);
  auto* result = static_cast<unsigned long long*>(exec.scratch(sizeof(unsigned long long)));
  auto* host = static_cast<unsigned long long*>(exec.host_scratch(sizeof(unsigned long long)));
  VOLTAIC_CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(unsigned long long), st));
  const std::size_t n = std::size_t(b.bx) * b.by * layers;
  max_abs_kernel<<<grid_for(exec, n, kBlock), kBlock, 0, st>>>(shape_of(b), layers, x, result);
  VOLTAIC_LAUNCH_CHECK(st, max_abs_kernel);
  VOLTAIC_CUDA_CHECK(cudaMemcpyAsync(host, result, sizeof(unsigned long long), cudaMemcpyDeviceToHost, st));
  VOLTAIC_STREAM_WAIT(st);
  double m;
  std::memcpy(&m, host, sizeof m);
  return m;
}

void slice(const CudaExecutor& exec, const GhostedBlock& b, int layers, int plane_nx, int plane_ny, int first_i,
           int first_j, const double* whole, double* field) {
  exec.activate();
  cudaStream_t st = exec.stream(0);
  const std::size_t n = b.layer() * layers;
  slice_kernel<<<grid_for(exec, n, kBlock), kBlock, 0, st>>>(shape_of(b), layers, plane_nx, plane_ny, first_i, first_j,
                                                             whole, field);
  VOLTAIC_LAUNCH_CHECK(st, slice_kernel);
}

template void pack<double>(const CudaExecutor&, const GhostedBlock&, int, const double*, double*, int);
template void pack<float>(const CudaExecutor&, const GhostedBlock&, int, const float*, float*, int);
template void unpack<double>(const CudaExecutor&, const GhostedBlock&, int, const double*, double*, int);
template void unpack<float>(const CudaExecutor&, const GhostedBlock&, int, const float*, float*, int);
template void fill<double>(const CudaExecutor&, const GhostedBlock&, int, double*, double);
template void fill<float>(const CudaExecutor&, const GhostedBlock&, int, float*, float);
template void tile_partials<double>(const CudaExecutor&, const GhostedBlock&, int, int, const double* const*, int,
                                    const double*, double*, std::size_t, TileSlots);
template void tile_partials<float>(const CudaExecutor&, const GhostedBlock&, int, int, const float* const*, int,
                                   const float*, double*, std::size_t, TileSlots);
template void sum_partials<double>(const CudaExecutor&, const double*, std::size_t, int, int, double*, int);
template void sum_partials<float>(const CudaExecutor&, const double*, std::size_t, int, int, float*, int);

}  // namespace voltaic::cuda::ghost_columns
