// The plane cut over MPI ranks behind the core library's PlaneDecomposition.
#include "voltaic/mpi/block_decomposition.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "mpi/block_support.hpp"

namespace voltaic::mpi {

using namespace block_support;

BlockDecomposition::BlockDecomposition(const Communicator& comm, const PlanePartition& partition)
    : comm_(comm), partition_(partition) {
  if (comm_.size() != partition_.ranks())
    throw InvalidArgument(
        "partition", "BlockDecomposition",
        std::to_string(partition_.ranks()) + " blocks for " + std::to_string(comm_.size()) + " ranks");
  block_ = partition_.block(comm_.rank());
  const HaloExchange& h = halo(1);
  gx_ = block_.nx() + (h.has_ghost(0) ? 1 : 0) + (h.has_ghost(1) ? 1 : 0);
  gy_ = block_.ny() + (h.has_ghost(2) ? 1 : 0) + (h.has_ghost(3) ? 1 : 0);
  layer_ = static_cast<std::size_t>(gx_) * static_cast<std::size_t>(gy_);
  first_i_ = block_.i_begin - (h.has_ghost(0) ? 1 : 0);
  first_j_ = block_.j_begin - (h.has_ghost(2) ? 1 : 0);
}

std::shared_ptr<const BlockDecomposition> BlockDecomposition::over(const Communicator& comm, int nx, int ny, int tile) {
  return std::make_shared<const BlockDecomposition>(comm, PlanePartition::for_ranks(nx, ny, comm.size(), tile));
}

HaloExchange& BlockDecomposition::halo(int layers) const {
  auto& h = halos_[layers];
  if (!h) h = std::make_unique<HaloExchange>(comm_, partition_, layers);
  return *h;
}

template <class T>
void BlockDecomposition::start(const T* field, int layers) const {
  HaloExchange& h = halo(layers);
  ++traffic_.exchanges;
  for (int side = 0; side < 4; ++side) {
    if (!h.has_ghost(side)) continue;
    ++traffic_.messages;
    traffic_.exchange_bytes += static_cast<long long>(side < 2 ? block_.ny() : block_.nx()) * layers * sizeof(T);
  }
  h.begin(field);
}

template <class T>
void BlockDecomposition::finish(T* field, int layers) const {
  HaloExchange& h = halo(layers);
  h.end(field);
  // A corner ghost takes the owned corner cell's value (see the class comment).
  const int bx = block_.nx(), by = block_.ny();
  for (int side_x : {0, 1})
    for (int side_y : {2, 3}) {
      if (!h.has_ghost(side_x) || !h.has_ghost(side_y)) continue;
      const int li = side_x == 0 ? -1 : bx, lj = side_y == 2 ? -1 : by;
      const int oi = side_x == 0 ? 0 : bx - 1, oj = side_y == 2 ? 0 : by - 1;
      for (int k = 0; k < layers; ++k) field[h.index(li, lj, k)] = field[h.index(oi, oj, k)];
    }
}

void BlockDecomposition::gather(const double* field, int layers, double* whole) const {
  // Each rank's owned cells, layer-major, then every block to its place.
  const HaloExchange& h = halo(layers);
  std::vector<double> mine;
  mine.reserve(block_.columns() * static_cast<std::size_t>(layers));
  for (int k = 0; k < layers; ++k)
    for (int lj = 0; lj < block_.ny(); ++lj)
      for (int li = 0; li < block_.nx(); ++li) mine.push_back(field[h.index(li, lj, k)]);
  std::vector<int> counts(comm_.size()), offsets(comm_.size());
  std::size_t total = 0;
  for (int r = 0; r < comm_.size(); ++r) {
    counts[r] = static_cast<int>(partition_.block(r).columns() * static_cast<std::size_t>(layers));
    offsets[r] = static_cast<int>(total);
    total += static_cast<std::size_t>(counts[r]);
  }
  std::vector<double> all(total);
  ++traffic_.gathers;
  traffic_.gather_bytes += static_cast<long long>(total * sizeof(double));
  check(MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), counts.data(),
                       offsets.data(), MPI_DOUBLE, comm_.get()),
        "MPI_Allgatherv");
  const std::size_t nx = static_cast<std::size_t>(partition_.nx());
  const std::size_t plane = nx * static_cast<std::size_t>(partition_.ny());
  for (int r = 0; r < comm_.size(); ++r) {
    const PlaneBlock b = partition_.block(r);
    const double* in = all.data() + offsets[r];
    for (int k = 0; k < layers; ++k)
      for (int j = b.j_begin; j < b.j_end; ++j)
        for (int i = b.i_begin; i < b.i_end; ++i) whole[std::size_t(i) + nx * std::size_t(j) + plane * k] = *in++;
  }
}

