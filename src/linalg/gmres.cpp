// Right-preconditioned restarted GMRES(m), written once on the host over the
// LinearOperator / Preconditioner interfaces and BLAS-1. Gram-Schmidt is
// classical with one re-orthogonalisation pass (CGS2): each pass is one
// batch of dot products (block_dot) and one update of the new vector by the
// coefficients where they lie (subtract_combination), the second batch also
// giving the new norm (by Pythagoras), so an iteration takes two reductions.
// The Hessenberg column, its rotations and the cycle's tests are
// gmres::column() (gmres_loop.hpp). The host loop waits for the device once
// per iteration; on a CUDA executor with stream-ordered parts and the local
// reductions, a restart cycle's iterations run instead as one CUDA graph
// whose WHILE node the device decides with the same column(): the same
// kernels in the same order, so the same iterations and bits, and one wait
// per cycle.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/backend_dispatch.hpp"
#include "gmres_loop.hpp"
#include "krylov_common.hpp"
#include "voltaic/linalg/krylov.hpp"
#if VOLTAIC_HAS_CUDA
#include "blas1_kernels.hpp"
#include "core/graph_cache.hpp"
#include "gmres_loop_kernels.hpp"
#endif

namespace voltaic {

namespace {
constexpr std::size_t kAlignBytes = 256;
/// Doubles of the cycle's device block before its arrays (the Cycle, rounded up).
constexpr std::size_t kCycleDoubles = (sizeof(gmres::Cycle) + sizeof(double) - 1) / sizeof(double);
}  // namespace

/// A restart cycle's iterations as one device-decided CUDA graph. The cycle's
/// block in device memory: the Cycle, then g (m + 1), H ((m + 1) m), the
/// cosines and sines (m each); its pinned host copy. The graph's body is the
/// host loop's iteration with fixed pointers: M and A take the new vector in
/// w_ (not basis(j + 1)), the Gram-Schmidt kernels read the basis's last row
/// from the Cycle, and the new vector is scaled in w_ and stored in the basis.
template <class T>
struct GmresSolver<T>::DeviceLoop {
  DeviceLoop(const std::shared_ptr<const Executor>& exec, int m)
      : block(exec, size(m)), host(Array<double>::pinned(exec, size(m))) {}
  static std::size_t size(int m) {
    const auto k = static_cast<std::size_t>(m);
    return kCycleDoubles + (k + 1) + (k + 1) * k + 2 * k;
  }
  static gmres::Columns columns(double* block, int m) {
    const auto k = static_cast<std::size_t>(m);
    double* g = block + kCycleDoubles;
    double* h = g + k + 1;
    double* cosines = h + (k + 1) * k;
    return {h, cosines, cosines + k, g};
  }
  Array<double> block, host;
#if VOLTAIC_HAS_CUDA
  /// The cycle's graph, by the executor's scratch (which the reductions
  /// capture, and which moves when it grows).
  cuda::GraphCache graphs{4};
#endif

