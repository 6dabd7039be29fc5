#include "solver/anderson_mixing.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "solver/mixing_solve.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

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
  if (!mixing::solve_normal_equations(a.data(), b.data(), m)) {  // no usable history: start again from this point
    count_ = 1;
    return;
  }
  for (int i = 0; i < m; ++i) axpy(e, -b[i], dg_[i].const_view(), next);
}

}  // namespace voltaic
