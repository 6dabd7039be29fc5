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
void zero_corners(const HaloExchange& halo, int nz, double* k) {
  const PlaneBlock& b = halo.block();
  for (int side_x : {0, 1})
    for (int side_y : {2, 3}) {
      if (!halo.has_ghost(side_x) || !halo.has_ghost(side_y)) continue;
      const int li = side_x == 0 ? -1 : b.nx(), lj = side_y == 2 ? -1 : b.ny();
      for (int z = 0; z < nz; ++z) k[halo.index(li, lj, z)] = 0.0;
    }
}

void require_host(const Executor& exec, const char* where) {
  if (exec.memory_space() != MemorySpace::host())
    throw ExecutorMismatch("executor", where, "the decomposed vectors live in host memory (the CPU backend) for now");
}

}  // namespace

BlockSpace::BlockSpace(const HaloExchange& halo, const PlanePartition& partition, int nz)
    : halo_(halo), partition_(partition), nz_(nz) {}

double BlockSpace::dot(const Executor& exec, View<const double> x, View<const double> y) const {
  require_host(exec, "BlockSpace::dot");
  const PlaneBlock& blk = halo_.block();
  return canonical_block_sum(halo_.communicator(), partition_, nz_, [&](int i, int j, int k) {
    const std::size_t c = halo_.index(i - blk.i_begin, j - blk.j_begin, k);
    return x[c] * y[c];
  });
}

void BlockSpace::dot(const Executor& exec, View<const double> x, View<const double> y, View<double> result) const {
  result[0] = dot(exec, x, y);
}

double BlockSpace::nrm2(const Executor& exec, View<const double> x) const { return std::sqrt(dot(exec, x, x)); }

void BlockSpace::nrm2(const Executor& exec, View<const double> x, View<double> result) const {
  result[0] = nrm2(exec, x);
}

BlockOperator::BlockOperator(HaloExchange& halo, const PlanePartition& partition, const Grid3D& global, View<double> k,
                             View<const double> d, const BoundaryConditions& bc)
    : halo_(halo), space_(halo, partition, global.nz()) {
  if (k.size() != size() || d.size() != size())
    throw SizeMismatch("k, d", "BlockOperator", "need " + std::to_string(size()) + " ghosted values each");
  halo_.exchange(k.data());
  zero_corners(halo_, global.nz(), k.data());
  op_ = std::make_shared<StencilOperator<double>>(halo.local_grid(global), CpuExecutor::create(), View<const double>(k),
                                                  d, local_conditions(halo, bc));
  frame_.x_lo = halo.has_ghost(0) ? 2 : 0;
  frame_.x_hi = halo.has_ghost(1) ? 2 : 0;
  frame_.y_lo = halo.has_ghost(2) ? 2 : 0;
  frame_.y_hi = halo.has_ghost(3) ? 2 : 0;
}

void BlockOperator::update(View<double> k, View<const double> d) {
  if (k.size() != size() || d.size() != size())
    throw SizeMismatch("k, d", "BlockOperator::update", "need " + std::to_string(size()) + " ghosted values each");
  halo_.exchange(k.data());
  zero_corners(halo_, op_->grid().nz(), k.data());
  op_->update(View<const double>(k), d);
}

void BlockOperator::zero_ghosts(View<double> v) const { set_ghosts(v, 0.0); }

void BlockOperator::set_ghosts(View<double> v, double value) const {
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

void BlockOperator::apply(View<const double> x, View<double> y) const {
  require_host(*executor(), "BlockOperator::apply");
  halo_.begin(x.data());
  op_->apply(x, y);                          // the rows beside the ghosts read stale ghosts: redone below
  halo_.end(const_cast<double*>(x.data()));  // ghosts are scratch (see the class comment)
  op_->apply_frame(x, y, frame_);
  zero_ghosts(y);
}

void BlockOperator::add_boundary_terms(View<double> b) const {
  op_->add_boundary_terms(b);
  zero_ghosts(b);
}

BlockZLinePreconditioner::BlockZLinePreconditioner(const BlockOperator& a) : a_(a), zline_(a.local()) {}

void BlockZLinePreconditioner::apply(View<const double> r, View<double> z) const {
  zline_.apply(r, z);
  a_.zero_ghosts(z);
}

}  // namespace voltaic::mpi
