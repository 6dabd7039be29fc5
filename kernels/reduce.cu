// CUDA reductions in the canonical order of reduction_order.hpp: bitwise the
// CPU backend's result for every block and grid size, with no atomics.
//
// Memory traffic: pass 1 reads each input once (8n bytes per FP64 input) and
// writes one partial per segment of 4096 elements (FP64); the later passes
// read those partials (under 0.1% of pass 1). Block size only decides how many
// virtual lanes a thread runs; grid size only decides which block takes which
// segment.
#include <cstring>

#include "core/cuda_check.hpp"
#include "linalg/blas1_kernels.hpp"
#include "vector_access.cuh"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/reduction_order.hpp"
#include "voltaic/linalg/reduction_policies.hpp"

namespace voltaic::cuda {

namespace {

using reduction::kGroupLanes;
using reduction::kGroups;
using reduction::kLanes;
using reduction::kSteps;

/// Shuffle of any trivially copyable accumulator, one 32-bit word at a time.
template <class Acc>
__device__ __forceinline__ Acc shfl_down(const Acc& v, int h) {
  static_assert(sizeof(Acc) % sizeof(int) == 0, "accumulators are whole 32-bit words");
  constexpr int kWords = sizeof(Acc) / sizeof(int);
  int w[kWords];
  memcpy(w, &v, sizeof(Acc));
#pragma unroll
  for (int i = 0; i < kWords; ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], h);
  Acc r;
  memcpy(&r, w, sizeof(Acc));
  return r;
}

/// The canonical tree over the kLanes virtual lanes of one segment. Thread t
/// holds lanes t + r * kBlock. Returns the segment's result in thread 0.
template <class P, int kBlock>
__device__ typename P::Acc block_tree(typename P::Acc (&acc)[kLanes / kBlock], typename P::Acc* groups) {
  using Acc = typename P::Acc;
  const int lane = threadIdx.x % kGroupLanes;
#pragma unroll
  for (int r = 0; r < kLanes / kBlock; ++r) {
    Acc v = acc[r];
#pragma unroll
    for (int h = kGroupLanes / 2; h >= 1; h /= 2) P::combine(v, shfl_down(v, h));
    if (lane == 0) groups[(threadIdx.x + r * kBlock) / kGroupLanes] = v;
  }
  __syncthreads();
  Acc g = P::identity();
  if (threadIdx.x < kGroupLanes) {
    if (threadIdx.x < kGroups) g = groups[threadIdx.x];
#pragma unroll
    for (int h = kGroups / 2; h >= 1; h /= 2) P::combine(g, shfl_down(g, h));
  }
  __syncthreads();  // `groups` is reused by the next segment
  return g;
}

/// One segment of partials (from `begin`) reduced by the canonical tree.
/// `Load` reads one partial: plain, or past L1 for those other blocks wrote.
template <class P, int kBlock, class Load>
__device__ typename P::Acc partial_segment(const typename P::Acc* in, std::size_t count, std::size_t begin,
                                           typename P::Acc* groups, Load load) {
  using Acc = typename P::Acc;
  constexpr int R = kLanes / kBlock;
  Acc acc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = P::identity();
  for (int s = 0; s < kSteps; ++s) {
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const std::size_t e = begin + std::size_t(s) * kLanes + threadIdx.x + r * kBlock;
      if (e < count) P::combine(acc[r], load(in + e));
    }
  }
  return block_tree<P, kBlock>(acc, groups);
}

/// A partial another block wrote in this kernel: read from L2, word by word.
template <class Acc>
__device__ __forceinline__ Acc load_coherent(const Acc* p) {
  constexpr int kWords = sizeof(Acc) / sizeof(unsigned);
  const auto* w = reinterpret_cast<const unsigned*>(p);
  unsigned v[kWords];
#pragma unroll
  for (int i = 0; i < kWords; ++i) v[i] = __ldcg(w + i);
  Acc a;
  memcpy(&a, v, sizeof(Acc));
  return a;
}

