#pragma once
/// @file block_decomposition.hpp
/// @brief The x-y plane cut over MPI ranks as the core library's
/// PlaneDecomposition: what runs a Simulation (its stencils, Krylov solves
/// and reductions) on a rank's block, with the same bits on every cut.

#include <map>
#include <memory>
#include <vector>

#include "voltaic/core/executor.hpp"
#include "voltaic/linalg/plane_decomposition.hpp"
#include "voltaic/mpi/block_operator.hpp"
#include "voltaic/mpi/halo_exchange.hpp"

namespace voltaic::mpi {

/// What one rank sent and reduced (for the cost model, docs/performance.md).
struct BlockTraffic {
  long long exchanges = 0;       ///< ghost exchanges (each to up to 4 neighbours)
  long long messages = 0;        ///< point-to-point messages sent
  long long exchange_bytes = 0;  ///< bytes sent in them
  long long sums = 0;            ///< canonical sums (one MPI_Allreduce of a slot per tile each)
  long long sum_bytes = 0;       ///< the size of those reductions' vectors
  long long maxima = 0;          ///< exact maxima (one MPI_Allreduce of 2 values each)
  long long gathers = 0;         ///< whole-plane gathers (MPI_Allgatherv)
  long long gather_bytes = 0;    ///< bytes this rank received in them
};

/// comm's ranks own the blocks of `partition` (rank r block r). Ghosts are
/// exchanged by HaloExchange (one per layer count, made on first use); the
/// corner ghosts, which no 5- or 7-point row of an owned cell reads, take the
/// owned corner cell's value, so that whatever a ghost cell computes stays
/// in the model's domain. Sums are canonical_block_sum()'s, maxima exact.
/// Arrays in host memory (the CPU backend), or on a GPU: then every call
/// stages its arrays through host memory (whole ghosted fields each way),
/// correct and the same bits, not fast; pack kernels and device tile
/// partials are next (docs/mpi.md). Not copyable: the exchanges refer to it.
class BlockDecomposition final : public PlaneDecomposition {
 public:
  /// @param exec the executor whose memory the arrays are in (null: the host's)
  /// @throws InvalidArgument when comm's size is not the partition's ranks
  BlockDecomposition(const Communicator& comm, const PlanePartition& partition,
                     std::shared_ptr<const Executor> exec = nullptr);
  /// The nx x ny plane over comm's ranks (PlanePartition::for_ranks()).
  static std::shared_ptr<const BlockDecomposition> over(const Communicator& comm, int nx, int ny, int tile = 16,
                                                        std::shared_ptr<const Executor> exec = nullptr);
  BlockDecomposition(const BlockDecomposition&) = delete;
  BlockDecomposition& operator=(const BlockDecomposition&) = delete;

  const PlaneBlock& block() const { return block_; }
  /// Sums since construction (or the last reset_traffic()).
  const BlockTraffic& traffic() const { return traffic_; }
  void reset_traffic() const { traffic_ = BlockTraffic{}; }
  const PlanePartition& partition() const { return partition_; }
  const Communicator& communicator() const { return comm_; }
  /// Index of owned column (li, lj) (-1 and bx, by: ghosts), layer k, in a ghosted field.
  std::size_t index(int li, int lj, int k) const { return halo(1).index(li, lj, 0) + layer_ * std::size_t(k); }

  MemorySpace memory_space() const override { return staged_ ? exec_->memory_space() : MemorySpace::host(); }
  int ghosted_nx() const override { return gx_; }
  int ghosted_ny() const override { return gy_; }
  int plane_nx() const override { return partition_.nx(); }
  int plane_ny() const override { return partition_.ny(); }
  int first_i() const override { return first_i_; }
  int first_j() const override { return first_j_; }
  void gather(const double* field, int layers, double* whole) const override;
  void slice(const double* whole, int layers, double* field) const override;
  void begin(const double* field, int layers) const override;
  void end(double* field, int layers) const override;
  void begin(const float* field, int layers) const override;
  void end(float* field, int layers) const override;
  stencil::ColumnFrame frame() const override;
  void set_ghosts(double* field, int layers, double value) const override;
  void set_ghosts(float* field, int layers, float value) const override;
  double dot(const double* x, const double* y, int layers) const override;
  double max_abs(const double* x, int layers) const override;
  const VectorSpace<double>& space(int layers, double) const override;
  const VectorSpace<float>& space(int layers, float) const override;

 private:
  HaloExchange& halo(int layers) const;
  /// Values of a ghosted field of `layers` layers.
  std::size_t values(int layers) const { return layer_ * static_cast<std::size_t>(layers); }
  /// A host copy of `count` values at p (p itself when the arrays are on the host).
  template <class T>
  const T* on_host(const T* p, std::size_t count, std::vector<char>& buffer) const;
  /// Writes `count` host values back to p (nothing when p is host memory, which they are).
  template <class T>
  void store(T* p, const T* host, std::size_t count) const;
  template <class T>
  void start(const T* field, int layers) const;
  template <class T>
  void finish(T* field, int layers) const;
  template <class T>
  void fill_ghosts(T* field, int layers, T value) const;
  template <class T>
  class CountedSpace;
  template <class T>
  const VectorSpace<T>& space_of(int layers) const;

  Communicator comm_;
  PlanePartition partition_;
  std::shared_ptr<const Executor> exec_;
  bool staged_ = false;                                 ///< the arrays are not in host memory
  mutable std::map<int, std::vector<char>> in_flight_;  ///< an exchange's host copy, by layers and precision
  mutable std::vector<char> stage_[3];                  ///< scratch of the other calls
  PlaneBlock block_;
  int gx_ = 0, gy_ = 0, first_i_ = 0, first_j_ = 0;
  std::size_t layer_ = 0;  ///< columns of the ghosted block
  mutable std::map<int, std::unique_ptr<HaloExchange>> halos_;
  mutable std::map<int, std::unique_ptr<VectorSpace<double>>> spaces64_;
  mutable std::map<int, std::unique_ptr<VectorSpace<float>>> spaces32_;
  mutable BlockTraffic traffic_;
};

}  // namespace voltaic::mpi
