// CUDA kernels of the element-wise BLAS-1 operations. Each moves 16 bytes per
// load when every pointer allows it, and calls the same point operation
// (blas1_ops.hpp) as the CPU loop.
#include "core/cuda_check.hpp"
#include "linalg/blas1_kernels.hpp"
#include "vector_access.cuh"
#include "voltaic/linalg/blas1_ops.hpp"

namespace voltaic::cuda {

namespace {

constexpr int kBlock = 256;

/// out[i] = op(), in packs of V.
template <int V, class Out, class Op>
__global__ void generate_kernel(std::size_t n, Op op, Out* out) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t packs = n / V;
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::size_t p = t; p < packs; p += stride) {
    Pack<Out, V> o;
#pragma unroll
    for (int v = 0; v < V; ++v) o.v[v] = op();
    store_pack<V>(out, p, o);
  }
  for (std::size_t i = packs * V + t; i < n; i += stride) out[i] = op();
}

/// out[i] = op(a[i]); out may be a.
template <int V, class Out, class A, class Op>
__global__ void map1_kernel(std::size_t n, Op op, const A* a, Out* out) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t packs = n / V;
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::size_t p = t; p < packs; p += stride) {
    const Pack<A, V> x = load_pack<V>(a, p);
    Pack<Out, V> o;
#pragma unroll
    for (int v = 0; v < V; ++v) o.v[v] = op(x.v[v]);
    store_pack<V>(out, p, o);
  }
  for (std::size_t i = packs * V + t; i < n; i += stride) out[i] = op(a[i]);
}

/// out[i] = op(a[i], b[i]) over this thread's share; out may be b. a may be
/// of another precision than b and out (a widening update).
template <int V, class A, class T, class Op>
__device__ void map2_range(std::size_t n, const Op& op, const A* a, const T* b, T* out) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t packs = n / V;
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::size_t p = t; p < packs; p += stride) {
    const Pack<A, V> x = load_pack<V>(a, p);
    const Pack<T, V> y = load_pack<V>(b, p);
    Pack<T, V> o;
#pragma unroll
    for (int v = 0; v < V; ++v) o.v[v] = op(x.v[v], y.v[v]);
    store_pack<V>(out, p, o);
  }
  for (std::size_t i = packs * V + t; i < n; i += stride) out[i] = op(a[i], b[i]);
}

template <int V, class A, class T, class Op>
__global__ void map2_kernel(std::size_t n, Op op, const A* a, const T* b, T* out) {
  map2_range<V>(n, op, a, b, out);
}

/// y = alpha x + beta y, beta read from device memory (a device loop's scalar)
/// and rounded to T: axpby's bits for that beta.
template <int V, class T>
__global__ void axpby_device_beta_kernel(std::size_t n, T alpha, const double* beta, const T* x, T* y) {
  map2_range<V>(n, ops::Axpby<T>{alpha, static_cast<T>(*beta)}, x, y, y);
}

/// y -= sum_i c[i] ys_i, i in order, in packs of V: the bits of count axpy
/// calls with alpha = -c[i], y read and written once.
template <int V, class T>
__global__ void combination_kernel(std::size_t n, int count, std::size_t stride, const T* ys, const T* c, T* y,
                                   const int* last_row) {
  if (last_row) count = *last_row + 1;  // rows 0 .. *last_row, read when the kernel runs
  const std::size_t grid_stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t packs = n / V;
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::size_t p = t; p < packs; p += grid_stride) {
    Pack<T, V> o = load_pack<V>(y, p);
    for (int i = 0; i < count; ++i) {
      const ops::Axpy<T> op{-c[i]};
      const Pack<T, V> x = load_pack<V>(ys + i * stride, p);
#pragma unroll
      for (int v = 0; v < V; ++v) o.v[v] = op(x.v[v], o.v[v]);
    }
    store_pack<V>(y, p, o);
  }
  for (std::size_t e = packs * V + t; e < n; e += grid_stride) {
    T o = y[e];
    for (int i = 0; i < count; ++i) o = ops::Axpy<T>{-c[i]}(ys[i * stride + e], o);
    y[e] = o;
  }
}

/// y += a x, a = numerator / denominator read on the device (ops::ratio_of).
template <int V, class T>
__global__ void axpy_ratio_kernel(std::size_t n, const T* numerator, const T* denominator, const T* x, T* y) {
  const ops::Ratio<T> a = ops::ratio_of(*numerator, *denominator);
  if (!a.apply) return;
  map2_range<V>(n, ops::Axpy<T>{a.value}, x, y, y);
}

