// Right-preconditioned restarted GMRES(m), written once on the host over the
// LinearOperator / Preconditioner interfaces and BLAS-1. Gram-Schmidt is
// classical with one re-orthogonalisation pass (CGS2): each pass is one
// batch of dot products (block_dot) and one update of the new vector by the
// coefficients where they lie (subtract_combination), the second batch also
// giving the new norm (by Pythagoras), so an iteration takes two reductions
// and the device is waited for once per iteration whatever j is. The small
// Hessenberg least-squares problem stays on the host, in double.
#include <cmath>
#include <limits>

#include "krylov_common.hpp"
#include "voltaic/linalg/krylov.hpp"

namespace voltaic {

namespace {
constexpr std::size_t kAlignBytes = 256;
}  // namespace

template <class T>
GmresSolver<T>::GmresSolver(std::shared_ptr<const LinearOperator<T>> a, std::shared_ptr<const Preconditioner<T>> m,
                            SolverOptions options)
    : a_(std::move(a)), m_(std::move(m)), options_(options) {
  const std::string where = "GmresSolver::GmresSolver";
  detail::check_parts(a_, m_, where);
  detail::check_options(options_, where);
  if (options_.restart < 1) {
    throw InvalidArgument("options.restart", where,
                          "restart = " + std::to_string(options_.restart) + " must be >= 1 (GMRES(m) needs m >= 1)");
  }
  const auto& exec = a_->executor();
  const std::size_t n = a_->size();
  const std::size_t m_len = static_cast<std::size_t>(options_.restart);
  constexpr std::size_t per_line = kAlignBytes / sizeof(T);
  stride_ = (n + per_line - 1) / per_line * per_line;  // every basis vector 256-byte aligned: vector loads
  basis_ = Array<T>(exec, stride_ * (m_len + 1));
  w_ = Array<T>(exec, n);
  z_ = Array<T>(exec, n);
  scalars_ = Array<T>(exec, 2 * (m_len + 2));  // pass 1 and ||w||, then pass 2 and ||v_next||
  host_scalars_ = Array<T>::pinned(exec, 2 * (m_len + 2));
  hessenberg_.assign((m_len + 1) * m_len, 0.0);
  cosines_.assign(m_len, 0.0);
  sines_.assign(m_len, 0.0);
  g_.assign(m_len + 1, 0.0);
  y_.assign(m_len, 0.0);
}

template <class T>
void GmresSolver<T>::read_scalars(int count) {
  const Executor& exec = *a_->executor();
  exec.copy(host_scalars_.data(), MemorySpace::host(), scalars_.data(), scalars_.space(), count * sizeof(T));
}

template <class T>
SolveReport GmresSolver<T>::solve(View<const T> b, View<T> x) {
  return run(b, x, false);
}

template <class T>
SolveReport GmresSolver<T>::solve_from_zero(View<const T> b, View<T> x) {
  return run(b, x, true);
}

template <class T>
SolveReport GmresSolver<T>::run(View<const T> b, View<T> x, bool from_zero) {
  const std::string where = "GmresSolver::solve";
  const Executor& exec = *a_->executor();
  const std::size_t n = a_->size();
  detail::require_vector(exec, b, n, where, "b");
  detail::require_vector(exec, x, n, where, "x");
  const VectorSpace<T>& space = a_->space();
  const double b_norm = detail::rhs_norm(*a_, b, where);
  if (b_norm == 0) return detail::zero_solution(exec, x);
  const double tol = detail::tolerance(options_, b_norm);
  const int m = options_.restart;
  const std::size_t ld = static_cast<std::size_t>(m) + 1;
  auto h = [&](int i, int j) -> double& { return hessenberg_[static_cast<std::size_t>(j) * ld + i]; };
  const T* s = host_scalars_.data();
  const View<T> w = w_.view(), z = z_.view();

  double beta = b_norm;  // b - A 0, the same bits as residual() gives for finite A
  if (from_zero) {
    fill(exec, x, T(0));
    copy(exec, b, basis(0));
  } else {
    beta = detail::residual(*a_, b, View<const T>(x), basis(0));
  }
  const double initial = beta;
  double previous = std::numeric_limits<double>::infinity();
  int it = 0;
  StopReason reason = StopReason::max_iterations;
  while (true) {
    if (!detail::finite(beta)) {
      reason = StopReason::non_finite;
      break;
    }
    if (beta <= tol) {
      reason = StopReason::converged;
      break;
    }
    if (it >= options_.max_iterations) break;
    if (beta >= previous) {  // a whole cycle gained nothing: the rounding floor
      reason = StopReason::stagnation;
      break;
    }
    previous = beta;

    // One restart cycle from v_0 = r / beta.
    scale(exec, static_cast<T>(1.0 / beta), basis(0));
    std::fill(g_.begin(), g_.end(), 0.0);
    g_[0] = beta;
    int k = 0;  // columns of H in the least-squares problem
    bool stop = false;
    for (int j = 0; j < m && it < options_.max_iterations; ++j) {
      const View<T> v_next = basis(j + 1);
      m_->apply(View<const T>(basis(j)), z);
      a_->apply(View<const T>(z), v_next);
      // CGS2: pass 1 with w . w in the same batch (w is the block's vector
      // j + 1; ||w|| is the scale of the breakdown test), pass 2 (what
      // rounding left of the basis directions) with w1 . w1 of the once
      // orthogonalised w1 in its batch; each pass's coefficients applied
      // where they lie, one read of all. Two reductions an iteration: the
      // new norm is Pythagoras's, ||w1 - V c||^2 = w1 . w1 - c . c, which
      // cancels nothing, pass 2's c being rounding-sized beside w1.
      const View<const T> basis_block = View<const T>(basis_.view());
      const std::size_t second = static_cast<std::size_t>(m) + 2;
      const View<T> pass1 = scalars_.view().subview(0, j + 2), pass2 = scalars_.view().subview(second, j + 2);
      space.block_dot(exec, basis_block, stride_, j + 2, View<const T>(v_next), pass1);
      subtract_combination(exec, basis_block, stride_, j + 1, View<const T>(pass1), v_next);
      space.block_dot(exec, basis_block, stride_, j + 2, View<const T>(v_next), pass2);
      subtract_combination(exec, basis_block, stride_, j + 1, View<const T>(pass2), v_next);
      read_scalars(static_cast<int>(second) + j + 2);
      // Infinite where w . w overflows T: the invariant-subspace test below then does not fire.
      const double w_norm = std::sqrt(static_cast<double>(s[j + 1]));
      double c_squared = 0.0;
      for (int i = 0; i <= j; ++i) {
        h(i, j) = s[i];
        h(i, j) += s[second + i];
        c_squared += static_cast<double>(s[second + i]) * static_cast<double>(s[second + i]);
      }
      // Zero where rounding leaves nothing of w1 (then the invariant-subspace test fires); NaN stays NaN.
      const double left = static_cast<double>(s[second + j + 1]) - c_squared;
      const double h_next = left > 0.0 ? std::sqrt(left) : (left <= 0.0 ? 0.0 : left);
      ++it;
      bool finite = detail::finite(h_next);
      for (int i = 0; i <= j; ++i) finite = finite && detail::finite(h(i, j));
      if (!finite) {
        reason = StopReason::non_finite;
        stop = true;
        break;
      }
      // Earlier rotations, then the one that zeroes h(j+1, j).
      for (int i = 0; i < j; ++i) {
        const double t = cosines_[i] * h(i, j) + sines_[i] * h(i + 1, j);
        h(i + 1, j) = -sines_[i] * h(i, j) + cosines_[i] * h(i + 1, j);
        h(i, j) = t;
      }
      const double rho = std::hypot(h(j, j), h_next);
      if (rho == 0) {  // singular least-squares problem: A M^{-1} is singular on the Krylov space
        reason = StopReason::breakdown;
        stop = true;
        break;
      }
      cosines_[j] = h(j, j) / rho;
      sines_[j] = h_next / rho;
      h(j, j) = rho;
      h(j + 1, j) = 0.0;
      g_[j + 1] = -sines_[j] * g_[j];
      g_[j] = cosines_[j] * g_[j];
      k = j + 1;
      // Converged estimate, or an invariant subspace (the next direction is
      // rounding noise): either way this cycle is done.
      if (std::fabs(g_[j + 1]) <= tol ||
          (detail::finite(w_norm) && h_next <= std::numeric_limits<T>::epsilon() * w_norm)) {
        break;
      }
      scale(exec, static_cast<T>(1.0 / h_next), v_next);
    }

    // x += M^{-1} V y, with y solving the k x k triangular system H y = g.
    if (k > 0) {
      for (int i = k - 1; i >= 0; --i) {
        double t = g_[i];
        for (int l = i + 1; l < k; ++l) t -= h(i, l) * y_[l];
        y_[i] = t / h(i, i);
      }
      fill(exec, w, T(0));
      for (int i = 0; i < k; ++i) axpy(exec, static_cast<T>(y_[i]), View<const T>(basis(i)), w);
      m_->apply(View<const T>(w), z);
      axpy(exec, T(1), View<const T>(z), x);
    }
    beta = detail::residual(*a_, b, View<const T>(x), basis(0));
    if (stop) break;
  }
  if (reason != StopReason::converged && detail::finite(beta) && beta <= tol) reason = StopReason::converged;
  SolveReport report;
  report.iterations = it;
  return detail::finish(report, reason, initial, beta, b_norm, options_, where);
}

template class GmresSolver<float>;
template class GmresSolver<double>;

}  // namespace voltaic
