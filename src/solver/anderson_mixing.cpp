#include "solver/anderson_mixing.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

namespace {

/// Solves the small symmetric positive semi-definite system A y = b in place
/// by Cholesky with a relative Tikhonov shift (the columns of dF become
/// nearly dependent as the iteration converges); false when it breaks down.
bool solve_normal_equations(std::vector<double>& a, std::vector<double>& b, int m) {
  double trace = 0.0;
  for (int i = 0; i < m; ++i) trace += a[i * m + i];
  if (!(trace > 0.0) || !std::isfinite(trace)) return false;
  for (int i = 0; i < m; ++i) a[i * m + i] += 1e-12 * trace;
  for (int j = 0; j < m; ++j) {
    double d = a[j * m + j];
    for (int k = 0; k < j; ++k) d -= a[j * m + k] * a[j * m + k];
    if (!(d > 0.0)) return false;
    d = std::sqrt(d);
    a[j * m + j] = d;
    for (int i = j + 1; i < m; ++i) {
      double s = a[i * m + j];
      for (int k = 0; k < j; ++k) s -= a[i * m + k] * a[j * m + k];
      a[i * m + j] = s / d;
    }
  }
  for (int i = 0; i < m; ++i) {  // L y = b
    for (int k = 0; k < i; ++k) b[i] -= a[i * m + k] * b[k];
    b[i] /= a[i * m + i];
  }
  for (int i = m - 1; i >= 0; --i) {  // L^T x = y
    for (int k = i + 1; k < m; ++k) b[i] -= a[k * m + i] * b[k];
    b[i] /= a[i * m + i];
  }
  return true;
}

}  // namespace

AndersonMixing::AndersonMixing(std::shared_ptr<const Executor> exec, std::size_t n, int depth,
                               const VectorSpace<double>& space)
    : exec_(std::move(exec)), space_(space), depth_(std::max(depth, 1)) {
  f_ = Array<double>(exec_, n);
  f_last_ = Array<double>(exec_, n);
  g_last_ = Array<double>(exec_, n);
  for (int i = 0; i < depth_; ++i) {
    df_.emplace_back(exec_, n);
    dg_.emplace_back(exec_, n);
  }
}

void AndersonMixing::mix(View<const double> x, View<const double> g, View<double> next) {
  const Executor& e = *exec_;
  copy(e, g, f_.view());
  axpy(e, -1.0, x, f_.view());  // f = g - x
  if (count_ > 0) {             // the newest differences
    const int slot = (count_ - 1) % depth_;
    copy(e, f_.const_view(), df_[slot].view());
    axpy(e, -1.0, f_last_.const_view(), df_[slot].view());
    copy(e, g, dg_[slot].view());
    axpy(e, -1.0, g_last_.const_view(), dg_[slot].view());
  }
  copy(e, f_.const_view(), f_last_.view());
  copy(e, g, g_last_.view());
  copy(e, g, next);
  const int m = std::min(count_, depth_);
  ++count_;
  if (m == 0) return;
  std::vector<double> a(static_cast<std::size_t>(m * m)), b(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) {
    b[i] = space_.dot(e, df_[i].const_view(), f_.const_view());
    for (int j = 0; j <= i; ++j) a[i * m + j] = a[j * m + i] = space_.dot(e, df_[i].const_view(), df_[j].const_view());
  }
  if (!solve_normal_equations(a, b, m)) {  // no usable history: start again from this point
    count_ = 1;
    return;
  }
  for (int i = 0; i < m; ++i) axpy(e, -b[i], dg_[i].const_view(), next);
}

}  // namespace voltaic
