// Front end of EllMatrix and of the CSR-to-ELL conversion: checks, then
// dispatches to the CPU loops or the CUDA kernels.
#include "voltaic/linalg/ell_matrix.hpp"

#include <string>

#include "sparse_checks.hpp"
#include "sparse_kernels.hpp"

namespace voltaic {

namespace {

using sparse::require_size;
using sparse::require_space;

constexpr const char* kCtor = "voltaic::EllMatrix::EllMatrix";

/// Every slot's column in [0, rows), padding included; names the first bad row.
void check_host_columns(std::size_t rows, int width, const std::int32_t* col) {
  for (std::size_t r = 0; r < rows; ++r) {
    for (int e = 0; e < width; ++e) {
      const std::int32_t c = col[static_cast<std::size_t>(e) * rows + r];
      if (c < 0 || static_cast<std::size_t>(c) >= rows) {
        throw InvalidArgument("col", kCtor,
                              "row " + std::to_string(r) + " has column " + std::to_string(c) + " in slot " +
                                  std::to_string(e) + " outside [0, " + std::to_string(rows) +
                                  ") (padding slots use the row's own index)");
      }
    }
  }
}

}  // namespace

template <class T>
EllMatrix<T>::EllMatrix(std::shared_ptr<const Executor> exec, std::size_t rows, int width, Array<std::int32_t> col,
                        Array<T> values)
    : exec_(std::move(exec)), rows_(rows), width_(width), col_(std::move(col)), values_(std::move(values)) {
  if (!exec_) throw InvalidArgument("executor", kCtor, "executor is null");
  if (width_ < 0) throw InvalidArgument("width", kCtor, "width = " + std::to_string(width_) + " must be >= 0");
  if (rows_ > sparse::kMaxIndex) {
    throw InvalidArgument("rows", kCtor,
                          std::to_string(rows_) + " rows do not fit 32-bit column indices (at most " +
                              std::to_string(sparse::kMaxIndex) + ")");
  }
  const std::size_t slots = static_cast<std::size_t>(width_) * rows_;
  const std::string because = "width " + std::to_string(width_) + " x " + std::to_string(rows_) + " rows";
  require_size(col_.size(), slots, kCtor, "col", because);
  require_size(values_.size(), slots, kCtor, "values", because);
  require_space(*exec_, col_.space(), kCtor, "col");
  require_space(*exec_, values_.space(), kCtor, "values");
  if (sparse::on_cpu(*exec_, kCtor)) check_host_columns(rows_, width_, col_.data());
}

template <class T>
void EllMatrix<T>::apply(View<const T> x, View<T> y) const {
  constexpr const char* where = "voltaic::EllMatrix::apply";
  sparse::check_apply(*exec_, rows_, x, y, where);
  if (rows_ == 0) return;
  if (sparse::on_cpu(*exec_, where))
    return cpu::ell_spmv(rows_, width_, col_.data(), values_.data(), x.data(), y.data());
  VOLTAIC_ON_CUDA(
      cuda::ell_spmv(sparse::as_cuda(*exec_), rows_, width_, col_.data(), values_.data(), x.data(), y.data()));
}

template <class T>
EllMatrix<T> to_ell(const CsrMatrix<T>& csr) {
  constexpr const char* where = "voltaic::to_ell";
  const std::shared_ptr<const Executor>& exec = csr.executor();
  const std::size_t rows = csr.size();
  const std::int32_t* row_ptr = csr.row_ptr().data();
  const bool cpu = sparse::on_cpu(*exec, where);
  int width = 0;
  if (cpu) {
    width = cpu::max_row_length(rows, row_ptr);
  } else {
    VOLTAIC_ON_CUDA(width = cuda::max_row_length(sparse::as_cuda(*exec), rows, row_ptr));
  }
  const std::size_t slots = static_cast<std::size_t>(width) * rows;
  Array<std::int32_t> col(exec, slots);
  Array<T> values(exec, slots);
  if (slots > 0) {
    if (cpu) {
      cpu::csr_to_ell(rows, width, row_ptr, csr.col().data(), csr.values().data(), col.data(), values.data());
    } else {
      VOLTAIC_ON_CUDA(cuda::csr_to_ell(sparse::as_cuda(*exec), rows, width, row_ptr, csr.col().data(),
                                       csr.values().data(), col.data(), values.data()));
    }
  }
  return EllMatrix<T>(exec, rows, width, std::move(col), std::move(values));
}

template class EllMatrix<float>;
template class EllMatrix<double>;
template EllMatrix<float> to_ell(const CsrMatrix<float>&);
template EllMatrix<double> to_ell(const CsrMatrix<double>&);

}  // namespace voltaic
