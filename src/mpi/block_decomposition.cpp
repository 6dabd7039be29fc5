// The plane cut over MPI ranks behind the core library's PlaneDecomposition.
#include "voltaic/mpi/block_decomposition.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "mpi/block_support.hpp"

namespace voltaic::mpi {

using namespace block_support;

BlockDecomposition::BlockDecomposition(const Communicator& comm, const PlanePartition& partition,
                                       std::shared_ptr<const Executor> exec)
    : comm_(comm),
      partition_(partition),
      exec_(std::move(exec)),
      staged_(exec_ && exec_->memory_space() != MemorySpace::host()) {
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

std::shared_ptr<const BlockDecomposition> BlockDecomposition::over(const Communicator& comm, int nx, int ny, int tile,
                                                                   std::shared_ptr<const Executor> exec) {
  return std::make_shared<const BlockDecomposition>(comm, PlanePartition::for_ranks(nx, ny, comm.size(), tile),
                                                    std::move(exec));
}

template <class T>
const T* BlockDecomposition::on_host(const T* p, std::size_t count, std::vector<char>& buffer) const {
  if (!staged_) return p;
  buffer.resize(count * sizeof(T));
  exec_->copy(buffer.data(), MemorySpace::host(), p, exec_->memory_space(), count * sizeof(T));
  return reinterpret_cast<const T*>(buffer.data());
}

template <class T>
void BlockDecomposition::store(T* p, const T* host, std::size_t count) const {
  if (staged_) exec_->copy(p, exec_->memory_space(), host, MemorySpace::host(), count * sizeof(T));
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
  // On a GPU the field's host copy travels, and stays until finish().
  h.begin(on_host(field, values(layers), in_flight_[2 * layers + (sizeof(T) == 8 ? 1 : 0)]));
}

template <class T>
void BlockDecomposition::finish(T* device_field, int layers) const {
  HaloExchange& h = halo(layers);
  T* field = staged_ ? reinterpret_cast<T*>(in_flight_[2 * layers + (sizeof(T) == 8 ? 1 : 0)].data()) : device_field;
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
  store(device_field, field, values(layers));
}

void BlockDecomposition::gather(const double* device_field, int layers, double* device_whole) const {
  // Each rank's owned cells, layer-major, then every block to its place.
  const HaloExchange& h = halo(layers);
  const double* field = on_host(device_field, values(layers), stage_[0]);
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
  std::vector<double> staged(staged_ ? total : 0);
  double* whole = staged_ ? staged.data() : device_whole;
  for (int r = 0; r < comm_.size(); ++r) {
    const PlaneBlock b = partition_.block(r);
    const double* in = all.data() + offsets[r];
    for (int k = 0; k < layers; ++k)
      for (int j = b.j_begin; j < b.j_end; ++j)
        for (int i = b.i_begin; i < b.i_end; ++i) whole[std::size_t(i) + nx * std::size_t(j) + plane * k] = *in++;
  }
  store(device_whole, whole, total);
}

void BlockDecomposition::slice(const double* device_whole, int layers, double* device_field) const {
  const std::size_t plane = static_cast<std::size_t>(partition_.nx()) * static_cast<std::size_t>(partition_.ny());
  const double* whole = on_host(device_whole, plane * static_cast<std::size_t>(layers), stage_[0]);
  std::vector<double> staged(staged_ ? values(layers) : 0);
  double* field = staged_ ? staged.data() : device_field;
  slice_host(whole, layers, field);
  store(device_field, field, values(layers));
}

void BlockDecomposition::begin(const double* field, int layers) const { start(field, layers); }
void BlockDecomposition::end(double* field, int layers) const { finish(field, layers); }
void BlockDecomposition::begin(const float* field, int layers) const { start(field, layers); }
void BlockDecomposition::end(float* field, int layers) const { finish(field, layers); }

stencil::ColumnFrame BlockDecomposition::frame() const { return ghost_frame(halo(1)); }

template <class T>
void BlockDecomposition::fill_ghosts(T* device_field, int layers, T value) const {
  T* field = staged_ ? const_cast<T*>(on_host(device_field, values(layers), stage_[0])) : device_field;
  set_ghost_columns(halo(layers), layers, field, value);
  store(device_field, field, values(layers));
}

void BlockDecomposition::set_ghosts(double* field, int layers, double value) const {
  fill_ghosts(field, layers, value);
}

void BlockDecomposition::set_ghosts(float* field, int layers, float value) const { fill_ghosts(field, layers, value); }

double BlockDecomposition::dot(const double* device_x, const double* device_y, int layers) const {
  const HaloExchange& h = halo(layers);
  const double* x = on_host(device_x, values(layers), stage_[0]);
  const double* y = device_y ? on_host(device_y, values(layers), stage_[1]) : nullptr;
  ++traffic_.sums;
  traffic_.sum_bytes += static_cast<long long>(partition_.num_tiles() * sizeof(double));
  return canonical_block_sum(comm_, partition_, layers, [&](int i, int j, int k) {
    const std::size_t c = h.index(i - block_.i_begin, j - block_.j_begin, k);
    return y ? x[c] * y[c] : x[c];
  });
}

double BlockDecomposition::max_abs(const double* device_x, int layers) const {
  const HaloExchange& h = halo(layers);
  const double* x = on_host(device_x, values(layers), stage_[0]);
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

/// BlockSpace, its canonical sums counted in the decomposition's traffic; on
/// a GPU the vectors are copied to the host first and the result back.
template <class T>
class BlockDecomposition::CountedSpace final : public VectorSpace<T> {
 public:
  CountedSpace(const BlockDecomposition& d, int layers)
      : d_(d), space_(d.halo(layers), d.partition_, layers), cpu_(CpuExecutor::create()) {}
  double dot(const Executor&, View<const T> x, View<const T> y) const override {
    count();
    return space_.dot(*cpu_, host(x, 0), host(y, 1));
  }
  void dot(const Executor& e, View<const T> x, View<const T> y, View<T> result) const override {
    put(e, static_cast<T>(dot(e, x, y)), result);
  }
  double nrm2(const Executor&, View<const T> x) const override {
    count();
    return space_.nrm2(*cpu_, host(x, 0));
  }
  void nrm2(const Executor& e, View<const T> x, View<T> result) const override {
    put(e, static_cast<T>(nrm2(e, x)), result);
  }

 private:
  void count() const {
    ++d_.traffic_.sums;
    d_.traffic_.sum_bytes += static_cast<long long>(d_.partition_.num_tiles() * sizeof(double));
  }
  View<const T> host(View<const T> v, int slot) const {
    return View<const T>(d_.on_host(v.data(), v.size(), d_.stage_[slot]), v.size(), MemorySpace::host());
  }
  void put(const Executor& e, T value, View<T> result) const {
    e.copy(result.data(), result.space(), &value, MemorySpace::host(), sizeof(T));
  }
  const BlockDecomposition& d_;
  BlockSpace<T> space_;
  std::shared_ptr<const CpuExecutor> cpu_;
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
  if (!s) s = std::make_unique<CountedSpace<T>>(*this, layers);
  return *s;
}

const VectorSpace<double>& BlockDecomposition::space(int layers, double) const { return space_of<double>(layers); }
const VectorSpace<float>& BlockDecomposition::space(int layers, float) const { return space_of<float>(layers); }

}  // namespace voltaic::mpi