  /// From `c` at the cycle's start (j = 0, v_0 in basis(0), g = (beta, 0, ...)
  /// in g_): the cycle's iterations on the device; `c`, g_ and H's columns
  /// come back as the host loop would leave them. False, with nothing run,
  /// where no graph can run now (debug_sync() on, inside another capture).
  bool run(GmresSolver& solver, gmres::Cycle& c);
};

template <class T>
bool GmresSolver<T>::DeviceLoop::run([[maybe_unused]] GmresSolver& solver, [[maybe_unused]] gmres::Cycle& c) {
#if VOLTAIC_HAS_CUDA
  const CudaExecutor& exec = detail::as_cuda(*solver.a_->executor());
  if (!cuda::can_capture(exec)) return false;
  const int m = c.m;
  const auto k = static_cast<std::size_t>(m);
  const std::size_t n = solver.a_->size(), second = k + 2;
  // The Cycle and g up (one copy), v_0 into w.
  *reinterpret_cast<gmres::Cycle*>(host.data()) = c;
  double* host_g = host.data() + kCycleDoubles;
  for (std::size_t i = 0; i <= k; ++i) host_g[i] = solver.g_[i];
  exec.copy_async(block.data(), exec.memory_space(), host.data(), MemorySpace::host(),
                  (kCycleDoubles + k + 1) * sizeof(double), 0);
  copy(exec, View<const T>(solver.basis(0)), solver.w_.view());
  // The reductions' scratch at its largest before the capture (a capture may not allocate).
  exec.scratch(cuda::block_dot_scratch<T>(n, m + 1));
  auto* cycle = reinterpret_cast<gmres::Cycle*>(block.data());
  const gmres::Columns on_device = columns(block.data(), m);
  T *w = solver.w_.data(), *z = solver.z_.data(), *basis = solver.basis_.data();
  T *pass1 = solver.scalars_.data(), *pass2 = pass1 + second;
  const std::size_t stride = solver.stride_;
  const bool ran = graphs.run_while(exec, {basis, exec.scratch(0)}, [&](unsigned long long handle) {
    solver.m_->apply(View<const T>(w, n, exec.memory_space()), View<T>(z, n, exec.memory_space()));
    solver.a_->apply(View<const T>(z, n, exec.memory_space()), View<T>(w, n, exec.memory_space()));
    cuda::block_dot_counted(exec, basis, stride, m - 1, &cycle->j, w, n, pass1);
    cuda::subtract_combination_counted(exec, basis, stride, &cycle->j, pass1, w, n);
    cuda::block_dot_counted(exec, basis, stride, m - 1, &cycle->j, w, n, pass2);
    cuda::subtract_combination_counted(exec, basis, stride, &cycle->j, pass2, w, n);
    cuda::gmres_decide(exec, cycle, on_device, pass1, pass2, handle);
    cuda::gmres_scale_store(exec, cycle, w, basis, stride, n);
  });
  if (!ran) return false;
  // The Cycle, g and H back (one wait).
  exec.copy(host.data(), MemorySpace::host(), block.data(), exec.memory_space(),
            (kCycleDoubles + (k + 1) + (k + 1) * k) * sizeof(double));
  c = *reinterpret_cast<const gmres::Cycle*>(host.data());
  const gmres::Columns back = columns(host.data(), m);
  for (std::size_t i = 0; i <= k; ++i) solver.g_[i] = back.g[i];
  std::copy(back.h, back.h + (k + 1) * k, solver.hessenberg_.begin());
  return true;
#else
  return false;
#endif
}

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
GmresSolver<T>::~GmresSolver() = default;

template <class T>
bool GmresSolver<T>::device_loop_ready() const {
  if (!options_.device_loop || !options_.gmres_device_loop || a_->executor()->backend() != Backend::cuda) return false;
  // The device's Gram-Schmidt is the executor's own block dot: a distributed space keeps the host loop.
  return VOLTAIC_HAS_CUDA && &a_->space() == &VectorSpace<T>::local() && a_->stream_ordered() && m_->stream_ordered();
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
  const std::size_t second = static_cast<std::size_t>(m) + 2;
  const bool on_device = device_loop_ready();
  device_runs_ = 0;
  if (on_device && !device_loop_) device_loop_ = std::make_unique<DeviceLoop>(a_->executor(), m);

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
    gmres::Cycle c{0,
                   0,
                   m,
                   it,
                   options_.max_iterations,
                   gmres::kGoOn,
                   0,
                   0,
                   tol,
                   0.0,
                   static_cast<double>(std::numeric_limits<T>::epsilon())};
    const gmres::Columns columns{hessenberg_.data(), cosines_.data(), sines_.data(), g_.data()};
    int ended = gmres::kGoOn;
    if (on_device && it < options_.max_iterations && device_loop_->run(*this, c)) {
      ++device_runs_;
      ended = c.stop;
    } else {
      for (; c.j < m && c.iterations < options_.max_iterations; ++c.j) {
        const int j = c.j;
        const View<T> v_next = basis(j + 1);
        m_->apply(View<const T>(basis(j)), z);
        a_->apply(View<const T>(z), v_next);
        // CGS2: pass 1 with w . w in the same batch (w is the block's vector
        // j + 1; ||w|| is the scale of the breakdown test), pass 2 (what
        // rounding left of the basis directions) with w1 . w1 of the once
        // orthogonalised w1 in its batch; each pass's coefficients applied
        // where they lie, one read of all. Two reductions an iteration: the
        // new norm is Pythagoras's (gmres::column).
        const View<const T> basis_block = View<const T>(basis_.view());
        const View<T> pass1 = scalars_.view().subview(0, j + 2), pass2 = scalars_.view().subview(second, j + 2);
        space.block_dot(exec, basis_block, stride_, j + 2, View<const T>(v_next), pass1);
        subtract_combination(exec, basis_block, stride_, j + 1, View<const T>(pass1), v_next);
        space.block_dot(exec, basis_block, stride_, j + 2, View<const T>(v_next), pass2);
        subtract_combination(exec, basis_block, stride_, j + 1, View<const T>(pass2), v_next);
        read_scalars(static_cast<int>(second) + j + 2);
        ended = gmres::column(c, columns, s, s + second);
        if (ended != gmres::kGoOn) break;
        scale(exec, static_cast<T>(c.inverse), v_next);
      }
    }
    it = c.iterations;
    const int k = c.k;  // columns of H in the least-squares problem
    bool stop = false;
    if (ended == gmres::kNonFinite) {
      reason = StopReason::non_finite;
      stop = true;
    } else if (ended == gmres::kBreakdown) {  // singular least-squares problem
      reason = StopReason::breakdown;
      stop = true;
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
