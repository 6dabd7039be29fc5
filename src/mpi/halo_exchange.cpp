// Ghost-column exchange between the blocks of the x-y plane, and the sum
// whose bits do not depend on the partition.
#include "voltaic/mpi/halo_exchange.hpp"

#include <string>
#include <type_traits>

namespace voltaic::mpi {

namespace {

enum Side { x_lo = 0, x_hi = 1, y_lo = 2, y_hi = 3 };
constexpr int kTag = 4207;

}  // namespace

HaloExchange::HaloExchange(const Communicator& comm, const PlanePartition& partition, int nz) : comm_(comm), nz_(nz) {
  if (comm.size() != partition.ranks())
    throw InvalidArgument("partition", "HaloExchange",
                          std::to_string(partition.ranks()) + " blocks for " + std::to_string(comm.size()) + " ranks");
  if (nz < 1) throw InvalidArgument("nz", "HaloExchange", "nz = " + std::to_string(nz) + " must be >= 1");
  block_ = partition.block(comm.rank());
  const std::vector<int> n = partition.neighbours(comm.rank());
  x0_ = n[x_lo] >= 0 ? 1 : 0;
  y0_ = n[y_lo] >= 0 ? 1 : 0;
  gx_ = static_cast<std::size_t>(block_.nx() + x0_ + (n[x_hi] >= 0 ? 1 : 0));
  gy_ = static_cast<std::size_t>(block_.ny() + y0_ + (n[y_hi] >= 0 ? 1 : 0));
  for (int s = 0; s < 4; ++s) {
    neighbour_[s] = n[s];
    const std::size_t length = static_cast<std::size_t>(s < 2 ? block_.ny() : block_.nx()) * nz;
    if (n[s] >= 0) send_[s].resize(length), receive_[s].resize(length);
  }
}

std::size_t HaloExchange::ghosted_size() const { return gx_ * gy_ * static_cast<std::size_t>(nz_); }

std::shared_ptr<const Grid3D> HaloExchange::local_grid(const Grid3D& global) const {
  if (global.nz() != nz_)
    throw SizeMismatch("global", "HaloExchange::local_grid",
                       "the grid has " + std::to_string(global.nz()) + " layers, the exchange " + std::to_string(nz_));
  std::vector<ZRegionSpec> regions;
  for (const ZRegion& r : global.regions()) regions.push_back({r.name, r.cells(), r.dz * r.cells()});
  return std::make_shared<const Grid3D>(static_cast<int>(gx_), static_cast<int>(gy_), global.dx(), global.dy(),
                                        regions);
}

template <class T>
void HaloExchange::begin(const T* field) {
  const int bx = block_.nx(), by = block_.ny();
  const MPI_Datatype type = std::is_same_v<T, double> ? MPI_DOUBLE : MPI_FLOAT;
  requests_.clear();
  requests_.reserve(8);
  for (int s = 0; s < 4; ++s) {
    if (neighbour_[s] < 0) continue;
    const int count = static_cast<int>(send_[s].size());  // the side's values, in T
    check(MPI_Irecv(receive_[s].data(), count, type, neighbour_[s], kTag, comm_.get(), &requests_.emplace_back()),
          "MPI_Irecv");
  }
  for (int s = 0; s < 4; ++s) {
    if (neighbour_[s] < 0) continue;
    // The owned columns next to side s, layer by layer.
    T* out = reinterpret_cast<T*>(send_[s].data());
    std::size_t m = 0;
    for (int k = 0; k < nz_; ++k) {
      if (s < 2) {
        const int li = s == x_lo ? 0 : bx - 1;
        for (int lj = 0; lj < by; ++lj) out[m++] = field[index(li, lj, k)];
      } else {
        const int lj = s == y_lo ? 0 : by - 1;
        for (int li = 0; li < bx; ++li) out[m++] = field[index(li, lj, k)];
      }
    }
    check(MPI_Isend(out, static_cast<int>(m), type, neighbour_[s], kTag, comm_.get(), &requests_.emplace_back()),
          "MPI_Isend");
  }
}

template <class T>
void HaloExchange::end(T* field) {
  check(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  requests_.clear();
  const int bx = block_.nx(), by = block_.ny();
  for (int s = 0; s < 4; ++s) {
    if (neighbour_[s] < 0) continue;
    const T* in = reinterpret_cast<const T*>(receive_[s].data());
    std::size_t m = 0;
    for (int k = 0; k < nz_; ++k) {
      if (s < 2) {
        const int li = s == x_lo ? -1 : bx;
        for (int lj = 0; lj < by; ++lj) field[index(li, lj, k)] = in[m++];
      } else {
        const int lj = s == y_lo ? -1 : by;
        for (int li = 0; li < bx; ++li) field[index(li, lj, k)] = in[m++];
      }
    }
  }
}

template void HaloExchange::begin<double>(const double*);
template void HaloExchange::begin<float>(const float*);
template void HaloExchange::end<double>(double*);
template void HaloExchange::end<float>(float*);

double reproducible_sum(const Communicator& comm, const PlanePartition& partition, int nz, const double* owned) {
  if (comm.size() != partition.ranks())
    throw InvalidArgument("partition", "reproducible_sum",
                          std::to_string(partition.ranks()) + " blocks for " + std::to_string(comm.size()) + " ranks");
  const PlaneBlock b = partition.block(comm.rank());
  const std::size_t bx = static_cast<std::size_t>(b.nx()), by = static_cast<std::size_t>(b.ny());
  return canonical_block_sum(comm, partition, nz, [&](int i, int j, int k) {
    return owned[static_cast<std::size_t>(i - b.i_begin) +
                 bx * (static_cast<std::size_t>(j - b.j_begin) + by * static_cast<std::size_t>(k))];
  });
}

}  // namespace voltaic::mpi
