// The decomposition's linear algebra on the CPU: the canonical inner
// product of ghosted blocks, the local stencil with its exchange hidden
// behind the block's interior rows, and the z-lines of the owned columns.
#include "voltaic/mpi/block_operator.hpp"

#include <cmath>
#include <string>

#include "mpi/block_support.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::mpi {

using namespace block_support;

template <class T>
BlockSpace<T>::BlockSpace(const HaloExchange& halo, const PlanePartition& partition, int nz, int fields)
    : halo_(halo), partition_(partition), nz_(nz), fields_(fields) {}

template <class T>
double BlockSpace<T>::dot(const Executor& exec, View<const T> x, View<const T> y) const {
  require_host(exec, "BlockSpace::dot");
  const PlaneBlock& blk = halo_.block();
  const std::size_t n = halo_.ghosted_size();
  // Layer k of the sum is field k / nz's layer k % nz.
  return canonical_block_sum(halo_.communicator(), partition_, fields_ * nz_, [&](int i, int j, int k) {
    const std::size_t c =
        static_cast<std::size_t>(k / nz_) * n + halo_.index(i - blk.i_begin, j - blk.j_begin, k % nz_);
    return static_cast<double>(x[c]) * static_cast<double>(y[c]);
  });
}

template <class T>
void BlockSpace<T>::dot(const Executor& exec, View<const T> x, View<const T> y, View<T> result) const {
  result[0] = static_cast<T>(dot(exec, x, y));
}

template <class T>
double BlockSpace<T>::nrm2(const Executor& exec, View<const T> x) const {
  return std::sqrt(dot(exec, x, x));
}

template <class T>
void BlockSpace<T>::nrm2(const Executor& exec, View<const T> x, View<T> result) const {
  result[0] = static_cast<T>(nrm2(exec, x));
}

template <class T>
BlockOperator<T>::BlockOperator(HaloExchange& halo, const PlanePartition& partition, const Grid3D& global, View<T> k,
                                View<const T> d, const BoundaryConditions& bc)
    : halo_(halo), partition_(partition), space_(halo, partition, global.nz()), frame_(ghost_frame(halo)) {
  if (k.size() != halo.ghosted_size() || d.size() != halo.ghosted_size())
    throw SizeMismatch("k, d", "BlockOperator", "need " + std::to_string(halo.ghosted_size()) + " ghosted values each");
  halo_.exchange(k.data());
  zero_corners(halo_, global.nz(), k.data());
  op_ = std::make_shared<StencilOperator<T>>(halo.local_grid(global), CpuExecutor::create(), View<const T>(k), d,
                                             local_conditions(halo, bc));
}

template <class T>
BlockOperator<T>::BlockOperator(HaloExchange& halo, const PlanePartition& partition,
                                std::shared_ptr<StencilOperator<T>> op)
    : halo_(halo),
      partition_(partition),
      space_(halo, partition, op->grid().nz()),
      op_(std::move(op)),
      frame_(ghost_frame(halo)) {}

template <class T>
template <class U>
BlockOperator<U> BlockOperator<T>::converted() const {
  return BlockOperator<U>(halo_, partition_, std::make_shared<StencilOperator<U>>(op_->template converted<U>()));
}

template <class T>
void BlockOperator<T>::update(View<T> k, View<const T> d) {
  if (k.size() != size() || d.size() != size())
    throw SizeMismatch("k, d", "BlockOperator::update", "need " + std::to_string(size()) + " ghosted values each");
  halo_.exchange(k.data());
  zero_corners(halo_, op_->grid().nz(), k.data());
  op_->update(View<const T>(k), d);
}

template <class T>
void BlockOperator<T>::set_ghosts(View<T> v, T value) const {
  set_ghost_columns(halo_, op_->grid().nz(), v.data(), value);
}

template <class T>
void BlockOperator<T>::apply(View<const T> x, View<T> y) const {
  require_host(*executor(), "BlockOperator::apply");
  halo_.begin(x.data());
  op_->apply(x, y);                     // the rows beside the ghosts read stale ghosts: redone below
  halo_.end(const_cast<T*>(x.data()));  // ghosts are scratch (see the class comment)
  op_->apply_frame(x, y, frame_);
  zero_ghosts(y);
}

template <class T>
void BlockOperator<T>::add_boundary_terms(View<T> b) const {
  op_->add_boundary_terms(b);
  zero_ghosts(b);
}

template <class T>
OwnedZLinePreconditioner<T>::OwnedZLinePreconditioner(const BlockOperator<T>& a) : a_(a), zline_(a.local()) {}

template <class T>
void OwnedZLinePreconditioner<T>::apply(View<const T> r, View<T> z) const {
  zline_.apply(r, z);
  a_.zero_ghosts(z);
}

template class BlockSpace<float>;
template class BlockSpace<double>;
template class BlockOperator<float>;
template class BlockOperator<double>;
template BlockOperator<float> BlockOperator<double>::converted<float>() const;
template class OwnedZLinePreconditioner<float>;
template class OwnedZLinePreconditioner<double>;

}  // namespace voltaic::mpi
