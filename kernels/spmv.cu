// CUDA sparse products y = A x: one thread per row for both formats (the rows
// of a 7-point stencil hold at most 7 entries, too few to share among a warp);
// FP64 CSR stages each block's entries in shared memory first. Each thread runs the CPU loop's row
// code (sparse_rows.hpp), so the results agree with the CPU bit for bit.
// Nothing is allocated: apply() sits inside every Krylov iteration.
#include "core/cuda_check.hpp"
#include "linalg/sparse_kernels.hpp"
#include "linalg/sparse_rows.hpp"
#include "vector_access.cuh"

namespace voltaic::cuda {

namespace {

constexpr int kBlock = 256;

// Memory per call, R rows, Z non-zeros, S = sizeof(T): reads row_ptr 4 (R + 1) B,
// col 4 Z B and values S Z B, gathers x (at least S R B; a stencil's neighbours
// are mostly L1/L2 hits, so about S R from DRAM), writes y S R B. A thread's
// entries are contiguous, so a warp's loads of one step are strided by the row
// length; the lines they touch are reused by the next steps through L1, so
// DRAM still sees each byte about once. FP64 7-point stencil: about 104 B/row.
template <class T>
__global__ void __launch_bounds__(kBlock)
    csr_spmv_kernel(std::size_t rows, const std::int32_t* __restrict__ row_ptr, const std::int32_t* __restrict__ col,
                    const T* __restrict__ values, const T* __restrict__ x, T* __restrict__ y) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t r = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; r < rows; r += stride) {
    y[r] = sparse::csr_row(row_ptr, col, values, x, r);
  }
}

/// Entries a block stages in shared memory (FP64: 36 KB with the columns):
/// 256 rows of up to 12 entries, 7-point stencils (7 per row) with room.
constexpr int kStagedEntries = 3072;

// The same rows, a block's entries first staged in shared memory by the whole
// block (coalesced: consecutive threads load consecutive entries) and then
// each thread summing its row from there in storage order, the bits of
// csr_row. A block whose rows hold more than kStagedEntries entries reads
// them as csr_spmv_kernel does. Same bytes as above, but every load of the
// matrix is coalesced.
template <class T>
__global__ void __launch_bounds__(kBlock)
    csr_spmv_staged_kernel(std::size_t rows, const std::int32_t* __restrict__ row_ptr,
                           const std::int32_t* __restrict__ col, const T* __restrict__ values, const T* __restrict__ x,
                           T* __restrict__ y) {
  __shared__ T staged_values[kStagedEntries];
  __shared__ std::int32_t staged_col[kStagedEntries];
  const std::size_t first = std::size_t(blockIdx.x) * kBlock;
  const std::size_t last = first + kBlock < rows ? first + kBlock : rows;
  const std::size_t r = first + threadIdx.x;
  const std::int32_t begin = __ldg(row_ptr + first), count = __ldg(row_ptr + last) - begin;
  if (count > kStagedEntries) {  // uniform over the block: no thread waits at a barrier alone
    if (r < rows) y[r] = sparse::csr_row(row_ptr, col, values, x, r);
    return;
  }
  for (int i = threadIdx.x; i < count; i += kBlock) {
    staged_values[i] = __ldg(values + begin + i);
    staged_col[i] = __ldg(col + begin + i);
  }
  __syncthreads();
  if (r >= rows) return;
  const std::int32_t end = __ldg(row_ptr + r + 1) - begin;
  T acc = T(0);
  for (std::int32_t e = __ldg(row_ptr + r) - begin; e < end; ++e)
    acc = fp::fma(staged_values[e], __ldg(x + staged_col[e]), acc);
  y[r] = acc;
}

// Memory per call, width W: reads col and values (4 + S) W R B, padding
// included, coalesced (slot e of neighbouring rows is adjacent); gathers x
// (about S R B from DRAM for a stencil), writes y S R B. No row_ptr. FP64
// 7-point stencil (W = 7): about 100 B/row.
template <class T>
__global__ void __launch_bounds__(kBlock)
    ell_spmv_kernel(std::size_t rows, int width, const std::int32_t* __restrict__ col, const T* __restrict__ values,
                    const T* __restrict__ x, T* __restrict__ y) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t r = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; r < rows; r += stride) {
    y[r] = sparse::ell_row(rows, width, col, values, x, r);
  }
}

