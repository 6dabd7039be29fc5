// The default vector space: the executor's BLAS-1 reductions.
#include "voltaic/linalg/vector_space.hpp"

#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

template <class T>
double VectorSpace<T>::dot(const Executor& exec, View<const T> x, View<const T> y) const {
  return voltaic::dot(exec, x, y);
}

template <class T>
void VectorSpace<T>::dot(const Executor& exec, View<const T> x, View<const T> y, View<T> result) const {
  voltaic::dot(exec, x, y, result);
}

template <class T>
void VectorSpace<T>::block_dot(const Executor& exec, View<const T> ys, std::size_t stride, int count, View<const T> x,
                               View<T> result) const {
  voltaic::block_dot(exec, ys, stride, count, x, result);
}

template <class T>
void VectorSpace<T>::norm_and_dot(const Executor& exec, View<const T> x, View<const T> y, View<T> result) const {
  nrm2(exec, x, result.subview(0, 1));
  dot(exec, x, y, result.subview(1, 1));
}

template <class T>
double VectorSpace<T>::nrm2(const Executor& exec, View<const T> x) const {
  return voltaic::nrm2(exec, x);
}

template <class T>
void VectorSpace<T>::nrm2(const Executor& exec, View<const T> x, View<T> result) const {
  voltaic::nrm2(exec, x, result);
}

template <class T>
const VectorSpace<T>& VectorSpace<T>::local() {
  static const VectorSpace<T> space;
  return space;
}

template class VectorSpace<float>;
template class VectorSpace<double>;

}  // namespace voltaic
