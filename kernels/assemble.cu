// CUDA construction of the sparse formats: the stencil assembled into CSR
// (row lengths, exclusive scan, fill). The rows are built by the same code as
// on the CPU (stencil_rows.hpp), so both backends produce identical arrays.
// This runs once per matrix, not per solver iteration, so it may allocate
// temporaries.
#include <cub/device/device_scan.cuh>

#include "core/cuda_check.hpp"
#include "linalg/sparse_kernels.hpp"
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
  VOLTAIC_CUDA_CHECK(cudaStreamSynchronize(s));  // before `temp` is freed
}

#define VOLTAIC_INSTANTIATE(T)                                                                            \
  template void assemble_stencil<T>(const CudaExecutor&, const sparse::StencilRows<T>*, int, std::size_t, \
                                    std::int32_t*, std::int32_t*, T*);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cuda
