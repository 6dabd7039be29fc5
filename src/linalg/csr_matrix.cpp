// Front end of CsrMatrix: checks the structure once at construction and the
// arguments of every apply, then dispatches to the CPU loop or the CUDA kernel.
#include "voltaic/linalg/csr_matrix.hpp"

#include <string>

#include "sparse_checks.hpp"
#include "sparse_kernels.hpp"

namespace voltaic {

namespace {

using sparse::require_size;
using sparse::require_space;

constexpr const char* kCtor = "voltaic::CsrMatrix::CsrMatrix";

/// The full structure check, possible only where the host can read the
/// arrays: row_ptr starts at 0, never decreases and ends at nnz; columns are in
/// range and strictly increasing within each row. Names the first bad row.
void check_host_structure(std::size_t rows, const std::int32_t* row_ptr, const std::int32_t* col, std::size_t nnz) {
  if (row_ptr[0] != 0) {
    throw InvalidArgument("row_ptr", kCtor, "row_ptr[0] = " + std::to_string(row_ptr[0]) + " must be 0");
  }
  for (std::size_t r = 0; r < rows; ++r) {
    if (row_ptr[r + 1] < row_ptr[r]) {
      throw InvalidArgument("row_ptr", kCtor,
                            "row_ptr decreases at row " + std::to_string(r) + ": row_ptr[" + std::to_string(r) +
                                "] = " + std::to_string(row_ptr[r]) + " > row_ptr[" + std::to_string(r + 1) +
                                "] = " + std::to_string(row_ptr[r + 1]));
    }
  }
  if (static_cast<std::size_t>(row_ptr[rows]) != nnz) {
    throw SizeMismatch("row_ptr", kCtor,
                       "row_ptr[" + std::to_string(rows) + "] = " + std::to_string(row_ptr[rows]) +
                           " but 'col' and 'values' hold " + std::to_string(nnz) + " entries");
  }
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::int32_t e = row_ptr[r]; e < row_ptr[r + 1]; ++e) {
      if (col[e] < 0 || static_cast<std::size_t>(col[e]) >= rows) {
        throw InvalidArgument("col", kCtor,
                              "row " + std::to_string(r) + " has column " + std::to_string(col[e]) + " (entry " +
                                  std::to_string(e) + ") outside [0, " + std::to_string(rows) + ")");
      }
      if (e > row_ptr[r] && col[e] <= col[e - 1]) {
        throw InvalidArgument("col", kCtor,
                              "row " + std::to_string(r) + " has column " + std::to_string(col[e]) + " after column " +
                                  std::to_string(col[e - 1]) + " (entry " + std::to_string(e) +
                                  "); columns must be strictly increasing within a row");
      }
    }
  }
}

/// On a device only the ends of row_ptr are read back: the full check would
/// copy the whole structure to the host.
void check_device_ends(const Executor& exec, std::size_t rows, const Array<std::int32_t>& row_ptr, std::size_t nnz) {
  std::int32_t first = -1, last = -1;
  exec.copy(&first, MemorySpace::host(), row_ptr.data(), row_ptr.space(), sizeof(std::int32_t));
  exec.copy(&last, MemorySpace::host(), row_ptr.data() + rows, row_ptr.space(), sizeof(std::int32_t));
  if (first != 0) throw InvalidArgument("row_ptr", kCtor, "row_ptr[0] = " + std::to_string(first) + " must be 0");
  if (static_cast<std::size_t>(last) != nnz) {
    throw SizeMismatch("row_ptr", kCtor,
                       "row_ptr[" + std::to_string(rows) + "] = " + std::to_string(last) +
                           " but 'col' and 'values' hold " + std::to_string(nnz) + " entries");
  }
}

}  // namespace

template <class T>
CsrMatrix<T>::CsrMatrix(std::shared_ptr<const Executor> exec, std::size_t rows, Array<std::int32_t> row_ptr,
                        Array<std::int32_t> col, Array<T> values)
    : exec_(std::move(exec)),
      rows_(rows),
      row_ptr_(std::move(row_ptr)),
      col_(std::move(col)),
      values_(std::move(values)) {
  if (!exec_) throw InvalidArgument("executor", kCtor, "executor is null");
  if (rows_ > sparse::kMaxIndex) {
    throw InvalidArgument("rows", kCtor,
                          std::to_string(rows_) + " rows do not fit 32-bit column indices (at most " +
                              std::to_string(sparse::kMaxIndex) + ")");
  }
  require_size(row_ptr_.size(), rows_ + 1, kCtor, "row_ptr", "a matrix of n rows needs n + 1 row pointers");
  require_size(values_.size(), col_.size(), kCtor, "values", "one value per column index in 'col'");
  if (col_.size() > sparse::kMaxIndex) {
    throw InvalidArgument("col", kCtor,
                          std::to_string(col_.size()) + " non-zeros do not fit 32-bit row pointers (at most " +
                              std::to_string(sparse::kMaxIndex) + ")");
  }
  require_space(*exec_, row_ptr_.space(), kCtor, "row_ptr");
  require_space(*exec_, col_.space(), kCtor, "col");
  require_space(*exec_, values_.space(), kCtor, "values");
  if (sparse::on_cpu(*exec_, kCtor)) {
    check_host_structure(rows_, row_ptr_.data(), col_.data(), col_.size());
  } else {
    check_device_ends(*exec_, rows_, row_ptr_, col_.size());
  }
}

template <class T>
void CsrMatrix<T>::apply(View<const T> x, View<T> y) const {
  constexpr const char* where = "voltaic::CsrMatrix::apply";
  sparse::check_apply(*exec_, rows_, x, y, where);
  if (rows_ == 0) return;
  if (sparse::on_cpu(*exec_, where)) {
    return cpu::csr_spmv(rows_, row_ptr_.data(), col_.data(), values_.data(), x.data(), y.data());
  }
  VOLTAIC_ON_CUDA(
      cuda::csr_spmv(sparse::as_cuda(*exec_), rows_, row_ptr_.data(), col_.data(), values_.data(), x.data(), y.data()));
}

template <class T>
CsrMatrix<T> CsrMatrix<T>::clone(std::shared_ptr<const Executor> to) const {
  if (!to) throw InvalidArgument("executor", "voltaic::CsrMatrix::clone", "target executor is null");
  return CsrMatrix(to, rows_, row_ptr_.clone(to), col_.clone(to), values_.clone(to));
}

template class CsrMatrix<float>;
template class CsrMatrix<double>;

}  // namespace voltaic
