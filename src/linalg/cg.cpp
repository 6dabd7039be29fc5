// Preconditioned conjugate gradients, written once on the host over the
// LinearOperator / Preconditioner interfaces and BLAS-1, so it runs on every
// backend. Scalars come back to the host once per iteration: p.Ap stays on
// the device for the updates of x and r (update_pair), and comes back with
// ||r|| and r.z (device-result reductions, one copy). On a CUDA executor with
// stream-ordered parts, the iterations between the host's tests run as one
// CUDA graph whose WHILE node the device decides (cg_loop.hpp): the same
// kernels in the same order, so the same iterations and bits.
#include "cg_loop.hpp"
#include "core/backend_dispatch.hpp"
#include "krylov_common.hpp"
#include "voltaic/linalg/krylov.hpp"
#if VOLTAIC_HAS_CUDA
#include "blas1_kernels.hpp"
#include "cg_loop_kernels.hpp"
#include "core/graph_cache.hpp"
#endif

namespace voltaic {

template <class T>
struct CgSolver<T>::DeviceLoop {
  explicit DeviceLoop(const std::shared_ptr<const Executor>& exec)
      : state(exec, 1), host_state(Array<cg::LoopState>::pinned(exec, 1)) {}
  Array<cg::LoopState> state;       ///< the loop's scalars while the device runs it
  Array<cg::LoopState> host_state;  ///< their pinned host copy
#if VOLTAIC_HAS_CUDA
  /// The loop's graphs, by x and the executor's scratch (which the reductions
  /// capture, and which moves when it grows).
  cuda::GraphCache graphs{8};
#endif

