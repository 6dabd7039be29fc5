// CPU backend of the element-wise BLAS-1 operations: plain loops over the
// shared point operations of blas1_ops.hpp.
#include <cstring>

#include "../linalg/blas1_kernels.hpp"
#include "fma_clones.hpp"
#include "voltaic/linalg/blas1_ops.hpp"

namespace voltaic::cpu {

template <class T>
void fill(T* x, std::size_t n, T value) {
  for (std::size_t i = 0; i < n; ++i) x[i] = value;
}

template <class T>
void copy(const T* x, T* y, std::size_t n) {
  if (n > 0 && x != y) std::memmove(y, x, n * sizeof(T));
}

template <class T>
VOLTAIC_FMA_CLONES void axpy(T alpha, const T* x, T* y, std::size_t n) {
  const ops::Axpy<T> op{alpha};
  for (std::size_t i = 0; i < n; ++i) y[i] = op(x[i], y[i]);
}

template <class T>
VOLTAIC_FMA_CLONES void axpby(T alpha, const T* x, T beta, T* y, std::size_t n) {
  const ops::Axpby<T> op{alpha, beta};
  for (std::size_t i = 0; i < n; ++i) y[i] = op(x[i], y[i]);
}

template <class T>
void scale(T alpha, T* x, std::size_t n) {
  const ops::Scale<T> op{alpha};
  for (std::size_t i = 0; i < n; ++i) x[i] = op(x[i]);
}

template <class T>
void multiply(const T* x, const T* y, T* z, std::size_t n) {
  const ops::Multiply<T> op{};
  for (std::size_t i = 0; i < n; ++i) z[i] = op(x[i], y[i]);
}

template <class To, class From>
void convert(const From* x, To* y, std::size_t n) {
  const ops::Convert<To> op{};
  for (std::size_t i = 0; i < n; ++i) y[i] = op(x[i]);
}

void convert_scaled(double alpha, const double* x, float* y, std::size_t n) {
  const ops::ScaledConvert<float, double> op{alpha};
  for (std::size_t i = 0; i < n; ++i) y[i] = op(x[i]);
}

VOLTAIC_FMA_CLONES void axpy_widened(double alpha, const float* x, double* y, std::size_t n) {
  const ops::WidenedAxpy<double> op{alpha};
  for (std::size_t i = 0; i < n; ++i) y[i] = op(x[i], y[i]);
}

#define VOLTAIC_INSTANTIATE(T)                             \
  template void fill<T>(T*, std::size_t, T);               \
  template void copy<T>(const T*, T*, std::size_t);        \
  template void axpy<T>(T, const T*, T*, std::size_t);     \
  template void axpby<T>(T, const T*, T, T*, std::size_t); \
  template void scale<T>(T, T*, std::size_t);              \
  template void multiply<T>(const T*, const T*, T*, std::size_t);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE
template void convert<float, double>(const double*, float*, std::size_t);
template void convert<double, float>(const float*, double*, std::size_t);

}  // namespace voltaic::cpu
