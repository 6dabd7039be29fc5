// Front end of the BLAS-1 operations: checks arguments once, then dispatches
// to the CPU loops or the CUDA kernels.
#include "voltaic/linalg/blas1.hpp"

#include <string>

#include "blas1_kernels.hpp"
#include "core/backend_dispatch.hpp"
#include "voltaic/config.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1_ops.hpp"

namespace voltaic {

namespace {

template <class V>
void require_space(const Executor& exec, const V& v, const char* op, const char* arg) {
  if (v.space() != exec.memory_space()) {
    throw ExecutorMismatch(op, std::string("voltaic::") + op,
                           std::string("argument '") + arg + "' is in " + to_string(v.space()) +
                               " memory but the executor " + exec.name() + " works in " +
                               to_string(exec.memory_space()) + " memory; clone it there first");
  }
}

template <class A, class B>
void require_same_size(const A& a, const B& b, const char* op, const char* an, const char* bn) {
  if (a.size() != b.size()) {
    throw SizeMismatch(op, std::string("voltaic::") + op,
                       std::string("'") + an + "' has " + std::to_string(a.size()) + " elements but '" + bn + "' has " +
                           std::to_string(b.size()));
  }
}

template <class T>
void fill_impl(const Executor& exec, View<T> x, T value) {
  require_space(exec, x, "fill", "x");
  if (detail::on_cpu(exec, "voltaic::blas1")) return cpu::fill(x.data(), x.size(), value);
  VOLTAIC_ON_CUDA(cuda::fill(detail::as_cuda(exec), x.data(), x.size(), value));
}

template <class T>
void copy_impl(const Executor& exec, View<const T> x, View<T> y) {
  require_same_size(x, y, "copy", "x", "y");
  require_space(exec, x, "copy", "x");
  require_space(exec, y, "copy", "y");
  if (detail::on_cpu(exec, "voltaic::blas1")) return cpu::copy(x.data(), y.data(), x.size());
  VOLTAIC_ON_CUDA(cuda::copy(detail::as_cuda(exec), x.data(), y.data(), x.size()));
}

template <class T>
void axpby_impl(const Executor& exec, T alpha, View<const T> x, T beta, View<T> y, bool beta_is_one) {
  const char* op = beta_is_one ? "axpy" : "axpby";
  require_same_size(x, y, op, "x", "y");
  require_space(exec, x, op, "x");
  require_space(exec, y, op, "y");
  if (detail::on_cpu(exec, "voltaic::blas1")) {
    return beta_is_one ? cpu::axpy(alpha, x.data(), y.data(), x.size())
                       : cpu::axpby(alpha, x.data(), beta, y.data(), x.size());
  }
  VOLTAIC_ON_CUDA(beta_is_one ? cuda::axpy(detail::as_cuda(exec), alpha, x.data(), y.data(), x.size())
                              : cuda::axpby(detail::as_cuda(exec), alpha, x.data(), beta, y.data(), x.size()));
}

template <class T>
void scale_impl(const Executor& exec, T alpha, View<T> x) {
  require_space(exec, x, "scale", "x");
  if (detail::on_cpu(exec, "voltaic::blas1")) return cpu::scale(alpha, x.data(), x.size());
  VOLTAIC_ON_CUDA(cuda::scale(detail::as_cuda(exec), alpha, x.data(), x.size()));
}

template <class T>
void multiply_impl(const Executor& exec, View<const T> x, View<const T> y, View<T> z) {
  require_same_size(x, y, "multiply", "x", "y");
  require_same_size(x, z, "multiply", "x", "z");
  require_space(exec, x, "multiply", "x");
  require_space(exec, y, "multiply", "y");
  require_space(exec, z, "multiply", "z");
  if (detail::on_cpu(exec, "voltaic::blas1")) return cpu::multiply(x.data(), y.data(), z.data(), x.size());
  VOLTAIC_ON_CUDA(cuda::multiply(detail::as_cuda(exec), x.data(), y.data(), z.data(), x.size()));
}

template <class To, class From>
void convert_impl(const Executor& exec, View<const From> x, View<To> y) {
  require_same_size(x, y, "convert", "x", "y");
  require_space(exec, x, "convert", "x");
  require_space(exec, y, "convert", "y");
  if (detail::on_cpu(exec, "voltaic::blas1")) return cpu::convert<To, From>(x.data(), y.data(), x.size());
  VOLTAIC_ON_CUDA((cuda::convert<To, From>(detail::as_cuda(exec), x.data(), y.data(), x.size())));
}

void convert_scaled_impl(const Executor& exec, double alpha, View<const double> x, View<float> y) {
  require_same_size(x, y, "convert_scaled", "x", "y");
  require_space(exec, x, "convert_scaled", "x");
  require_space(exec, y, "convert_scaled", "y");
  if (detail::on_cpu(exec, "voltaic::blas1")) return cpu::convert_scaled(alpha, x.data(), y.data(), x.size());
  VOLTAIC_ON_CUDA(cuda::convert_scaled(detail::as_cuda(exec), alpha, x.data(), y.data(), x.size()));
}

void axpy_widened_impl(const Executor& exec, double alpha, View<const float> x, View<double> y) {
  require_same_size(x, y, "axpy", "x", "y");
  require_space(exec, x, "axpy", "x");
  require_space(exec, y, "axpy", "y");
  if (detail::on_cpu(exec, "voltaic::blas1")) return cpu::axpy_widened(alpha, x.data(), y.data(), x.size());
  VOLTAIC_ON_CUDA(cuda::axpy_widened(detail::as_cuda(exec), alpha, x.data(), y.data(), x.size()));
}

constexpr const char* name_of(Reduction r) {
  return r == Reduction::dot ? "dot" : r == Reduction::nrm2 ? "nrm2" : "max_abs";
}

/// Checks the inputs of reduction R; y is x itself for one-argument reductions.
template <Reduction R, class T>
void check_reduction(const Executor& exec, View<const T> x, View<const T> y) {
  require_space(exec, x, name_of(R), "x");
  if (R == Reduction::dot) {
    require_same_size(x, y, name_of(R), "x", "y");
    require_space(exec, y, name_of(R), "y");
  }
}

template <Reduction R, class T>
void reduce_impl(const Executor& exec, View<const T> x, View<const T> y, View<T> result,
                 [[maybe_unused]] LaunchConfig launch) {
  check_reduction<R>(exec, x, y);
  require_space(exec, result, name_of(R), "result");
  if (result.empty()) {
    throw SizeMismatch(name_of(R), std::string("voltaic::") + name_of(R), "'result' must hold at least 1 element");
  }
  if (detail::on_cpu(exec, "voltaic::blas1")) {
    result[0] = cpu::reduce<R>(x.data(), y.data(), x.size());
    return;
  }
  VOLTAIC_ON_CUDA(cuda::reduce<R>(detail::as_cuda(exec), x.data(), y.data(), x.size(), result.data(), launch));
}

template <Reduction R, class T>
T reduce_to_host_impl(const Executor& exec, View<const T> x, View<const T> y, LaunchConfig launch) {
  check_reduction<R>(exec, x, y);
  if (detail::on_cpu(exec, "voltaic::blas1")) return cpu::reduce<R>(x.data(), y.data(), x.size());
#if VOLTAIC_HAS_CUDA
  return cuda::reduce_to_host<R>(detail::as_cuda(exec), x.data(), y.data(), x.size(), launch);
#else
  (void)launch;
  return T(0);
#endif
}

/// The checks of a call on a basis: ys_i (i < count, n values from i *
/// stride) inside ys, and `per` (one value per basis vector: the results or
/// the coefficients, named per_name) holding count; both in exec's memory.
template <class T, class P>
void require_basis(const Executor& exec, View<const T> ys, std::size_t stride, int count, std::size_t n, const P& per,
                   const char* per_name, const char* op) {
  const std::size_t need = count <= 0 ? 0 : static_cast<std::size_t>(count - 1) * stride + n;
  if (count < 0 || (count > 1 && stride < n) || need > ys.size()) {
    throw SizeMismatch(op, std::string("voltaic::") + op,
                       "count = " + std::to_string(count) + " vectors of " + std::to_string(n) + " at stride " +
                           std::to_string(stride) + " need " + std::to_string(need) + " elements of 'ys', which has " +
                           std::to_string(ys.size()) + " (count >= 0, stride >= the vector's size)");
  }
  if (per.size() < static_cast<std::size_t>(count)) {
    throw SizeMismatch(op, std::string("voltaic::") + op,
                       std::string("'") + per_name + "' has " + std::to_string(per.size()) +
                           " elements for count = " + std::to_string(count) + " basis vectors");
  }
  require_space(exec, ys, op, "ys");
  require_space(exec, per, op, per_name);
}

template <class T>
void block_dot_impl(const Executor& exec, View<const T> ys, std::size_t stride, int count, View<const T> x,
                    View<T> result) {
  require_basis(exec, ys, stride, count, x.size(), result, "result", "block_dot");
  require_space(exec, x, "block_dot", "x");
  if (detail::on_cpu(exec, "voltaic::blas1")) {
    for (int i = 0; i < count; ++i)
      result[i] = cpu::reduce<Reduction::dot>(ys.data() + static_cast<std::size_t>(i) * stride, x.data(), x.size());
    return;
  }
  VOLTAIC_ON_CUDA(cuda::block_dot(detail::as_cuda(exec), ys.data(), stride, count, x.data(), x.size(), result.data()));
}

template <class T>
void subtract_combination_impl(const Executor& exec, View<const T> ys, std::size_t stride, int count, View<const T> c,
                               View<T> y) {
  require_basis(exec, ys, stride, count, y.size(), c, "c", "subtract_combination");
  require_space(exec, y, "subtract_combination", "y");
  if (detail::on_cpu(exec, "voltaic::blas1")) {
    for (int i = 0; i < count; ++i)
      cpu::axpy(-c[i], ys.data() + static_cast<std::size_t>(i) * stride, y.data(), y.size());
    return;
  }
  VOLTAIC_ON_CUDA(
      cuda::subtract_combination(detail::as_cuda(exec), ys.data(), stride, count, c.data(), y.data(), y.size()));
}

template <class T>
void update_pair_impl(const Executor& exec, double numerator, View<const T> denominator, View<const T> u,
                      View<const T> v, View<T> x, View<T> y) {
  require_same_size(u, x, "update_pair", "u", "x");
  require_same_size(v, y, "update_pair", "v", "y");
  require_same_size(u, v, "update_pair", "u", "v");
  require_space(exec, denominator, "update_pair", "denominator");
  require_space(exec, u, "update_pair", "u");
  require_space(exec, v, "update_pair", "v");
  require_space(exec, x, "update_pair", "x");
  require_space(exec, y, "update_pair", "y");
  if (denominator.empty()) {
    throw SizeMismatch("update_pair", "voltaic::update_pair", "'denominator' must hold at least 1 element");
  }
  if (detail::on_cpu(exec, "voltaic::blas1")) {
    const T a = ops::quotient_or_zero<T>(numerator, denominator[0]);
    if (a == T(0)) return;
    cpu::axpy(a, u.data(), x.data(), x.size());
    cpu::axpy(-a, v.data(), y.data(), y.size());
    return;
  }
  VOLTAIC_ON_CUDA(cuda::update_pair(detail::as_cuda(exec), numerator, denominator.data(), u.data(), v.data(), x.data(),
                                    y.data(), x.size()));
}

template <class T>
void axpy_ratio_impl(const Executor& exec, View<const T> numerator, View<const T> denominator, View<const T> x,
                     View<T> y) {
  require_same_size(x, y, "axpy_ratio", "x", "y");
  require_space(exec, numerator, "axpy_ratio", "numerator");
  require_space(exec, denominator, "axpy_ratio", "denominator");
  require_space(exec, x, "axpy_ratio", "x");
  require_space(exec, y, "axpy_ratio", "y");
  if (numerator.empty() || denominator.empty()) {
    throw SizeMismatch("axpy_ratio", "voltaic::axpy_ratio", "'numerator' and 'denominator' need an element each");
  }
  if (detail::on_cpu(exec, "voltaic::blas1")) {
    const ops::Ratio<T> a = ops::ratio_of(numerator[0], denominator[0]);
    if (a.apply) cpu::axpy(a.value, x.data(), y.data(), y.size());
    return;
  }
  VOLTAIC_ON_CUDA(
      cuda::axpy_ratio(detail::as_cuda(exec), numerator.data(), denominator.data(), x.data(), y.data(), y.size()));
}

}  // namespace

void axpy_ratio(const Executor& e, View<const float> num, View<const float> den, View<const float> x, View<float> y) {
  axpy_ratio_impl(e, num, den, x, y);
}
void axpy_ratio(const Executor& e, View<const double> num, View<const double> den, View<const double> x,
                View<double> y) {
  axpy_ratio_impl(e, num, den, x, y);
}

void update_pair(const Executor& e, double num, View<const float> den, View<const float> u, View<const float> v,
                 View<float> x, View<float> y) {
  update_pair_impl(e, num, den, u, v, x, y);
}
void update_pair(const Executor& e, double num, View<const double> den, View<const double> u, View<const double> v,
                 View<double> x, View<double> y) {
  update_pair_impl(e, num, den, u, v, x, y);
}

void block_dot(const Executor& e, View<const float> ys, std::size_t stride, int count, View<const float> x,
               View<float> r) {
  block_dot_impl(e, ys, stride, count, x, r);
}
void block_dot(const Executor& e, View<const double> ys, std::size_t stride, int count, View<const double> x,
               View<double> r) {
  block_dot_impl(e, ys, stride, count, x, r);
}
void subtract_combination(const Executor& e, View<const float> ys, std::size_t stride, int count, View<const float> c,
                          View<float> y) {
  subtract_combination_impl(e, ys, stride, count, c, y);
}
void subtract_combination(const Executor& e, View<const double> ys, std::size_t stride, int count, View<const double> c,
                          View<double> y) {
  subtract_combination_impl(e, ys, stride, count, c, y);
}

void fill(const Executor& e, View<float> x, float v) { fill_impl(e, x, v); }
void fill(const Executor& e, View<double> x, double v) { fill_impl(e, x, v); }
void copy(const Executor& e, View<const float> x, View<float> y) { copy_impl(e, x, y); }
void copy(const Executor& e, View<const double> x, View<double> y) { copy_impl(e, x, y); }
void axpy(const Executor& e, float a, View<const float> x, View<float> y) { axpby_impl(e, a, x, 1.0f, y, true); }
void axpy(const Executor& e, double a, View<const double> x, View<double> y) { axpby_impl(e, a, x, 1.0, y, true); }
void axpby(const Executor& e, float a, View<const float> x, float b, View<float> y) {
  axpby_impl(e, a, x, b, y, false);
}
void axpby(const Executor& e, double a, View<const double> x, double b, View<double> y) {
  axpby_impl(e, a, x, b, y, false);
}
void scale(const Executor& e, float a, View<float> x) { scale_impl(e, a, x); }
void scale(const Executor& e, double a, View<double> x) { scale_impl(e, a, x); }
void multiply(const Executor& e, View<const float> x, View<const float> y, View<float> z) { multiply_impl(e, x, y, z); }
void multiply(const Executor& e, View<const double> x, View<const double> y, View<double> z) {
  multiply_impl(e, x, y, z);
}
void convert(const Executor& e, View<const double> x, View<float> y) { convert_impl<float, double>(e, x, y); }
void convert(const Executor& e, View<const float> x, View<double> y) { convert_impl<double, float>(e, x, y); }
void convert_scaled(const Executor& e, double a, View<const double> x, View<float> y) {
  convert_scaled_impl(e, a, x, y);
}
void axpy(const Executor& e, double a, View<const float> x, View<double> y) { axpy_widened_impl(e, a, x, y); }

float dot(const Executor& e, View<const float> x, View<const float> y, LaunchConfig l) {
  return reduce_to_host_impl<Reduction::dot>(e, x, y, l);
}
double dot(const Executor& e, View<const double> x, View<const double> y, LaunchConfig l) {
  return reduce_to_host_impl<Reduction::dot>(e, x, y, l);
}
void dot(const Executor& e, View<const float> x, View<const float> y, View<float> r, LaunchConfig l) {
  reduce_impl<Reduction::dot>(e, x, y, r, l);
}
void dot(const Executor& e, View<const double> x, View<const double> y, View<double> r, LaunchConfig l) {
  reduce_impl<Reduction::dot>(e, x, y, r, l);
}
float nrm2(const Executor& e, View<const float> x, LaunchConfig l) {
  return reduce_to_host_impl<Reduction::nrm2>(e, x, x, l);
}
double nrm2(const Executor& e, View<const double> x, LaunchConfig l) {
  return reduce_to_host_impl<Reduction::nrm2>(e, x, x, l);
}
void nrm2(const Executor& e, View<const float> x, View<float> r, LaunchConfig l) {
  reduce_impl<Reduction::nrm2>(e, x, x, r, l);
}
void nrm2(const Executor& e, View<const double> x, View<double> r, LaunchConfig l) {
  reduce_impl<Reduction::nrm2>(e, x, x, r, l);
}
float max_abs(const Executor& e, View<const float> x, LaunchConfig l) {
  return reduce_to_host_impl<Reduction::max_abs>(e, x, x, l);
}
double max_abs(const Executor& e, View<const double> x, LaunchConfig l) {
  return reduce_to_host_impl<Reduction::max_abs>(e, x, x, l);
}
void max_abs(const Executor& e, View<const float> x, View<float> r, LaunchConfig l) {
  reduce_impl<Reduction::max_abs>(e, x, x, r, l);
}
void max_abs(const Executor& e, View<const double> x, View<double> r, LaunchConfig l) {
  reduce_impl<Reduction::max_abs>(e, x, x, r, l);
}

}  // namespace voltaic