/// The numerator of update_pair: a value, or a device loop's scalar.
__device__ inline double numerator_of(double value) { return value; }
__device__ inline double numerator_of(const double* value) { return *value; }

/// x += a u, y -= a v in packs of V, a from the device's denominator (0: no change).
template <int V, class T, class Numerator>
__global__ void update_pair_kernel(std::size_t n, Numerator numerator, const T* denominator, const T* u, const T* v,
                                   T* x, T* y) {
  const T a = ops::quotient_or_zero<T>(numerator_of(numerator), *denominator);
  if (a == T(0)) return;
  const ops::Axpy<T> plus{a}, minus{-a};
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t packs = n / V;
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::size_t p = t; p < packs; p += stride) {
    const Pack<T, V> pu = load_pack<V>(u, p), pv = load_pack<V>(v, p);
    Pack<T, V> px = load_pack<V>(x, p), py = load_pack<V>(y, p);
#pragma unroll
    for (int k = 0; k < V; ++k) {
      px.v[k] = plus(pu.v[k], px.v[k]);
      py.v[k] = minus(pv.v[k], py.v[k]);
    }
    store_pack<V>(x, p, px);
    store_pack<V>(y, p, py);
  }
  for (std::size_t i = packs * V + t; i < n; i += stride) {
    x[i] = plus(u[i], x[i]);
    y[i] = minus(v[i], y[i]);
  }
}

template <class T>
constexpr int kVecOf = static_cast<int>(16 / sizeof(T));

/// Launches `kernel<V>` with the vector width when every pointer allows it, else scalar.
#define VOLTAIC_LAUNCH_VECTORISED(V, kernel, n, ...)                                      \
  do {                                                                                    \
    if (n == 0) return;                                                                   \
    cudaStream_t s = exec.stream(0);                                                      \
    exec.activate();                                                                      \
    if (vector_ok) {                                                                      \
      kernel<V><<<grid_for(exec, (n) / (V) + 1, kBlock), kBlock, 0, s>>>(n, __VA_ARGS__); \
    } else {                                                                              \
      kernel<1><<<grid_for(exec, n, kBlock), kBlock, 0, s>>>(n, __VA_ARGS__);             \
    }                                                                                     \
    VOLTAIC_LAUNCH_CHECK(s, kernel);                                                      \
  } while (0)

}  // namespace

template <class T>
void fill(const CudaExecutor& exec, T* x, std::size_t n, T value) {
  const bool vector_ok = aligned_to(16, x);
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, generate_kernel, n, ops::Constant<T>{value}, x);
}

template <class T>
void copy(const CudaExecutor& exec, const T* x, T* y, std::size_t n) {
  const bool vector_ok = aligned_to(16, x, y);
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, map1_kernel, n, ops::Identity<T>{}, x, y);
}

template <class T>
void axpy(const CudaExecutor& exec, T alpha, const T* x, T* y, std::size_t n) {
  const bool vector_ok = aligned_to(16, x, y);
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, map2_kernel, n, ops::Axpy<T>{alpha}, x, y, y);
}

template <class T>
void axpby(const CudaExecutor& exec, T alpha, const T* x, T beta, T* y, std::size_t n) {
  const bool vector_ok = aligned_to(16, x, y);
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, map2_kernel, n, ops::Axpby<T>{alpha, beta}, x, y, y);
}

template <class T>
void scale(const CudaExecutor& exec, T alpha, T* x, std::size_t n) {
  const bool vector_ok = aligned_to(16, x);
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, map1_kernel, n, ops::Scale<T>{alpha}, x, x);
}

template <class T>
void multiply(const CudaExecutor& exec, const T* x, const T* y, T* z, std::size_t n) {
  const bool vector_ok = aligned_to(16, x, y, z);
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, map2_kernel, n, ops::Multiply<T>{}, x, y, z);
}

template <class T>
void subtract_combination(const CudaExecutor& exec, const T* ys, std::size_t stride, int count, const T* c, T* y,
                          std::size_t n) {
  if (count == 0) return;
  const bool vector_ok = aligned_to(16, ys, y) && (stride * sizeof(T)) % 16 == 0;
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, combination_kernel, n, count, stride, ys, c, y, nullptr);
}

