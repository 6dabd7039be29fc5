// CUDA kernels of the preconditioners: one thread per cell (Jacobi) or per
// (i, j) column (z-line), running the same column operations as the CPU loops
// (preconditioner_ops.hpp, block_zline_ops.hpp). Neighbouring threads own
// neighbouring columns, so every step of a sweep is one coalesced access per
// array. A factorisation reports the smallest rejected cell through one
// device word (atomicMin), read back once: the arrays never go to the host.
#include <cstdint>

#include "core/cuda_check.hpp"
#include "linalg/preconditioner_kernels.hpp"
#include "vector_access.cuh"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

namespace {

constexpr int kBlock = 128;
constexpr unsigned long long kNone = ~0ull;

__device__ __forceinline__ std::size_t thread_index() { return std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; }

__device__ __forceinline__ void report_bad(unsigned long long* first_bad, std::int64_t cell) {
  if (cell >= 0) atomicMin(first_bad, static_cast<unsigned long long>(cell));
}

template <class T>
__global__ void invert_diagonal_kernel(const T* __restrict__ d, T* __restrict__ inverse, std::size_t n,
                                       unsigned long long* first_bad) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = thread_index(); i < n; i += stride) {
    if (!precond::invert_diagonal(d[i], inverse[i])) report_bad(first_bad, static_cast<std::int64_t>(i));
  }
}

template <class T>
__global__ void zline_factor_kernel(const T* __restrict__ diag, const T* __restrict__ tz, T* __restrict__ lower,
                                    T* __restrict__ inverse_pivot, T* __restrict__ upper, std::size_t columns, int nz,
                                    unsigned long long* first_bad) {
  const std::size_t col = thread_index();
  if (col >= columns) return;
  report_bad(first_bad, precond::factor_column(diag, tz, lower, inverse_pivot, upper, col, columns, nz));
}

// z is written in the forward sweep and read back in the backward one, so it
// is not __restrict__-qualified against itself; r is only read.
template <class T>
__global__ void zline_solve_kernel(const T* __restrict__ lower, const T* __restrict__ inverse_pivot,
                                   const T* __restrict__ upper, const T* __restrict__ r, T* z, std::size_t columns,
                                   int nz) {
  const std::size_t col = thread_index();
  if (col >= columns) return;
  precond::solve_column(lower, inverse_pivot, upper, r, z, col, columns, nz);
}

template <class T>
__global__ void block_zline_factor_kernel(precond::BlockZLineInputs<T> in, T* __restrict__ factors, std::size_t columns,
                                          int nz, unsigned long long* first_bad) {
  const std::size_t col = thread_index();
  if (col >= columns) return;
  report_bad(first_bad, precond::factor_block_column(in, factors, col, columns, nz));
}

template <class T>
__global__ void block_zline_solve_kernel(const T* __restrict__ factors, const T* __restrict__ r, T* z,
                                         std::size_t columns, int nz) {
  const std::size_t col = thread_index();
  if (col >= columns) return;
  precond::solve_block_column(factors, r, z, col, columns, nz);
}

unsigned blocks_for(std::size_t items) { return static_cast<unsigned>((items + kBlock - 1) / kBlock); }

/// Runs `launch(flag, stream)` with a device word set to "none", then reads
/// the word back (one 8-byte copy, one wait): the smallest rejected cell or -1.
template <class Launch>
std::int64_t first_bad_cell(const CudaExecutor& exec, Launch launch) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  auto* flag = static_cast<unsigned long long*>(exec.scratch(sizeof(unsigned long long)));
  VOLTAIC_CUDA_CHECK(cudaMemsetAsync(flag, 0xff, sizeof(unsigned long long), s));
  launch(flag, s);
  auto* host = static_cast<unsigned long long*>(exec.host_scratch(sizeof(unsigned long long)));
  VOLTAIC_CUDA_CHECK(cudaMemcpyAsync(host, flag, sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
  VOLTAIC_STREAM_WAIT(s);
  return *host == kNone ? -1 : static_cast<std::int64_t>(*host);
}

}  // namespace

template <class T>
std::int64_t invert_diagonal(const CudaExecutor& exec, const T* d, T* inverse, std::size_t n) {
  if (n == 0) return -1;
  return first_bad_cell(exec, [&](unsigned long long* flag, cudaStream_t s) {
    invert_diagonal_kernel<T><<<grid_for(exec, n, kBlock), kBlock, 0, s>>>(d, inverse, n, flag);
    VOLTAIC_LAUNCH_CHECK(s, invert_diagonal_kernel);
  });
}

template <class T>
std::int64_t zline_factor(const CudaExecutor& exec, const T* diag, const T* tz, T* lower, T* inverse_pivot, T* upper,
                          std::size_t columns, int nz) {
  if (columns == 0 || nz == 0) return -1;
  return first_bad_cell(exec, [&](unsigned long long* flag, cudaStream_t s) {
    zline_factor_kernel<T>
        <<<blocks_for(columns), kBlock, 0, s>>>(diag, tz, lower, inverse_pivot, upper, columns, nz, flag);
    VOLTAIC_LAUNCH_CHECK(s, zline_factor_kernel);
  });
}

template <class T>
void zline_solve(const CudaExecutor& exec, const T* lower, const T* inverse_pivot, const T* upper, const T* r, T* z,
                 std::size_t columns, int nz) {
  if (columns == 0 || nz == 0) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  zline_solve_kernel<T><<<blocks_for(columns), kBlock, 0, s>>>(lower, inverse_pivot, upper, r, z, columns, nz);
  VOLTAIC_LAUNCH_CHECK(s, zline_solve_kernel);
}

template <class T>
std::int64_t block_zline_factor(const CudaExecutor& exec, const precond::BlockZLineInputs<T>& in, T* factors,
                                std::size_t columns, int nz) {
  if (columns == 0 || nz == 0) return -1;
  return first_bad_cell(exec, [&](unsigned long long* flag, cudaStream_t s) {
    block_zline_factor_kernel<T><<<blocks_for(columns), kBlock, 0, s>>>(in, factors, columns, nz, flag);
    VOLTAIC_LAUNCH_CHECK(s, block_zline_factor_kernel);
  });
}

template <class T>
void block_zline_solve(const CudaExecutor& exec, const T* factors, const T* r, T* z, std::size_t columns, int nz) {
  if (columns == 0 || nz == 0) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  block_zline_solve_kernel<T><<<blocks_for(columns), kBlock, 0, s>>>(factors, r, z, columns, nz);
  VOLTAIC_LAUNCH_CHECK(s, block_zline_solve_kernel);
}

#define VOLTAIC_INSTANTIATE(T)                                                                                     \
  template std::int64_t invert_diagonal<T>(const CudaExecutor&, const T*, T*, std::size_t);                        \
  template std::int64_t zline_factor<T>(const CudaExecutor&, const T*, const T*, T*, T*, T*, std::size_t, int);    \
  template void zline_solve<T>(const CudaExecutor&, const T*, const T*, const T*, const T*, T*, std::size_t, int); \
  template std::int64_t block_zline_factor<T>(const CudaExecutor&, const precond::BlockZLineInputs<T>&, T*,        \
                                              std::size_t, int);                                                   \
  template void block_zline_solve<T>(const CudaExecutor&, const T*, const T*, T*, std::size_t, int);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cuda