/// The same product for a width known at compile time (stencils: 7): the loop
/// unrolls, so every slot's column and value loads, then every gather of x,
/// are in flight before the first fused multiply-add. Same order, same bits.
template <class T, int kWidth>
__global__ void __launch_bounds__(kBlock)
    ell_spmv_fixed_kernel(std::size_t rows, const std::int32_t* __restrict__ col, const T* __restrict__ values,
                          const T* __restrict__ x, T* __restrict__ y) {
  const std::size_t r = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  std::int32_t c[kWidth];
  T v[kWidth], xv[kWidth];
#pragma unroll
  for (int e = 0; e < kWidth; ++e) {
    c[e] = __ldg(col + std::size_t(e) * rows + r);
    v[e] = __ldg(values + std::size_t(e) * rows + r);
  }
#pragma unroll
  for (int e = 0; e < kWidth; ++e) xv[e] = __ldg(x + c[e]);
  T acc = T(0);
#pragma unroll
  for (int e = 0; e < kWidth; ++e) acc = fp::fma(v[e], xv[e], acc);
  y[r] = acc;
}

template <class T, int kWidth>
void launch_ell_fixed(cudaStream_t s, std::size_t rows, const std::int32_t* col, const T* values, const T* x, T* y) {
  const auto blocks = static_cast<unsigned>((rows + kBlock - 1) / kBlock);
  ell_spmv_fixed_kernel<T, kWidth><<<blocks, kBlock, 0, s>>>(rows, col, values, x, y);
  VOLTAIC_LAUNCH_CHECK(s, ell_spmv_fixed_kernel);
}

}  // namespace

template <class T>
void csr_spmv(const CudaExecutor& exec, std::size_t rows, const std::int32_t* row_ptr, const std::int32_t* col,
              const T* values, const T* x, T* y) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  if (rows == 0) return;
  // FP64 rows stage (0.90 -> 0.67 ms on an H100 at 256^3, cuSPARSE 0.77 ms);
  // FP32 rows do not: half the bytes per entry, the staged kernel's barrier
  // costs more than L1 saves (0.42 -> 0.62 ms). docs/performance.md.
  const auto blocks = (rows + kBlock - 1) / kBlock;
  if (sizeof(T) == 8 && blocks <= 0x7fffffffu) {
    csr_spmv_staged_kernel<T><<<unsigned(blocks), kBlock, 0, s>>>(rows, row_ptr, col, values, x, y);
    VOLTAIC_LAUNCH_CHECK(s, csr_spmv_staged_kernel);
    return;
  }
  csr_spmv_kernel<T><<<grid_for(exec, rows, kBlock), kBlock, 0, s>>>(rows, row_ptr, col, values, x, y);
  VOLTAIC_LAUNCH_CHECK(s, csr_spmv_kernel);
}

template <class T>
void ell_spmv(const CudaExecutor& exec, std::size_t rows, int width, const std::int32_t* col, const T* values,
              const T* x, T* y) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  switch (width) {
    case 5: return launch_ell_fixed<T, 5>(s, rows, col, values, x, y);  // 2D stencils
    case 7: return launch_ell_fixed<T, 7>(s, rows, col, values, x, y);  // 3D stencils
    case 8: return launch_ell_fixed<T, 8>(s, rows, col, values, x, y);  // 3D stencils with a field coupling
    default: break;
  }
  ell_spmv_kernel<T><<<grid_for(exec, rows, kBlock), kBlock, 0, s>>>(rows, width, col, values, x, y);
  VOLTAIC_LAUNCH_CHECK(s, ell_spmv_kernel);
}

#define VOLTAIC_INSTANTIATE(T)                                                                                    \
  template void csr_spmv<T>(const CudaExecutor&, std::size_t, const std::int32_t*, const std::int32_t*, const T*, \
                            const T*, T*);                                                                        \
  template void ell_spmv<T>(const CudaExecutor&, std::size_t, int, const std::int32_t*, const T*, const T*, T*);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cuda
