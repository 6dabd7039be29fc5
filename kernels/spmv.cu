// CUDA sparse products y = A x: one thread per row for both formats (the rows
// of a 7-point stencil hold at most 7 entries, too few to share among a warp),
// grid-striding once the device is full. Each thread runs the CPU loop's row
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