void BlockDecomposition::begin(const double* field, int layers) const { start(field, layers); }
void BlockDecomposition::end(double* field, int layers) const { finish(field, layers); }
void BlockDecomposition::begin(const float* field, int layers) const { start(field, layers); }
void BlockDecomposition::end(float* field, int layers) const { finish(field, layers); }

stencil::ColumnFrame BlockDecomposition::frame() const { return ghost_frame(halo(1)); }

void BlockDecomposition::set_ghosts(double* field, int layers, double value) const {
  set_ghost_columns(halo(layers), layers, field, value);
}

void BlockDecomposition::set_ghosts(float* field, int layers, float value) const {
  set_ghost_columns(halo(layers), layers, field, value);
}

double BlockDecomposition::dot(const double* x, const double* y, int layers) const {
  const HaloExchange& h = halo(layers);
  ++traffic_.sums;
  traffic_.sum_bytes += static_cast<long long>(partition_.num_tiles() * sizeof(double));
  return canonical_block_sum(comm_, partition_, layers, [&](int i, int j, int k) {
    const std::size_t c = h.index(i - block_.i_begin, j - block_.j_begin, k);
    return y ? x[c] * y[c] : x[c];
  });
}

double BlockDecomposition::max_abs(const double* x, int layers) const {
  const HaloExchange& h = halo(layers);
  double local[2] = {0.0, 0.0};  // the largest |x|, and 1 where one is NaN
  for (int k = 0; k < layers; ++k)
    for (int lj = 0; lj < block_.ny(); ++lj)
      for (int li = 0; li < block_.nx(); ++li) {
        const double v = x[h.index(li, lj, k)];
        if (std::isnan(v)) local[1] = 1.0;
        local[0] = std::fmax(local[0], std::fabs(v));
      }
  double all[2];
  ++traffic_.maxima;
  check(MPI_Allreduce(local, all, 2, MPI_DOUBLE, MPI_MAX, comm_.get()), "MPI_Allreduce");
  return all[1] != 0.0 ? NAN : all[0];
}

/// BlockSpace, its canonical sums counted in the decomposition's traffic.
template <class T>
class BlockDecomposition::CountedSpace final : public VectorSpace<T> {
 public:
  CountedSpace(const HaloExchange& halo, const PlanePartition& partition, int layers, BlockTraffic& traffic)
      : space_(halo, partition, layers), traffic_(traffic), bytes_(partition.num_tiles() * sizeof(double)) {}
  double dot(const Executor& e, View<const T> x, View<const T> y) const override {
    count();
    return space_.dot(e, x, y);
  }
  void dot(const Executor& e, View<const T> x, View<const T> y, View<T> result) const override {
    count();
    space_.dot(e, x, y, result);
  }
  double nrm2(const Executor& e, View<const T> x) const override {
    count();
    return space_.nrm2(e, x);
  }
  void nrm2(const Executor& e, View<const T> x, View<T> result) const override {
    count();
    space_.nrm2(e, x, result);
  }

 private:
  void count() const {
    ++traffic_.sums;
    traffic_.sum_bytes += static_cast<long long>(bytes_);
  }
  BlockSpace<T> space_;
  BlockTraffic& traffic_;
  std::size_t bytes_;
};

template <class T>
const VectorSpace<T>& BlockDecomposition::space_of(int layers) const {
  auto& spaces = [this]() -> auto& {
    if constexpr (std::is_same_v<T, double>)
      return spaces64_;
    else
      return spaces32_;
  }
  ();
  auto& s = spaces[layers];
  if (!s) s = std::make_unique<CountedSpace<T>>(halo(layers), partition_, layers, traffic_);
  return *s;
}

const VectorSpace<double>& BlockDecomposition::space(int layers, double) const { return space_of<double>(layers); }
const VectorSpace<float>& BlockDecomposition::space(int layers, float) const { return space_of<float>(layers); }

}  // namespace voltaic::mpi