template <class T>
void subtract_combination_counted(const CudaExecutor& exec, const T* ys, std::size_t stride, const int* last,
                                  const T* c, T* y, std::size_t n) {
  const bool vector_ok = aligned_to(16, ys, y) && (stride * sizeof(T)) % 16 == 0;
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, combination_kernel, n, 0, stride, ys, c, y, last);
}

template <class T>
void update_pair(const CudaExecutor& exec, double numerator, const T* denominator, const T* u, const T* v, T* x, T* y,
                 std::size_t n) {
  const bool vector_ok = aligned_to(16, u, v, x, y);
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, update_pair_kernel, n, numerator, denominator, u, v, x, y);
}

template <class T>
void axpy_ratio(const CudaExecutor& exec, const T* numerator, const T* denominator, const T* x, T* y, std::size_t n) {
  const bool vector_ok = aligned_to(16, x, y);
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, axpy_ratio_kernel, n, numerator, denominator, x, y);
}

template <class T>
void axpby(const CudaExecutor& exec, T alpha, const T* x, const double* beta, T* y, std::size_t n) {
  const bool vector_ok = aligned_to(16, x, y);
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, axpby_device_beta_kernel, n, alpha, beta, x, y);
}

template <class T>
void update_pair(const CudaExecutor& exec, const double* numerator, const T* denominator, const T* u, const T* v, T* x,
                 T* y, std::size_t n) {
  const bool vector_ok = aligned_to(16, u, v, x, y);
  VOLTAIC_LAUNCH_VECTORISED(kVecOf<T>, update_pair_kernel, n, numerator, denominator, u, v, x, y);
}

template <class To, class From>
void convert(const CudaExecutor& exec, const From* x, To* y, std::size_t n) {
  // The wider type sets the width: 16-byte accesses on its side, 8 on the other.
  const bool vector_ok = aligned_to(16, x, y);
  VOLTAIC_LAUNCH_VECTORISED(2, map1_kernel, n, ops::Convert<To>{}, x, y);
}

void convert_scaled(const CudaExecutor& exec, double alpha, const double* x, float* y, std::size_t n) {
  const bool vector_ok = aligned_to(16, x, y);  // convert()'s widths
  VOLTAIC_LAUNCH_VECTORISED(2, map1_kernel, n, ops::ScaledConvert<float, double>{alpha}, x, y);
}

void axpy_widened(const CudaExecutor& exec, double alpha, const float* x, double* y, std::size_t n) {
  const bool vector_ok = aligned_to(16, x, y);
  VOLTAIC_LAUNCH_VECTORISED(2, map2_kernel, n, ops::WidenedAxpy<double>{alpha}, x, y, y);
}

#define VOLTAIC_INSTANTIATE(T)                                                                                         \
  template void fill<T>(const CudaExecutor&, T*, std::size_t, T);                                                      \
  template void copy<T>(const CudaExecutor&, const T*, T*, std::size_t);                                               \
  template void axpy<T>(const CudaExecutor&, T, const T*, T*, std::size_t);                                            \
  template void axpby<T>(const CudaExecutor&, T, const T*, T, T*, std::size_t);                                        \
  template void scale<T>(const CudaExecutor&, T, T*, std::size_t);                                                     \
  template void multiply<T>(const CudaExecutor&, const T*, const T*, T*, std::size_t);                                 \
  template void update_pair<T>(const CudaExecutor&, double, const T*, const T*, const T*, T*, T*, std::size_t);        \
  template void axpy_ratio<T>(const CudaExecutor&, const T*, const T*, const T*, T*, std::size_t);                     \
  template void axpby<T>(const CudaExecutor&, T, const T*, const double*, T*, std::size_t);                            \
  template void update_pair<T>(const CudaExecutor&, const double*, const T*, const T*, const T*, T*, T*, std::size_t); \
  template void subtract_combination<T>(const CudaExecutor&, const T*, std::size_t, int, const T*, T*, std::size_t);   \
  template void subtract_combination_counted<T>(const CudaExecutor&, const T*, std::size_t, const int*, const T*, T*,  \
                                                std::size_t);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE
template void convert<float, double>(const CudaExecutor&, const double*, float*, std::size_t);
template void convert<double, float>(const CudaExecutor&, const float*, double*, std::size_t);

}  // namespace voltaic::cuda
