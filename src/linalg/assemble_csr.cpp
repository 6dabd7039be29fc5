// The stencil operators assembled into CSR, on the executor their
// coefficients live on. The structure is fixed by the grid (stencil_rows.hpp);
// this front end checks the coefficients, sizes the arrays and dispatches.
#include <string>
#include <utility>
#include <vector>

#include "sparse_checks.hpp"
#include "sparse_kernels.hpp"
#include "voltaic/linalg/csr_matrix.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

namespace voltaic {

namespace {

using sparse::require_size;
using sparse::require_space;
using sparse::StencilRows;

constexpr const char* kWhere = "voltaic::assemble_csr";

/// Checks one field's coefficients (named `field` in messages) and describes
/// its rows; the coefficients must live in exec's memory space.
template <class T>
StencilRows<T> rows_of(const StencilCoefficients<T>& s, const Executor& exec, const std::string& field) {
  if (!s.grid) throw InvalidArgument(field + ".grid", kWhere, "the stencil has no grid");
  const std::size_t n = s.grid->num_cells();
  if (n > sparse::kMaxIndex) {
    throw InvalidArgument(field + ".grid", kWhere,
                          std::to_string(n) + " cells do not fit 32-bit column indices (at most " +
                              std::to_string(sparse::kMaxIndex) + ")");
  }
  const std::string because = "the grid has " + std::to_string(n) + " cells";
  const std::pair<const Array<T>*, const char*> arrays[] = {
      {&s.diag, "diag"}, {&s.tx, "tx"}, {&s.ty, "ty"}, {&s.tz, "tz"}};
  for (const auto& [a, name] : arrays) {
    require_size(a->size(), n, kWhere, field + "." + name, because);
    require_space(exec, a->space(), kWhere, field + "." + name);
  }
  StencilRows<T> b;
  b.nx = s.grid->nx();
  b.ny = s.grid->ny();
  b.nz = s.grid->nz();
  b.diag = s.diag.data();
  b.tx = s.tx.data();
  b.ty = s.ty.data();
  b.tz = s.tz.data();
  return b;
}

/// The executor the coefficients were allocated on.
template <class T>
const std::shared_ptr<const Executor>& executor_of(const StencilCoefficients<T>& s) {
  if (!s.diag.executor()) {
    throw InvalidArgument("diag", kWhere, "the stencil's diag array has no executor (default-constructed)");
  }
  return s.diag.executor();
}

/// Allocates the CSR arrays for `blocks` (covering `rows` rows) and fills them.
template <class T>
CsrMatrix<T> assemble(const std::shared_ptr<const Executor>& exec, const std::vector<StencilRows<T>>& blocks,
                      std::size_t rows) {
  std::size_t nnz = 0;
  for (const auto& b : blocks) nnz += b.nnz();
  if (nnz > sparse::kMaxIndex || rows > sparse::kMaxIndex) {
    throw InvalidArgument("stencil", kWhere,
                          std::to_string(rows) + " rows with " + std::to_string(nnz) +
                              " non-zeros do not fit 32-bit indices (at most " + std::to_string(sparse::kMaxIndex) +
                              ")");
  }
  Array<std::int32_t> row_ptr(exec, rows + 1), col(exec, nnz);
  Array<T> values(exec, nnz);
  const int count = static_cast<int>(blocks.size());
  if (sparse::on_cpu(*exec, kWhere)) {
    cpu::assemble_stencil(blocks.data(), count, rows, row_ptr.data(), col.data(), values.data());
  } else {
    VOLTAIC_ON_CUDA(cuda::assemble_stencil(sparse::as_cuda(*exec), blocks.data(), count, rows, row_ptr.data(),
                                           col.data(), values.data()));
  }
  return CsrMatrix<T>(exec, rows, std::move(row_ptr), std::move(col), std::move(values));
}

}  // namespace

template <class T>
CsrMatrix<T> assemble_csr(const StencilCoefficients<T>& stencil) {
  const auto& exec = executor_of(stencil);
  const StencilRows<T> b = rows_of(stencil, *exec, "stencil");
  return assemble<T>(exec, {b}, b.cells());
}

template <class T>
CsrMatrix<T> assemble_csr(const StencilOperator<T>& op) {
  return assemble_csr(op.coefficients());
}

// Rows [0, N): field 0's stencil, then c01 in column N + cell (above every
// field-0 column). Rows [N, 2N): c10 in column cell (below every field-1
// column), then field 1's stencil shifted by N.
template <class T>
CsrMatrix<T> assemble_csr(const TwoFieldStencilOperator<T>& op) {
  const auto& exec = executor_of(op.field(0).coefficients());
  StencilRows<T> f0 = rows_of(op.field(0).coefficients(), *exec, "field 0");
  StencilRows<T> f1 = rows_of(op.field(1).coefficients(), *exec, "field 1");
  if (f0.nx != f1.nx || f0.ny != f1.ny || f0.nz != f1.nz) {
    throw SizeMismatch("field 1", kWhere,
                       "the fields' grids differ: " + std::to_string(f0.nx) + "x" + std::to_string(f0.ny) + "x" +
                           std::to_string(f0.nz) + " and " + std::to_string(f1.nx) + "x" + std::to_string(f1.ny) + "x" +
                           std::to_string(f1.nz));
  }
  const std::size_t n = f0.cells();
  if (2 * n > sparse::kMaxIndex) {
    throw InvalidArgument("grid", kWhere,
                          std::to_string(2 * n) + " rows do not fit 32-bit column indices (at most " +
                              std::to_string(sparse::kMaxIndex) + ")");
  }
  const std::string because = "one coupling per cell, " + std::to_string(n) + " cells";
  require_size(op.c01().size(), n, kWhere, "c01", because);
  require_size(op.c10().size(), n, kWhere, "c10", because);
  require_space(*exec, op.c01().space(), kWhere, "c01");
  require_space(*exec, op.c10().space(), kWhere, "c10");
  f0.trail = op.c01().data();
  f0.trail_col0 = static_cast<std::int32_t>(n);
  f1.row0 = n;
  f1.col0 = static_cast<std::int32_t>(n);
  f1.lead = op.c10().data();
  f1.lead_col0 = 0;
  return assemble<T>(exec, {f0, f1}, 2 * n);
}

template CsrMatrix<float> assemble_csr(const StencilCoefficients<float>&);
template CsrMatrix<double> assemble_csr(const StencilCoefficients<double>&);
template CsrMatrix<float> assemble_csr(const StencilOperator<float>&);
template CsrMatrix<double> assemble_csr(const StencilOperator<double>&);
template CsrMatrix<float> assemble_csr(const TwoFieldStencilOperator<float>&);
template CsrMatrix<double> assemble_csr(const TwoFieldStencilOperator<double>&);

}  // namespace voltaic
