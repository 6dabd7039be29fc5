// CUDA construction of the sparse formats: the stencil assembled into CSR
// (row lengths, exclusive scan, fill) and CSR converted to ELL (longest row,
// fill). The rows are built by the same code as on the CPU (stencil_rows.hpp,
// sparse_rows.hpp), so both backends produce identical arrays. These run once
// per matrix, not per solver iteration, so they may allocate temporaries.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "core/cuda_check.hpp"
#include "linalg/sparse_kernels.hpp"
#include "linalg/sparse_rows.hpp"
#include "vector_access.cuh"

namespace voltaic::cuda {

namespace {

constexpr int kBlock = 256;

/// Device memory for the temporaries of one call, freed after waiting for the
/// stream (the error path frees too: cudaFree waits for the device).
class DeviceTemp {
 public:
  DeviceTemp(const CudaExecutor& exec, std::size_t bytes) : exec_(exec), ptr_(exec.allocate(bytes)) {}
  ~DeviceTemp() { exec_.deallocate(ptr_); }
  DeviceTemp(const DeviceTemp&) = delete;
  DeviceTemp& operator=(const DeviceTemp&) = delete;
  char* get() const { return static_cast<char*>(ptr_); }

 private:
  const CudaExecutor& exec_;
  void* ptr_;
};

/// Offsets inside a temporary are rounded up to what cudaMalloc guarantees.
constexpr std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// Memory: writes 4 B per row; reads nothing (the structure is the grid's).
template <class T>
__global__ void __launch_bounds__(kBlock)
    stencil_lengths_kernel(sparse::StencilRows<T> block, std::int32_t* __restrict__ lengths) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t cells = block.cells();
  for (std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; c < cells; c += stride) {
    lengths[block.row0 + c] = block.length(c);
  }
}

// Memory: reads row_ptr 4 B and diag, tx, ty, tz 4 S B per row (the negative
// neighbours' couplings are L1/L2 hits), writes col and values (4 + S) B per
// non-zero: about 4 + 32 + 7 x 12 = 120 B per row in FP64.
template <class T>
__global__ void __launch_bounds__(kBlock)
    stencil_fill_kernel(sparse::StencilRows<T> block, const std::int32_t* __restrict__ row_ptr,
                        std::int32_t* __restrict__ col, T* __restrict__ values) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t cells = block.cells();
  for (std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; c < cells; c += stride) {
    const std::int32_t at = row_ptr[block.row0 + c];
    block.fill(c, col + at, values + at);
  }
}

// Memory: reads row_ptr 4 (R + 1) B, writes 4 R B (then CUB reads them again).
__global__ void __launch_bounds__(kBlock)
    row_lengths_kernel(std::size_t rows, const std::int32_t* __restrict__ row_ptr, std::int32_t* __restrict__ lengths) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t r = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; r < rows; r += stride) {
    lengths[r] = row_ptr[r + 1] - row_ptr[r];
  }
}

// Memory: reads row_ptr 4 (R + 1) B and the CSR entries (4 + S) Z B (each
// thread's run is contiguous), writes (4 + S) W R B, coalesced.
template <class T>
__global__ void __launch_bounds__(kBlock)
    csr_to_ell_kernel(std::size_t rows, int width, const std::int32_t* __restrict__ row_ptr,
                      const std::int32_t* __restrict__ csr_col, const T* __restrict__ csr_values,
                      std::int32_t* __restrict__ ell_col, T* __restrict__ ell_values) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t r = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; r < rows; r += stride) {
    sparse::csr_row_to_ell(rows, width, row_ptr, csr_col, csr_values, r, ell_col, ell_values);
  }
}

}  // namespace