/// Pass 1: one partial per segment of the inputs. A batch (gridDim.y > 1)
/// reduces x + b x_stride against y into partials + b partial_stride. With
/// `counters` (one a batch entry, zero on entry and left zero), the block
/// that finishes last reduces the partials, all in one segment, into
/// result[b]: the same tree as reduce_partials_kernel, one launch fewer.
template <class P, class T, int kBlock>
__global__ void __launch_bounds__(kBlock)
    reduce_values_kernel(const T* __restrict__ x, const T* __restrict__ y, std::size_t n, std::size_t segments,
                         bool vector_ok, typename P::Acc* __restrict__ partials, std::size_t x_stride,
                         std::size_t partial_stride, unsigned* counters, T* result, const int* last_row) {
  if (last_row) {  // rows 0 .. *last_row of x, then y itself; the batch's later rows idle
    const unsigned last = static_cast<unsigned>(*last_row);
    if (blockIdx.y > last + 1) return;
    x = blockIdx.y > last ? y : x + blockIdx.y * x_stride;
  } else {
    x += blockIdx.y * x_stride;
  }
  partials += blockIdx.y * partial_stride;
  using Acc = typename P::Acc;
  constexpr int R = kLanes / kBlock;
  constexpr int V = reduction::kVec<T>;
  constexpr std::size_t kSegment = reduction::kSegment<T>;
  // Steps whose loads are issued before their sums: up to 16 loads in flight a thread.
  constexpr int kLoads = 16 / (R * P::arity) > 0 ? 16 / (R * P::arity) : 1;
  constexpr int kChunk = kLoads < kSteps ? kLoads : kSteps;
  static_assert(kSteps % kChunk == 0, "chunks tile the steps");
  __shared__ alignas(Acc) unsigned char group_storage[sizeof(Acc) * kGroups];
  __shared__ bool last;
  Acc* groups = reinterpret_cast<Acc*>(group_storage);

  for (std::size_t seg = blockIdx.x; seg < segments; seg += gridDim.x) {
    Acc acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = P::identity();
    const std::size_t begin = seg * kSegment;
    if (vector_ok && begin + kSegment <= n) {
      // Whole segment, aligned: 16-byte loads, a chunk of steps at a time,
      // each lane's sums in the canonical order.
      const std::size_t first_pack = begin / V;
      for (int s0 = 0; s0 < kSteps; s0 += kChunk) {
        Pack<T, V> a[kChunk][R], b[P::arity == 2 ? kChunk : 1][R];
#pragma unroll
        for (int c = 0; c < kChunk; ++c) {
#pragma unroll
          for (int r = 0; r < R; ++r) {
            const std::size_t p = first_pack + std::size_t(s0 + c) * kLanes + threadIdx.x + r * kBlock;
            a[c][r] = load_pack<V>(x, p);
            if constexpr (P::arity == 2) b[c][r] = load_pack<V>(y, p);
          }
        }
#pragma unroll
        for (int c = 0; c < kChunk; ++c) {
#pragma unroll
          for (int r = 0; r < R; ++r) {
#pragma unroll
            for (int v = 0; v < V; ++v) {
              if constexpr (P::arity == 2) {
                P::add(acc[r], a[c][r].v[v], b[c][r].v[v]);
              } else {
                P::add(acc[r], a[c][r].v[v]);
              }
            }
          }
        }
      }
    } else {
      for (int s = 0; s < kSteps; ++s) {
        for (int r = 0; r < R; ++r) {
          for (int v = 0; v < V; ++v) {
            const std::size_t e = begin + (std::size_t(s) * kLanes + threadIdx.x + r * kBlock) * V + v;
            if (e >= n) continue;
            if constexpr (P::arity == 2) {
              P::add(acc[r], x[e], y[e]);
            } else {
              P::add(acc[r], x[e]);
            }
          }
        }
      }
    }
    const Acc total = block_tree<P, kBlock>(acc, groups);
    if (threadIdx.x == 0) partials[seg] = total;
  }
  if (!counters) return;
  if (threadIdx.x == 0) {
    __threadfence();  // this block's partials before its count
    last = atomicAdd(counters + blockIdx.y, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  const Acc total =
      partial_segment<P, kBlock>(partials, segments, 0, groups, [](const Acc* p) { return load_coherent(p); });
  if (threadIdx.x == 0) {
    result[blockIdx.y] = P::finish(total);
    counters[blockIdx.y] = 0;
  }
}

/// Later passes: one partial per segment of partials; the last pass (segments
/// == 1) writes the finished result instead. A batch (gridDim.y > 1) works
/// on in and out + b partial_stride, into result[b].
template <class P, class T, int kBlock>
__global__ void __launch_bounds__(kBlock)
    reduce_partials_kernel(const typename P::Acc* __restrict__ in, std::size_t count, std::size_t segments,
                           typename P::Acc* __restrict__ out, T* __restrict__ result, std::size_t partial_stride,
                           const int* last_row) {
  if (last_row && blockIdx.y > static_cast<unsigned>(*last_row) + 1) return;
  in += blockIdx.y * partial_stride;
  out += blockIdx.y * partial_stride;
  result += blockIdx.y;
  using Acc = typename P::Acc;
  __shared__ alignas(Acc) unsigned char group_storage[sizeof(Acc) * kGroups];
  Acc* groups = reinterpret_cast<Acc*>(group_storage);

  for (std::size_t seg = blockIdx.x; seg < segments; seg += gridDim.x) {
    const Acc total = partial_segment<P, kBlock>(in, count, seg * reduction::kPartialSegment, groups,
                                                 [](const Acc* p) { return *p; });
    if (threadIdx.x == 0) {
      if (segments == 1) {
        *result = P::finish(total);
      } else {
        out[seg] = total;
      }
    }
  }
}

/// Bytes of scratch the partials of every pass need, and the first pass's count.
template <class P, class T>
std::size_t partial_bytes(std::size_t n) {
  std::size_t count = reduction::num_segments(n, reduction::kSegment<T>), total = 0;
  while (true) {
    total += count;
    if (count == 1) break;
    count = reduction::num_segments(count, reduction::kPartialSegment);
  }
  return total * sizeof(typename P::Acc);
}

/// Blocks for `segments` segments: as many as fit on the device at once, then
/// evened out so that every block takes the same number of segments (+-1).
template <class Kernel>
unsigned balanced_grid(const CudaExecutor& exec, Kernel kernel, int block, std::size_t segments) {
  int per_sm = 0;
  VOLTAIC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
  const std::size_t resident = static_cast<std::size_t>(per_sm > 0 ? per_sm : 1) * exec.info().multiprocessors;
  const std::size_t waves = (segments + resident - 1) / resident;
  return static_cast<unsigned>((segments + waves - 1) / waves);
}

/// The passes of `batch` reductions: x + b x_stride against y into result[b],
/// each with its own partials (partial_count of them apart). With the
/// default grid, and partials that fill one segment, pass 1 finishes the
/// reduction itself (its last block); an explicit grid keeps the separate
/// passes, so that tests compare the two.
template <class P, class T, int kBlock>
void run_passes(const CudaExecutor& exec, const T* x, const T* y, std::size_t n, T* result, unsigned grid,
                typename P::Acc* partials, int batch = 1, std::size_t x_stride = 0, std::size_t partial_count = 0,
                const int* last_row = nullptr) {
  cudaStream_t s = exec.stream(0);
  const std::size_t segments = reduction::num_segments(n, reduction::kSegment<T>);
  auto* values_kernel = reduce_values_kernel<P, T, kBlock>;
  const unsigned g1 = grid > 0 ? grid : balanced_grid(exec, values_kernel, kBlock, segments);
  const bool vector_ok = aligned_to(16, x, y) && (x_stride * sizeof(T)) % 16 == 0;
  const unsigned b = static_cast<unsigned>(batch);
  const bool fused =
      grid == 0 && segments <= reduction::kPartialSegment && static_cast<std::size_t>(batch) <= CudaExecutor::kCounters;
  values_kernel<<<dim3(g1, b), kBlock, 0, s>>>(x, y, n, segments, vector_ok, partials, x_stride, partial_count,
                                               fused ? exec.counters() : nullptr, result, last_row);
  VOLTAIC_LAUNCH_CHECK(s, reduce_values_kernel);
  if (fused) return;

  std::size_t count = segments;
  typename P::Acc* in = partials;
  do {
    const std::size_t next = reduction::num_segments(count, reduction::kPartialSegment);
    const std::size_t g = grid > 0 ? grid : next;
    reduce_partials_kernel<P, T, kBlock><<<dim3(static_cast<unsigned>(g), b), kBlock, 0, s>>>(
        in, count, next, in + count, result, partial_count, last_row);
    VOLTAIC_LAUNCH_CHECK(s, reduce_partials_kernel);
    in += count;
    count = next;
  } while (count > 1);
}

void check_launch(const LaunchConfig& launch, const char* op) {
  const int b = launch.block_size;
  if (b != 0 && b != 32 && b != 64 && b != 128 && b != 256) {
    throw InvalidArgument("launch.block_size", op,
                          "block_size = " + std::to_string(b) + " must be 0 (default), 32, 64, 128 or 256");
  }
  if (launch.grid_size < 0) {
    throw InvalidArgument("launch.grid_size", op,
                          "grid_size = " + std::to_string(launch.grid_size) + " must be 0 (default) or positive");
  }
}

template <class P, class T>
void reduce_with(const CudaExecutor& exec, const T* x, const T* y, std::size_t n, T* result, LaunchConfig launch,
                 void* scratch) {
  auto* partials = static_cast<typename P::Acc*>(scratch);
  const unsigned grid = static_cast<unsigned>(launch.grid_size);
  exec.activate();
  switch (launch.block_size) {
    case 32: return run_passes<P, T, 32>(exec, x, y, n, result, grid, partials);
    case 64: return run_passes<P, T, 64>(exec, x, y, n, result, grid, partials);
    case 128: return run_passes<P, T, 128>(exec, x, y, n, result, grid, partials);
    default: return run_passes<P, T, 256>(exec, x, y, n, result, grid, partials);
  }
}

template <Reduction R, class T>
struct PolicyFor;
template <class T>
struct PolicyFor<Reduction::dot, T> {
  using type = reduction::DotPolicy<T>;
};
template <class T>
struct PolicyFor<Reduction::nrm2, T> {
  using type = reduction::Nrm2Policy<T>;
};
template <class T>
struct PolicyFor<Reduction::max_abs, T> {
  using type = reduction::MaxAbsPolicy<T>;
};

// The host-returning variant keeps its device result in the first bytes of scratch.
constexpr std::size_t kResultSlot = 256;

}  // namespace

template <Reduction R, class T>
void reduce(const CudaExecutor& exec, const T* x, const T* y, std::size_t n, T* result, LaunchConfig launch) {
  using P = typename PolicyFor<R, T>::type;
  check_launch(launch, "voltaic::cuda::reduce");
  char* scratch = static_cast<char*>(exec.scratch(kResultSlot + partial_bytes<P, T>(n)));
  reduce_with<P>(exec, x, y, n, result, launch, scratch + kResultSlot);
}

template <class T>
void block_dot(const CudaExecutor& exec, const T* ys, std::size_t stride, int count, const T* x, std::size_t n,
               T* result) {
  using P = reduction::DotPolicy<T>;
  if (count == 0) return;
  const std::size_t per = partial_bytes<P, T>(n);
  auto* partials = static_cast<typename P::Acc*>(exec.scratch(per * static_cast<std::size_t>(count)));
  exec.activate();
  run_passes<P, T, 256>(exec, ys, x, n, result, 0, partials, count, stride, per / sizeof(typename P::Acc));
}

template <class T>
std::size_t block_dot_scratch(std::size_t n, int rows) {
  return partial_bytes<reduction::DotPolicy<T>, T>(n) * static_cast<std::size_t>(rows);
}

template <class T>
void block_dot_counted(const CudaExecutor& exec, const T* ys, std::size_t stride, int max_last, const int* last,
                       const T* x, std::size_t n, T* result) {
  using P = reduction::DotPolicy<T>;
  const std::size_t per = partial_bytes<P, T>(n);
  auto* partials = static_cast<typename P::Acc*>(exec.scratch(block_dot_scratch<T>(n, max_last + 2)));
  exec.activate();
  run_passes<P, T, 256>(exec, ys, x, n, result, 0, partials, max_last + 2, stride, per / sizeof(typename P::Acc), last);
}

template <Reduction R, class T>
T reduce_to_host(const CudaExecutor& exec, const T* x, const T* y, std::size_t n, LaunchConfig launch) {
  using P = typename PolicyFor<R, T>::type;
  check_launch(launch, "voltaic::cuda::reduce_to_host");
  char* scratch = static_cast<char*>(exec.scratch(kResultSlot + partial_bytes<P, T>(n)));
  T* device_result = reinterpret_cast<T*>(scratch);
  reduce_with<P>(exec, x, y, n, device_result, launch, scratch + kResultSlot);
  T* host_result = static_cast<T*>(exec.host_scratch(sizeof(T)));
  cudaStream_t s = exec.stream(0);
  VOLTAIC_CUDA_CHECK(cudaMemcpyAsync(host_result, device_result, sizeof(T), cudaMemcpyDeviceToHost, s));
  VOLTAIC_STREAM_WAIT(s);
  return *host_result;
}

#define VOLTAIC_INSTANTIATE(R, T)                                                                     \
  template void reduce<R, T>(const CudaExecutor&, const T*, const T*, std::size_t, T*, LaunchConfig); \
  template T reduce_to_host<R, T>(const CudaExecutor&, const T*, const T*, std::size_t, LaunchConfig);
VOLTAIC_INSTANTIATE(Reduction::dot, float)
VOLTAIC_INSTANTIATE(Reduction::dot, double)
VOLTAIC_INSTANTIATE(Reduction::nrm2, float)
VOLTAIC_INSTANTIATE(Reduction::nrm2, double)
VOLTAIC_INSTANTIATE(Reduction::max_abs, float)
VOLTAIC_INSTANTIATE(Reduction::max_abs, double)
#undef VOLTAIC_INSTANTIATE
template void block_dot<float>(const CudaExecutor&, const float*, std::size_t, int, const float*, std::size_t, float*);
template std::size_t block_dot_scratch<float>(std::size_t, int);
template std::size_t block_dot_scratch<double>(std::size_t, int);
template void block_dot_counted<float>(const CudaExecutor&, const float*, std::size_t, int, const int*, const float*,
                                       std::size_t, float*);
template void block_dot_counted<double>(const CudaExecutor&, const double*, std::size_t, int, const int*, const double*,
                                        std::size_t, double*);
template void block_dot<double>(const CudaExecutor&, const double*, std::size_t, int, const double*, std::size_t,
                                double*);

}  // namespace voltaic::cuda
