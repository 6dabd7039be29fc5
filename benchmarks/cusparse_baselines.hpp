#pragma once
/// @file cusparse_baselines.hpp
/// @brief cuSPARSE SpMV on the same matrix voltaic multiplies: CSR, and
/// sliced ELL (slice 32) built from the same CSR arrays.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "timing.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic_bench {

/// A CSR matrix as the host sees it (to build other formats from).
template <class T>
struct HostCsr {
  std::size_t rows = 0;
  std::vector<std::int32_t> row_ptr, col;
  std::vector<T> values;
};

struct SpmvBaseline {
  TimingStats timing;
  std::size_t bytes = 0;  ///< the format's minimal bytes: its arrays, x once and y once
};

/// cusparseSpMV (CSR, 32-bit indices, default algorithm) on device arrays.
template <class T>
SpmvBaseline time_cusparse_csr(const std::shared_ptr<const voltaic::CudaExecutor>& exec, std::size_t rows,
                               std::size_t nnz, const std::int32_t* row_ptr, const std::int32_t* col, const T* values,
                               const T* x, T* y, const TimingOptions& opt);

/// cusparseSpMV on a sliced-ELL copy (slice size 32, SELL_ALG1) of `csr`.
template <class T>
SpmvBaseline time_cusparse_sell(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const HostCsr<T>& csr,
                                const T* x, T* y, const TimingOptions& opt);

}  // namespace voltaic_bench