template <class T>
void assemble_stencil(const CudaExecutor& exec, const sparse::StencilRows<T>* blocks, int count, std::size_t rows,
                      std::int32_t* row_ptr, std::int32_t* col, T* values) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  const std::size_t items = rows + 1;  // the last length is 0, so row_ptr[rows] = nnz
  std::size_t scan_bytes = 0;
  VOLTAIC_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<const std::int32_t*>(nullptr), row_ptr, items, s));
  const std::size_t lengths_bytes = aligned(items * sizeof(std::int32_t));
  DeviceTemp temp(exec, lengths_bytes + scan_bytes);
  auto* lengths = reinterpret_cast<std::int32_t*>(temp.get());

  for (int b = 0; b < count; ++b) {
    stencil_lengths_kernel<T><<<grid_for(exec, blocks[b].cells(), kBlock), kBlock, 0, s>>>(blocks[b], lengths);
    VOLTAIC_LAUNCH_CHECK(s, stencil_lengths_kernel);
  }
  VOLTAIC_CUDA_CHECK(cudaMemsetAsync(lengths + rows, 0, sizeof(std::int32_t), s));
  VOLTAIC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.get() + lengths_bytes, scan_bytes,
                                                   static_cast<const std::int32_t*>(lengths), row_ptr, items, s));
  for (int b = 0; b < count; ++b) {
    stencil_fill_kernel<T>
        <<<grid_for(exec, blocks[b].cells(), kBlock), kBlock, 0, s>>>(blocks[b], row_ptr, col, values);
    VOLTAIC_LAUNCH_CHECK(s, stencil_fill_kernel);
  }
  VOLTAIC_STREAM_WAIT(s);  // before `temp` is freed
}

int max_row_length(const CudaExecutor& exec, std::size_t rows, const std::int32_t* row_ptr) {
  if (rows == 0) return 0;  // CUB's maximum of nothing would be INT_MIN
  exec.activate();
  cudaStream_t s = exec.stream(0);
  std::size_t max_bytes = 0;
  VOLTAIC_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, max_bytes, static_cast<const std::int32_t*>(nullptr),
                                            static_cast<std::int32_t*>(nullptr), rows, s));
  const std::size_t lengths_bytes = aligned(rows * sizeof(std::int32_t));
  DeviceTemp temp(exec, lengths_bytes + aligned(sizeof(std::int32_t)) + max_bytes);
  auto* lengths = reinterpret_cast<std::int32_t*>(temp.get());
  auto* result = reinterpret_cast<std::int32_t*>(temp.get() + lengths_bytes);

  row_lengths_kernel<<<grid_for(exec, rows, kBlock), kBlock, 0, s>>>(rows, row_ptr, lengths);
  VOLTAIC_LAUNCH_CHECK(s, row_lengths_kernel);
  VOLTAIC_CUDA_CHECK(cub::DeviceReduce::Max(temp.get() + lengths_bytes + aligned(sizeof(std::int32_t)), max_bytes,
                                            static_cast<const std::int32_t*>(lengths), result, rows, s));
  std::int32_t* host = static_cast<std::int32_t*>(exec.host_scratch(sizeof(std::int32_t)));
  VOLTAIC_CUDA_CHECK(cudaMemcpyAsync(host, result, sizeof(std::int32_t), cudaMemcpyDeviceToHost, s));
  VOLTAIC_STREAM_WAIT(s);
  return *host;
}

template <class T>
void csr_to_ell(const CudaExecutor& exec, std::size_t rows, int width, const std::int32_t* row_ptr,
                const std::int32_t* csr_col, const T* csr_values, std::int32_t* ell_col, T* ell_values) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  csr_to_ell_kernel<T>
      <<<grid_for(exec, rows, kBlock), kBlock, 0, s>>>(rows, width, row_ptr, csr_col, csr_values, ell_col, ell_values);
  VOLTAIC_LAUNCH_CHECK(s, csr_to_ell_kernel);
}

#define VOLTAIC_INSTANTIATE(T)                                                                                 \
  template void assemble_stencil<T>(const CudaExecutor&, const sparse::StencilRows<T>*, int, std::size_t,      \
                                    std::int32_t*, std::int32_t*, T*);                                         \
  template void csr_to_ell<T>(const CudaExecutor&, std::size_t, int, const std::int32_t*, const std::int32_t*, \
                              const T*, std::int32_t*, T*);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cuda
