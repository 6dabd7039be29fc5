#pragma once
/// @file csr_matrix.hpp
/// @brief Compressed sparse row matrices on either backend, and the stencil
/// operators assembled into them.

#include <cstdint>
#include <memory>

#include "voltaic/core/array.hpp"
#include "voltaic/linalg/linear_operator.hpp"
#include "voltaic/linalg/stencil_coefficients.hpp"

namespace voltaic {

template <class T>
class StencilOperator;
template <class T>
class TwoFieldStencilOperator;

/// A square CSR matrix: row r holds values[row_ptr[r] .. row_ptr[r+1]) in
/// columns col[...], sorted by column within each row. 32-bit indices (the
/// number of non-zeros must stay below 2^31).
///
/// SpMV memory: reads row_ptr (4 B/row), col and values (4 + sizeof(T) per
/// non-zero), x (at least once), writes y.
template <class T>
class CsrMatrix final : public LinearOperator<T> {
 public:
  /// Takes ownership of the three arrays (all on `exec`); checks their sizes
  /// and, on the host, that row_ptr is non-decreasing and columns are in range.
  CsrMatrix(std::shared_ptr<const Executor> exec, std::size_t rows, Array<std::int32_t> row_ptr,
            Array<std::int32_t> col, Array<T> values);

  std::size_t size() const override { return rows_; }
  std::size_t nnz() const { return values_.size(); }
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> x, View<T> y) const override;

  const Array<std::int32_t>& row_ptr() const { return row_ptr_; }
  const Array<std::int32_t>& col() const { return col_; }
  const Array<T>& values() const { return values_; }

  /// A copy on another executor.
  CsrMatrix clone(std::shared_ptr<const Executor> to) const;

 private:
  std::shared_ptr<const Executor> exec_;
  std::size_t rows_;
  Array<std::int32_t> row_ptr_, col_;
  Array<T> values_;
};

/// The 7-point stencil as CSR (built on the coefficients' executor).
template <class T>
CsrMatrix<T> assemble_csr(const StencilCoefficients<T>& stencil);
/// The operator's stencil as CSR.
template <class T>
CsrMatrix<T> assemble_csr(const StencilOperator<T>& op);
/// The 2-field operator as CSR, rows and columns field-major like its vectors.
template <class T>
CsrMatrix<T> assemble_csr(const TwoFieldStencilOperator<T>& op);

}  // namespace voltaic
