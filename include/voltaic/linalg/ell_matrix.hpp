#pragma once
/// @file ell_matrix.hpp
/// @brief ELLPACK matrices: every row padded to the same width, stored
/// column-major so that one thread per row reads coalesced.

#include <cstdint>
#include <memory>

#include "voltaic/core/array.hpp"
#include "voltaic/linalg/csr_matrix.hpp"
#include "voltaic/linalg/linear_operator.hpp"

namespace voltaic {

/// Entry e of row r is values[e * rows + r] in column col[e * rows + r];
/// padding entries have value 0 and column r (a valid index, so kernels need
/// no branch). SpMV memory: (4 + sizeof(T)) * width * rows plus x and y.
template <class T>
class EllMatrix final : public LinearOperator<T> {
 public:
  EllMatrix(std::shared_ptr<const Executor> exec, std::size_t rows, int width, Array<std::int32_t> col,
            Array<T> values);

  std::size_t size() const override { return rows_; }
  int width() const { return width_; }
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> x, View<T> y) const override;

  const Array<std::int32_t>& col() const { return col_; }
  const Array<T>& values() const { return values_; }

 private:
  std::shared_ptr<const Executor> exec_;
  std::size_t rows_;
  int width_;
  Array<std::int32_t> col_;
  Array<T> values_;
};

/// The same matrix in ELL format, width = the longest row (on csr's executor).
template <class T>
EllMatrix<T> to_ell(const CsrMatrix<T>& csr);

}  // namespace voltaic