  /// From `s` (which goes_on(), its next direction taken): iterations on the
  /// device until the host loop would act; `s` comes back as the host loop
  /// would hold it then. False, with nothing run, where no graph can run now
  /// (debug_sync() on, inside another capture).
  bool run(CgSolver& solver, cg::LoopState& s, View<T> x);
};

template <class T>
bool CgSolver<T>::DeviceLoop::run([[maybe_unused]] CgSolver& solver, [[maybe_unused]] cg::LoopState& s,
                                  [[maybe_unused]] View<T> x) {
#if VOLTAIC_HAS_CUDA
  const CudaExecutor& exec = detail::as_cuda(*solver.a_->executor());
  if (!cuda::can_capture(exec)) return false;
  const VectorSpace<T>& space = solver.a_->space();
  const std::size_t n = solver.a_->size();
  const View<T> r = solver.r_.view(), z = solver.z_.view(), p = solver.p_.view(), q = solver.q_.view();
  const View<T> sc = solver.scalars_.view();
  cg::LoopState* d = state.data();
  *host_state.data() = s;
  exec.copy_async(d, exec.memory_space(), host_state.data(), MemorySpace::host(), sizeof(s), 0);
  // One host iteration's work, with its scalars read on the device. Every
  // pointer and value it takes is fixed for this solver and x; what the
  // operator and preconditioner take is fixed too (stream_ordered()).
  graphs.run_while(exec, {x.data(), exec.scratch(0)}, [&](unsigned long long handle) {
    cuda::axpby(exec, T(1), z.data(), &d->beta, p.data(), n);
    solver.a_->apply(p, q);
    space.dot(exec, View<const T>(p), View<const T>(q), sc.subview(2, 1));
    cuda::update_pair(exec, &d->rho, sc.data() + 2, p.data(), q.data(), x.data(), r.data(), n);
    solver.m_->apply(r, z);
    space.norm_and_dot(exec, View<const T>(r), View<const T>(z), sc.subview(0, 2));
    cuda::cg_decide(exec, d, sc.data(), handle);
  });
  exec.copy(host_state.data(), MemorySpace::host(), d, exec.memory_space(), sizeof(s));
  s = *host_state.data();
  return true;
#else
  return false;
#endif
}

template <class T>
CgSolver<T>::CgSolver(std::shared_ptr<const LinearOperator<T>> a, std::shared_ptr<const Preconditioner<T>> m,
                      SolverOptions options)
    : a_(std::move(a)), m_(std::move(m)), options_(options) {
  const std::string where = "CgSolver::CgSolver";
  detail::check_parts(a_, m_, where);
  detail::check_options(options_, where);
  const auto& exec = a_->executor();
  const std::size_t n = a_->size();
  r_ = Array<T>(exec, n);
  z_ = Array<T>(exec, n);
  p_ = Array<T>(exec, n);
  q_ = Array<T>(exec, n);
  scalars_ = Array<T>(exec, 4);  // ||r||, r.z, p.Ap, ||b||
  host_scalars_ = Array<T>::pinned(exec, 4);
}

template <class T>
CgSolver<T>::~CgSolver() = default;

template <class T>
bool CgSolver<T>::device_loop_ready() const {
  if (!options_.device_loop || a_->executor()->backend() != Backend::cuda) return false;
  return VOLTAIC_HAS_CUDA && a_->stream_ordered() && m_->stream_ordered();
}

template <class T>
typename CgSolver<T>::Start CgSolver<T>::begin(View<const T> b, View<const T> x) {
  const Executor& exec = *a_->executor();
  const VectorSpace<T>& space = a_->space();
  const View<T> r = r_.view(), s = scalars_.view();
  // ||b|| into slot 3, ||r|| (and r.z) into slots 0 and 1: one read-back.
  space.nrm2(exec, b, s.subview(3, 1));
  a_->apply(x, r);
  axpby(exec, T(1), b, T(-1), r);
  if (prefetch_z_) {
    m_->apply(View<const T>(r), z_.view());
    space.norm_and_dot(exec, View<const T>(r), View<const T>(z_.view()), s.subview(0, 2));
  } else {
    space.nrm2(exec, View<const T>(r), s.subview(0, 1));
  }
  exec.copy(host_scalars_.data(), MemorySpace::host(), scalars_.data(), scalars_.space(), 4 * sizeof(T));
  const T* h = host_scalars_.data();
  return Start{h[3], h[0], prefetch_z_ ? static_cast<double>(h[1]) : 0.0, prefetch_z_};
}

template <class T>
SolveReport CgSolver<T>::solve(View<const T> b, View<T> x) {
  const std::string where = "CgSolver::solve";
  const Executor& exec = *a_->executor();
  const std::size_t n = a_->size();
  detail::require_vector(exec, b, n, where, "b");
  detail::require_vector(exec, x, n, where, "x");
  const VectorSpace<T>& space = a_->space();
  const View<T> r = r_.view(), z = z_.view(), p = p_.view(), q = q_.view();
  const Start start = begin(b, View<const T>(x));
  const double b_norm = detail::checked_rhs_norm(start.b_norm, where);
  if (b_norm == 0) return detail::zero_solution(exec, x);
  const double tol = detail::tolerance(options_, b_norm);

  double r_norm = start.r_norm;
  const double initial = r_norm;
  bool fresh = true;             // r_norm is that of the true residual b - A x
  bool restart = true;           // p starts again from z = M^{-1} r
  bool z_ready = start.z_ready;  // z = M^{-1} r and r.z are already at hand
  double last_true = r_norm;     // the true residual when CG last (re)started
  double rho = 0, rho_next = 0;
  int it = 0;
  StopReason reason = StopReason::max_iterations;
  const bool on_device = device_loop_ready();
  device_runs_ = 0;
  if (on_device && !device_loop_) device_loop_ = std::make_unique<DeviceLoop>(a_->executor());
  while (true) {
    if (!detail::finite(r_norm)) {
      reason = StopReason::non_finite;
      break;
    }
    if (r_norm <= tol) {
      if (fresh) {
        reason = StopReason::converged;
        break;
      }
      // The recurrence drifts from b - A x in finite precision: confirm, and
      // carry on from the true residual if it is not small enough. A whole
      // run to the tolerance that did not even halve the true residual means
      // the precision's floor is above the tolerance.
      r_norm = detail::residual(*a_, b, View<const T>(x), r);
      fresh = restart = true;
      z_ready = false;
      if (r_norm > tol && r_norm > 0.5 * last_true) {
        reason = StopReason::stagnation;
        break;
      }
      last_true = r_norm;
      continue;
    }
    if (it >= options_.max_iterations) break;
    if (restart) {
      if (z_ready) {
        rho = start.rz;
      } else {
        m_->apply(r, z);
        rho = space.dot(exec, View<const T>(r), View<const T>(z));
      }
      z_ready = false;
      copy(exec, View<const T>(z), p);
      restart = false;
    } else {
      const double beta = rho_next / rho;
      rho = rho_next;
      axpby(exec, T(1), View<const T>(z), static_cast<T>(beta), p);
    }
    if (!detail::finite(rho)) {
      reason = StopReason::non_finite;
      break;
    }
    if (rho <= 0) {  // r != 0, so M is not positive definite
      reason = StopReason::breakdown;
      break;
    }
    a_->apply(p, q);
    // x += alpha p, r -= alpha q with alpha = rho / p.Ap taken on the device;
    // nothing moves unless p.Ap is finite and > 0, and the host reads it
    // with the new norms below and stops there on a breakdown.
    const View<T> s = scalars_.view();
    space.dot(exec, View<const T>(p), View<const T>(q), s.subview(2, 1));
    update_pair(exec, rho, View<const T>(s.subview(2, 1)), View<const T>(p), View<const T>(q), x, r);
    m_->apply(r, z);
    space.norm_and_dot(exec, View<const T>(r), View<const T>(z), s.subview(0, 2));
    exec.copy(host_scalars_.data(), MemorySpace::host(), scalars_.data(), scalars_.space(), 3 * sizeof(T));
    const double pq = host_scalars_.data()[2];
    if (!detail::finite(pq)) {
      reason = StopReason::non_finite;
      break;
    }
    if (pq <= 0) {  // A is not positive definite (or p vanished in rounding)
      reason = StopReason::breakdown;
      break;
    }
    ++it;
    fresh = false;
    r_norm = host_scalars_.data()[0];
    rho_next = host_scalars_.data()[1];
    // Where the host loop would go straight on, the device goes on instead
    // and hands back where the host loop would act.
    cg::LoopState loop{rho, rho_next, 0.0, r_norm, tol, it, options_.max_iterations, cg::kHostTest, 0};
    if (!on_device || !cg::goes_on(loop)) continue;
    cg::next_direction(loop);
    if (!device_loop_->run(*this, loop, x)) continue;  // the host loop goes on from its own scalars
    ++device_runs_;
    it = loop.iterations;
    r_norm = loop.r_norm;
    rho = loop.rho;
    rho_next = loop.rho_next;
    if (loop.handback == cg::kProductNotFinite) {
      reason = StopReason::non_finite;
      break;
    }
    if (loop.handback == cg::kProductNotPositive) {
      reason = StopReason::breakdown;
      break;
    }
  }
  if (!fresh) r_norm = detail::residual(*a_, b, View<const T>(x), r);
  prefetch_z_ = it > 0;
  if (reason != StopReason::converged && detail::finite(r_norm) && r_norm <= tol) reason = StopReason::converged;
  SolveReport report;
  report.iterations = it;
  return detail::finish(report, reason, initial, r_norm, b_norm, options_, where);
}

template class CgSolver<float>;
template class CgSolver<double>;

}  // namespace voltaic
