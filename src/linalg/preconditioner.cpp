// Front end of the Identity and Jacobi preconditioners: checks, then the
// BLAS-1 copy / multiply (Jacobi's inverse diagonal is built by a backend
// kernel that also finds the first bad cell).
#include "voltaic/linalg/preconditioner.hpp"

#include "preconditioner_kernels.hpp"
#include "solver_support.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

namespace {

/// inverse = 1 / diagonal on exec; throws naming the first cell whose
/// diagonal is not finite and > 0 (by (i, j, k) when the grid is known).
template <class T>
void invert_checked(const Executor& exec, View<const T> diagonal, View<T> inverse, const Grid3D* grid) {
  const std::string where = "JacobiPreconditioner::JacobiPreconditioner";
  detail::require_space(exec, diagonal, where, "diagonal");
  std::int64_t bad = -1;
  if (detail::on_cpu(exec, where)) {
    bad = cpu::invert_diagonal(diagonal.data(), inverse.data(), diagonal.size());
  } else {
    VOLTAIC_ON_CUDA(bad =
                        cuda::invert_diagonal(detail::as_cuda(exec), diagonal.data(), inverse.data(), diagonal.size()));
  }
  if (bad < 0) return;
  const auto c = static_cast<std::size_t>(bad);
  throw InvalidArgument("Jacobi diagonal", where,
                        "the diagonal at " + detail::cell_name(grid, c) + " is " +
                            detail::show(detail::read_element(exec, diagonal, c)) +
                            "; Jacobi needs every diagonal finite and > 0 (and 1 / diagonal finite)");
}

template <class T>
void check_apply(const Preconditioner<T>& m, View<const T> r, View<T> z, const char* where) {
  detail::require_vector(*m.executor(), r, m.size(), where, "r");
  detail::require_vector(*m.executor(), z, m.size(), where, "z");
}

}  // namespace

template <class T>
IdentityPreconditioner<T>::IdentityPreconditioner(std::shared_ptr<const Executor> exec, std::size_t n)
    : exec_(std::move(exec)), n_(n) {
  if (!exec_) throw InvalidArgument("executor", "IdentityPreconditioner::IdentityPreconditioner", "executor is null");
}

template <class T>
void IdentityPreconditioner<T>::apply(View<const T> r, View<T> z) const {
  check_apply(*this, r, z, "IdentityPreconditioner::apply");
  copy(*exec_, r, z);
}

template <class T>
JacobiPreconditioner<T>::JacobiPreconditioner(const StencilOperator<T>& op)
    : exec_(op.executor()), inverse_diagonal_(exec_, op.size()) {
  const View<const T> diagonal = op.coefficients().diag.view();
  detail::require_size(diagonal, op.size(), "JacobiPreconditioner::JacobiPreconditioner", "diagonal");
  invert_checked(*exec_, diagonal, inverse_diagonal_.view(), &op.grid());
}

template <class T>
JacobiPreconditioner<T>::JacobiPreconditioner(std::shared_ptr<const Executor> exec, View<const T> diagonal)
    : exec_(std::move(exec)) {
  if (!exec_) throw InvalidArgument("executor", "JacobiPreconditioner::JacobiPreconditioner", "executor is null");
  inverse_diagonal_ = Array<T>(exec_, diagonal.size());
  invert_checked(*exec_, diagonal, inverse_diagonal_.view(), nullptr);
}

template <class T>
void JacobiPreconditioner<T>::apply(View<const T> r, View<T> z) const {
  check_apply(*this, r, z, "JacobiPreconditioner::apply");
  multiply(*exec_, inverse_diagonal_.view(), r, z);
}

template class IdentityPreconditioner<float>;
template class IdentityPreconditioner<double>;
template class JacobiPreconditioner<float>;
template class JacobiPreconditioner<double>;

}  // namespace voltaic
