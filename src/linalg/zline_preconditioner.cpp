// Front end of the z-line preconditioners: checks the stencil, runs the
// backend factorisation, and turns a rejected cell into a message that names
// it with its values (read one element at a time, never whole arrays).
#include <type_traits>
#include <utility>

#include "preconditioner_kernels.hpp"
#include "solver_support.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/linalg/preconditioner.hpp"

namespace voltaic {

namespace {

/// The stencil's arrays all hold grid.num_cells() values in exec's memory,
/// and its grid has the shape `shape` (when given).
template <class T>
void check_stencil(const Executor& exec, const StencilCoefficients<T>& s, const Grid3D* shape,
                   const std::string& where) {
  if (!s.grid) throw InvalidArgument("stencil.grid", where, "the stencil has no grid");
  const Grid3D& g = *s.grid;
  if (shape && (g.nx() != shape->nx() || g.ny() != shape->ny() || g.nz() != shape->nz())) {
    throw SizeMismatch("stencil.grid", where,
                       "grid " + std::to_string(g.nx()) + "x" + std::to_string(g.ny()) + "x" + std::to_string(g.nz()) +
                           " differs from the preconditioner's " + std::to_string(shape->nx()) + "x" +
                           std::to_string(shape->ny()) + "x" + std::to_string(shape->nz()));
  }
  detail::require_vector(exec, s.diag.view(), g.num_cells(), where, "stencil.diag");
  detail::require_vector(exec, s.tz.view(), g.num_cells(), where, "stencil.tz");
}

/// Why cell c of a z-line was rejected: its diagonal, else its pivot.
template <class T>
[[noreturn]] void throw_bad_zline_cell(const Executor& exec, const StencilCoefficients<T>& s, std::size_t c,
                                       const std::string& where) {
  const T d = detail::read_element(exec, s.diag.view(), c);
  const std::string cell = detail::cell_name(s.grid.get(), c);
  if (!precond::positive_finite(d)) {
    throw InvalidArgument("z-line diagonal", where,
                          "the diagonal at " + cell + " is " + detail::show(d) +
                              "; the z-line preconditioner needs every diagonal finite and > 0");
  }
  const std::size_t layer = s.grid->cells_per_layer();
  const T below = c >= layer ? detail::read_element(exec, s.tz.view(), c - layer) : T(0);
  throw InvalidArgument("z-line pivot", where,
                        "the Thomas pivot at " + cell + " is not finite and > 0 (diagonal " + detail::show(d) +
                            ", coupling to the cell below " + detail::show(below) +
                            "): this z-line of the matrix is not positive definite");
}

/// Why cell c of a block z-line was rejected: a diagonal, else its pivot block.
template <class T>
[[noreturn]] void throw_bad_block_cell(const Executor& exec, const StencilCoefficients<T>& f0,
                                       const StencilCoefficients<T>& f1, View<const T> c01, View<const T> c10,
                                       std::size_t c, const std::string& where) {
  const std::string cell = detail::cell_name(f0.grid.get(), c);
  const T d0 = detail::read_element(exec, f0.diag.view(), c), d1 = detail::read_element(exec, f1.diag.view(), c);
  for (const auto& [f, d] : {std::pair<int, T>{0, d0}, std::pair<int, T>{1, d1}}) {
    if (!precond::positive_finite(d)) {
      throw InvalidArgument("block z-line diagonal", where,
                            "the diagonal of field " + std::to_string(f) + " at " + cell + " is " + detail::show(d) +
                                "; the block z-line preconditioner needs every diagonal finite and > 0");
    }
  }
  throw InvalidArgument("block z-line pivot", where,
                        "the 2x2 pivot block at " + cell +
                            " has a diagonal or determinant that is not finite and > 0 (diagonals " + detail::show(d0) +
                            ", " + detail::show(d1) + "; couplings c01 " +
                            detail::show(detail::read_element(exec, c01, c)) + ", c10 " +
                            detail::show(detail::read_element(exec, c10, c)) +
                            "): this z-line of the matrix is not positive definite enough to factor without pivoting");
}

/// `a` rounded to U on its own executor (a plain copy when U is T).
template <class U, class T>
Array<U> converted_array(const Array<T>& a) {
  const Executor& exec = *a.executor();
  Array<U> out(a.executor(), a.size());
  if constexpr (std::is_same_v<U, T>) {
    copy(exec, a.view(), out.view());
  } else {
    convert(exec, a.view(), out.view());
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------- z-line

template <class T>
ZLinePreconditioner<T>::ZLinePreconditioner(const StencilOperator<T>& op) : ZLinePreconditioner(op.coefficients()) {}

template <class T>
ZLinePreconditioner<T>::ZLinePreconditioner(const StencilCoefficients<T>& stencil)
    : exec_(stencil.diag.executor()), grid_(stencil.grid) {
  const std::string where = "ZLinePreconditioner::ZLinePreconditioner";
  if (!exec_) throw InvalidArgument("stencil.diag", where, "the stencil's arrays have no executor");
  check_stencil(*exec_, stencil, nullptr, where);
  const std::size_t n = grid_->num_cells();
  lower_ = Array<T>(exec_, n);
  inverse_pivot_ = Array<T>(exec_, n);
  upper_ = Array<T>(exec_, n);
  update(stencil);
}

template <class T>
void ZLinePreconditioner<T>::update(const StencilOperator<T>& op) {
  update(op.coefficients());
}

template <class T>
void ZLinePreconditioner<T>::update(const StencilCoefficients<T>& stencil) {
  const std::string where = "ZLinePreconditioner::update";
  check_stencil(*exec_, stencil, grid_.get(), where);
  const std::size_t columns = grid_->cells_per_layer();
  const int nz = grid_->nz();
  std::int64_t bad = -1;
  if (detail::on_cpu(*exec_, where)) {
    bad = cpu::zline_factor(stencil.diag.data(), stencil.tz.data(), lower_.data(), inverse_pivot_.data(), upper_.data(),
                            columns, nz);
  } else {
    VOLTAIC_ON_CUDA(bad = cuda::zline_factor(detail::as_cuda(*exec_), stencil.diag.data(), stencil.tz.data(),
                                             lower_.data(), inverse_pivot_.data(), upper_.data(), columns, nz));
  }
  if (bad >= 0) throw_bad_zline_cell(*exec_, stencil, static_cast<std::size_t>(bad), where);
}

template <class T>
std::size_t ZLinePreconditioner<T>::size() const {
  return grid_->num_cells();
}

template <class T>
void ZLinePreconditioner<T>::apply(View<const T> r, View<T> z) const {
  const std::string where = "ZLinePreconditioner::apply";
  detail::require_vector(*exec_, r, size(), where, "r");
  detail::require_vector(*exec_, z, size(), where, "z");
  const std::size_t columns = grid_->cells_per_layer();
  const int nz = grid_->nz();
  if (detail::on_cpu(*exec_, where)) {
    return cpu::zline_solve(lower_.data(), inverse_pivot_.data(), upper_.data(), r.data(), z.data(), columns, nz);
  }
  VOLTAIC_ON_CUDA(cuda::zline_solve(detail::as_cuda(*exec_), lower_.data(), inverse_pivot_.data(), upper_.data(),
                                    r.data(), z.data(), columns, nz));
}

template <class T>
template <class U>
ZLinePreconditioner<U> ZLinePreconditioner<T>::converted() const {
  ZLinePreconditioner<U> out;
  out.exec_ = exec_;
  out.grid_ = grid_;
  out.lower_ = converted_array<U>(lower_);
  out.inverse_pivot_ = converted_array<U>(inverse_pivot_);
  out.upper_ = converted_array<U>(upper_);
  return out;
}

template class ZLinePreconditioner<float>;
template class ZLinePreconditioner<double>;
template ZLinePreconditioner<float> ZLinePreconditioner<float>::converted<float>() const;
template ZLinePreconditioner<double> ZLinePreconditioner<float>::converted<double>() const;
template ZLinePreconditioner<float> ZLinePreconditioner<double>::converted<float>() const;
template ZLinePreconditioner<double> ZLinePreconditioner<double>::converted<double>() const;

// ---------------------------------------------------------- block z-line

template <class T>
BlockZLinePreconditioner<T>::BlockZLinePreconditioner(const TwoFieldStencilOperator<T>& op)
    : BlockZLinePreconditioner(op.field(0).coefficients(), op.field(1).coefficients(), op.c01().view(),
                               op.c10().view()) {}

template <class T>
BlockZLinePreconditioner<T>::BlockZLinePreconditioner(const StencilCoefficients<T>& field0,
                                                      const StencilCoefficients<T>& field1, View<const T> c01,
                                                      View<const T> c10)
    : exec_(field0.diag.executor()), grid_(field0.grid) {
  const std::string where = "BlockZLinePreconditioner::BlockZLinePreconditioner";
  if (!exec_) throw InvalidArgument("field0.diag", where, "the stencil's arrays have no executor");
  check_stencil(*exec_, field0, nullptr, where);
  factors_ = Array<T>(exec_, precond::kBlockFactors * grid_->num_cells());
  update(field0, field1, c01, c10);
}

template <class T>
void BlockZLinePreconditioner<T>::update(const TwoFieldStencilOperator<T>& op) {
  update(op.field(0).coefficients(), op.field(1).coefficients(), op.c01().view(), op.c10().view());
}

template <class T>
void BlockZLinePreconditioner<T>::update(const StencilCoefficients<T>& field0, const StencilCoefficients<T>& field1,
                                         View<const T> c01, View<const T> c10) {
  const std::string where = "BlockZLinePreconditioner::update";
  check_stencil(*exec_, field0, grid_.get(), where);
  check_stencil(*exec_, field1, grid_.get(), where);
  const std::size_t cells = grid_->num_cells();
  detail::require_vector(*exec_, c01, cells, where, "c01");
  detail::require_vector(*exec_, c10, cells, where, "c10");
  const precond::BlockZLineInputs<T> in{field0.diag.data(), field1.diag.data(), field0.tz.data(),
                                        field1.tz.data(),   c01.data(),         c10.data()};
  const std::size_t columns = grid_->cells_per_layer();
  const int nz = grid_->nz();
  std::int64_t bad = -1;
  if (detail::on_cpu(*exec_, where)) {
    bad = cpu::block_zline_factor(in, factors_.data(), columns, nz);
  } else {
    VOLTAIC_ON_CUDA(bad = cuda::block_zline_factor(detail::as_cuda(*exec_), in, factors_.data(), columns, nz));
  }
  if (bad >= 0) throw_bad_block_cell(*exec_, field0, field1, c01, c10, static_cast<std::size_t>(bad), where);
}

template <class T>
std::size_t BlockZLinePreconditioner<T>::size() const {
  return 2 * grid_->num_cells();
}

template <class T>
void BlockZLinePreconditioner<T>::apply(View<const T> r, View<T> z) const {
  const std::string where = "BlockZLinePreconditioner::apply";
  detail::require_vector(*exec_, r, size(), where, "r");
  detail::require_vector(*exec_, z, size(), where, "z");
  const std::size_t columns = grid_->cells_per_layer();
  const int nz = grid_->nz();
  if (detail::on_cpu(*exec_, where)) return cpu::block_zline_solve(factors_.data(), r.data(), z.data(), columns, nz);
  VOLTAIC_ON_CUDA(cuda::block_zline_solve(detail::as_cuda(*exec_), factors_.data(), r.data(), z.data(), columns, nz));
}

template <class T>
template <class U>
BlockZLinePreconditioner<U> BlockZLinePreconditioner<T>::converted() const {
  BlockZLinePreconditioner<U> out;
  out.exec_ = exec_;
  out.grid_ = grid_;
  out.factors_ = converted_array<U>(factors_);
  return out;
}

template class BlockZLinePreconditioner<float>;
template class BlockZLinePreconditioner<double>;
template BlockZLinePreconditioner<float> BlockZLinePreconditioner<float>::converted<float>() const;
template BlockZLinePreconditioner<double> BlockZLinePreconditioner<float>::converted<double>() const;
template BlockZLinePreconditioner<float> BlockZLinePreconditioner<double>::converted<float>() const;
template BlockZLinePreconditioner<double> BlockZLinePreconditioner<double>::converted<double>() const;

}  // namespace voltaic
