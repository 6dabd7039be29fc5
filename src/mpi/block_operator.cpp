// The decomposition's linear algebra on the CPU: the canonical inner
// product of ghosted blocks, the local stencil with its exchange hidden
// behind the block's interior rows, and the z-lines of the owned columns.
#include "voltaic/mpi/block_operator.hpp"

#include <cmath>
#include <string>

#include "voltaic/core/executor.hpp"

namespace voltaic::mpi {

namespace {

/// The plane's faces keep `bc`; a face to a neighbour (a ghost column) is
/// insulated: only the ghost cells see it, and their rows are not used.
BoundaryConditions local_conditions(const HaloExchange& halo, const BoundaryConditions& bc) {
  BoundaryConditions local = bc;
  for (int s = 0; s < 4; ++s)
    if (halo.has_ghost(s)) local[s] = BoundaryCondition::insulated();
  return local;
}

/// The corner ghosts (where two ghost columns meet) are not exchanged: no
/// owned row reads them, but the local operator checks every cell's k.
template <class T>
void zero_corners(const HaloExchange& halo, int nz, T* k) {
  const PlaneBlock& b = halo.block();
  for (int side_x : {0, 1})
    for (int side_y : {2, 3}) {
      if (!halo.has_ghost(side_x) || !halo.has_ghost(side_y)) continue;
      const int li = side_x == 0 ? -1 : b.nx(), lj = side_y == 2 ? -1 : b.ny();
      for (int z = 0; z < nz; ++z) k[halo.index(li, lj, z)] = T(0);
    }
}

void require_host(const Executor& exec, const char* where) {
  if (exec.memory_space() != MemorySpace::host())
    throw ExecutorMismatch("executor", where, "the decomposed vectors live in host memory (the CPU backend) for now");
}

/// The ghost columns and the owned columns beside them: the rows apply()
/// redoes once the ghosts have arrived.
stencil::ColumnFrame ghost_frame(const HaloExchange& halo) {
  stencil::ColumnFrame f;
  f.x_lo = halo.has_ghost(0) ? 2 : 0;
  f.x_hi = halo.has_ghost(1) ? 2 : 0;
  f.y_lo = halo.has_ghost(2) ? 2 : 0;
  f.y_hi = halo.has_ghost(3) ? 2 : 0;
  return f;
}

}  // namespace

template <class T>
BlockSpace<T>::BlockSpace(const HaloExchange& halo, const PlanePartition& partition, int nz)
    : halo_(halo), partition_(partition), nz_(nz) {}

template <class T>
double BlockSpace<T>::dot(const Executor& exec, View<const T> x, View<const T> y) const {
  require_host(exec, "BlockSpace::dot");
  const PlaneBlock& blk = halo_.block();
  return canonical_block_sum(halo_.communicator(), partition_, nz_, [&](int i, int j, int k) {
    const std::size_t c = halo_.index(i - blk.i_begin, j - blk.j_begin, k);
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
  const PlaneBlock& b = halo_.block();
  const int nz = op_->grid().nz();
  for (int k = 0; k < nz; ++k) {
    for (int lj = 0; lj < b.ny(); ++lj) {
      if (halo_.has_ghost(0)) v[halo_.index(-1, lj, k)] = value;
      if (halo_.has_ghost(1)) v[halo_.index(b.nx(), lj, k)] = value;
    }
    for (int li = -1; li <= b.nx(); ++li) {
      if ((li < 0 && !halo_.has_ghost(0)) || (li == b.nx() && !halo_.has_ghost(1))) continue;
      if (halo_.has_ghost(2)) v[halo_.index(li, -1, k)] = value;
      if (halo_.has_ghost(3)) v[halo_.index(li, b.ny(), k)] = value;
    }
  }
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
