// cuSPARSE SpMV baselines: y = A x with the generic API, on the executor's
// stream 0, buffers allocated before timing.
#include <cusparse.h>

#include <algorithm>
#include <type_traits>

#include "core/cuda_check.hpp"
#include "cusparse_baselines.hpp"
#include "voltaic/core/array.hpp"

namespace voltaic_bench {

namespace {

template <class T>
constexpr cudaDataType kType = std::is_same_v<T, double> ? CUDA_R_64F : CUDA_R_32F;
constexpr std::int64_t kSlice = 32;

/// Handle, vector descriptors and work buffer around one matrix descriptor.
template <class T>
SpmvBaseline time_spmv(const std::shared_ptr<const voltaic::CudaExecutor>& exec, cusparseConstSpMatDescr_t a,
                       std::size_t rows, const T* x, T* y, const TimingOptions& opt, cusparseSpMVAlg_t alg,
                       std::size_t bytes) {
  cusparseHandle_t h = nullptr;
  VOLTAIC_CUDA_CHECK(cusparseCreate(&h));
  cusparseConstDnVecDescr_t vx = nullptr;
  cusparseDnVecDescr_t vy = nullptr;
  SpmvBaseline out;
  try {
    VOLTAIC_CUDA_CHECK(cusparseSetStream(h, exec->stream(0)));
    VOLTAIC_CUDA_CHECK(cusparseCreateConstDnVec(&vx, static_cast<std::int64_t>(rows), x, kType<T>));
    VOLTAIC_CUDA_CHECK(cusparseCreateDnVec(&vy, static_cast<std::int64_t>(rows), y, kType<T>));
    const T one = T(1), zero = T(0);
    std::size_t buffer_bytes = 0;
    VOLTAIC_CUDA_CHECK(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy, kType<T>,
                                               alg, &buffer_bytes));
    voltaic::Array<unsigned char> buffer(exec, std::max<std::size_t>(buffer_bytes, 1));
    out.timing = time_repeats(exec, opt, [&] {
      VOLTAIC_CUDA_CHECK(
          cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy, kType<T>, alg, buffer.data()));
    });
    out.bytes = bytes;
  } catch (...) {
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
    cusparseDestroy(h);
    throw;
  }
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroy(h);
  return out;
}

}  // namespace

template <class T>
SpmvBaseline time_cusparse_csr(const std::shared_ptr<const voltaic::CudaExecutor>& exec, std::size_t rows,
                               std::size_t nnz, const std::int32_t* row_ptr, const std::int32_t* col, const T* values,
                               const T* x, T* y, const TimingOptions& opt) {
  exec->activate();
  cusparseConstSpMatDescr_t a = nullptr;
  const auto n = static_cast<std::int64_t>(rows);
  VOLTAIC_CUDA_CHECK(cusparseCreateConstCsr(&a, n, n, static_cast<std::int64_t>(nnz), row_ptr, col, values,
                                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                            kType<T>));
  const std::size_t bytes = (rows + 1) * 4 + nnz * (4 + sizeof(T)) + 2 * rows * sizeof(T);
  try {
    const SpmvBaseline r = time_spmv(exec, a, rows, x, y, opt, CUSPARSE_SPMV_ALG_DEFAULT, bytes);
    cusparseDestroySpMat(a);
    return r;
  } catch (...) {
    cusparseDestroySpMat(a);
    throw;
  }
}

template <class T>
SpmvBaseline time_cusparse_sell(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const HostCsr<T>& csr,
                                const T* x, T* y, const TimingOptions& opt) {
  // Slices of 32 rows, each padded to its longest row, column-major inside the
  // slice; padding has column -1 (cuSPARSE's convention) and value 0.
  const std::size_t slices = (csr.rows + kSlice - 1) / kSlice;
  std::vector<std::int32_t> offsets(slices + 1, 0);
  for (std::size_t s = 0; s < slices; ++s) {
    std::int32_t width = 0;
    for (std::size_t r = s * kSlice; r < std::min(csr.rows, (s + 1) * kSlice); ++r) {
      width = std::max(width, csr.row_ptr[r + 1] - csr.row_ptr[r]);
    }
    offsets[s + 1] = offsets[s] + width * static_cast<std::int32_t>(kSlice);
  }
  std::vector<std::int32_t> col(offsets.back(), -1);
  std::vector<T> values(offsets.back(), T(0));
  for (std::size_t r = 0; r < csr.rows; ++r) {
    const std::size_t s = r / kSlice, lane = r % kSlice;
    for (std::int32_t e = csr.row_ptr[r]; e < csr.row_ptr[r + 1]; ++e) {
      const std::size_t at = offsets[s] + static_cast<std::size_t>(e - csr.row_ptr[r]) * kSlice + lane;
      col[at] = csr.col[e];
      values[at] = csr.values[e];
    }
  }
  exec->activate();
  const auto d_offsets = voltaic::Array<std::int32_t>::from_host(exec, offsets);
  const auto d_col = voltaic::Array<std::int32_t>::from_host(exec, col);
  const auto d_values = voltaic::Array<T>::from_host(exec, values);
  cusparseConstSpMatDescr_t a = nullptr;
  const auto n = static_cast<std::int64_t>(csr.rows);
  VOLTAIC_CUDA_CHECK(cusparseCreateConstSlicedEll(&a, n, n, static_cast<std::int64_t>(csr.values.size()),
                                                  static_cast<std::int64_t>(values.size()), kSlice, d_offsets.data(),
                                                  d_col.data(), d_values.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                                  CUSPARSE_INDEX_BASE_ZERO, kType<T>));
  const std::size_t bytes = offsets.size() * 4 + values.size() * (4 + sizeof(T)) + 2 * csr.rows * sizeof(T);
  try {
    const SpmvBaseline r = time_spmv(exec, a, csr.rows, x, y, opt, CUSPARSE_SPMV_SELL_ALG1, bytes);
    cusparseDestroySpMat(a);
    return r;
  } catch (...) {
    cusparseDestroySpMat(a);
    throw;
  }
}

#define VOLTAIC_INSTANTIATE(T)                                                                                        \
  template SpmvBaseline time_cusparse_csr<T>(const std::shared_ptr<const voltaic::CudaExecutor>&, std::size_t,        \
                                             std::size_t, const std::int32_t*, const std::int32_t*, const T*,         \
                                             const T*, T*, const TimingOptions&);                                     \
  template SpmvBaseline time_cusparse_sell<T>(const std::shared_ptr<const voltaic::CudaExecutor>&, const HostCsr<T>&, \
                                              const T*, T*, const TimingOptions&);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic_bench
