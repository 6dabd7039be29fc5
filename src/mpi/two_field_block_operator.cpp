// The two-field operator of the potential step on a ghosted block: both
// fields' exchanges in flight behind the local apply, the ghost-side rows
// redone with their coupling, one canonical sum over both fields (BlockSpace).
#include "voltaic/mpi/two_field_block_operator.hpp"

#include <string>
#include <utility>

#include "mpi/block_support.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::mpi {

using namespace block_support;

template <class T>
TwoFieldBlockOperator<T>::TwoFieldBlockOperator(const Communicator& comm, const PlanePartition& partition,
                                                const Grid3D& global, std::array<View<T>, 2> k,
                                                std::array<View<const T>, 2> d, View<const T> c01, View<const T> c10,
                                                const std::array<BoundaryConditions, 2>& bc)
    : halo_{HaloExchange(comm, partition, global.nz()), HaloExchange(comm, partition, global.nz())},
      space_(halo_[0], partition, global.nz(), 2),
      frame_(ghost_frame(halo_[0])) {
  const std::size_t n = halo_[0].ghosted_size();
  for (std::size_t size : {k[0].size(), k[1].size(), d[0].size(), d[1].size(), c01.size(), c10.size()})
    if (size != n)
      throw SizeMismatch("k, d, c01, c10", "TwoFieldBlockOperator",
                         "need " + std::to_string(n) + " ghosted values each, got " + std::to_string(size));
  const std::shared_ptr<const Grid3D> local = halo_[0].local_grid(global);
  const std::shared_ptr<const Executor> cpu = CpuExecutor::create();
  std::array<std::unique_ptr<StencilOperator<T>>, 2> field;
  for (int f = 0; f < 2; ++f) {
    halo_[f].exchange(k[f].data());
    zero_corners(halo_[f], global.nz(), k[f].data());
    field[f] =
        std::make_unique<StencilOperator<T>>(local, cpu, View<const T>(k[f]), d[f], local_conditions(halo_[f], bc[f]));
  }
  op_ = std::make_unique<TwoFieldStencilOperator<T>>(std::move(*field[0]), std::move(*field[1]), c01, c10);
}

template <class T>
void TwoFieldBlockOperator<T>::zero_ghosts(View<T> v) const {
  const std::size_t n = halo_[0].ghosted_size();
  const int nz = op_->field(0).grid().nz();
  set_ghost_columns(halo_[0], nz, v.data(), T(0));
  set_ghost_columns(halo_[1], nz, v.data() + n, T(0));
}

template <class T>
void TwoFieldBlockOperator<T>::apply(View<const T> x, View<T> y) const {
  require_host(*executor(), "TwoFieldBlockOperator::apply");
  const std::size_t n = halo_[0].ghosted_size();
  const View<const T> x0 = x.subview(0, n), x1 = x.subview(n, n);
  halo_[0].begin(x0.data());
  halo_[1].begin(x1.data());
  op_->apply(x, y);                         // the rows beside the ghosts read stale ghosts: redone below
  halo_[0].end(const_cast<T*>(x0.data()));  // ghosts are scratch (see the class comment)
  halo_[1].end(const_cast<T*>(x1.data()));
  op_->field(0).apply_coupled_frame(x0, op_->c01().const_view(), x1, y.subview(0, n), frame_);
  op_->field(1).apply_coupled_frame(x1, op_->c10().const_view(), x0, y.subview(n, n), frame_);
  zero_ghosts(y);
}

template <class T>
void TwoFieldBlockOperator<T>::add_boundary_terms(View<T> b) const {
  const std::size_t n = halo_[0].ghosted_size();
  op_->field(0).add_boundary_terms(b.subview(0, n));
  op_->field(1).add_boundary_terms(b.subview(n, n));
  zero_ghosts(b);
}

template <class T>
TwoFieldOwnedZLinePreconditioner<T>::TwoFieldOwnedZLinePreconditioner(const TwoFieldBlockOperator<T>& a)
    : a_(a), zline_(a.local()) {}

template <class T>
void TwoFieldOwnedZLinePreconditioner<T>::apply(View<const T> r, View<T> z) const {
  zline_.apply(r, z);
  a_.zero_ghosts(z);
}

template class TwoFieldBlockOperator<float>;
template class TwoFieldBlockOperator<double>;
template class TwoFieldOwnedZLinePreconditioner<float>;
template class TwoFieldOwnedZLinePreconditioner<double>;

}  // namespace voltaic::mpi
