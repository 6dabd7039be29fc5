#pragma once
/// @file block_decomposition.hpp
/// @brief The x-y plane cut over MPI ranks as the core library's
/// PlaneDecomposition: what runs a Simulation (its stencils, Krylov solves
/// and reductions) on a rank's block, with the same bits on every cut.

#include <map>
#include <memory>
#include <vector>

#include "voltaic/core/executor.hpp"
#include "voltaic/core/plane_partition.hpp"
#include "voltaic/linalg/ghost_columns.hpp"
#include "voltaic/linalg/plane_decomposition.hpp"
#include "voltaic/mpi/communicator.hpp"

namespace voltaic::mpi {

/// What one rank sent and reduced (for the cost model, docs/performance.md).
struct BlockTraffic {
  long long exchanges = 0;       ///< ghost exchanges (each to up to 4 neighbours)
  long long messages = 0;        ///< point-to-point messages sent
  long long exchange_bytes = 0;  ///< bytes sent in them
  long long sums = 0;            ///< all-reduces of canonical sums (a slot per tile and sum)
  long long sum_bytes = 0;       ///< the size of those reductions' vectors
  long long maxima = 0;          ///< exact maxima (one MPI_Allreduce of 2 values each)
  long long gathers = 0;         ///< whole-plane gathers (MPI_Allgatherv)
  long long gather_bytes = 0;    ///< bytes this rank received in them
};

/// How a GPU decomposition's exchanges, sums and gathers reach the other ranks.
enum class GpuTransport {
  automatic,      ///< where no other rank of the node shares the GPU: nccl where built, else device_direct where MPI
                  ///< is CUDA-aware; host_staged otherwise
  host_staged,    ///< packed edges copied to pinned host memory, sent from there
  device_direct,  ///< packed edges sent from device memory (a CUDA-aware MPI: IPC between ranks on one GPU,
                  ///< GPUDirect between GPUs)
  nccl            ///< NCCL on the streams: no host wait in an exchange, a sum or a gather (one rank a GPU)
};

/// True when the MPI library this runs on takes device pointers (Open MPI's
/// MPIX_Query_cuda_support(); false where the library cannot say).
bool mpi_is_cuda_aware();

/// True when voltaic::mpi was built with NCCL (GpuTransport::nccl).
bool nccl_is_built();

/// The transport's name as the enumerator spells it ("host_staged", ...).
const char* to_string(GpuTransport t);

class NcclLink;

/// comm's ranks own the blocks of `partition` (rank r block r). An exchange
/// packs the owned edge columns (ghost_columns::pack) and sends each side's
/// part to that neighbour; the received parts are unpacked into the ghosts,
/// and each corner ghost, which no 5- or 7-point row of an owned cell reads,
/// takes the owned corner cell's value, so that whatever a ghost cell
/// computes stays in the model's domain. A sum takes the canonical partials
/// of the rank's tiles (ghost_columns::tile_partials), meets the other
/// ranks' in one exact all-reduce and sums them by the canonical tree;
/// maxima are exact.
///
/// On a GPU the arrays stay in device memory: begin() queues the pack and
/// its copy to pinned host memory on the executor's third stream (its last
/// where it has fewer; the particles run on the second), after the work
/// queued on stream 0; end() sends once the copy is
/// done, waits for the neighbours, copies their edges up and unpacks them,
/// and stream 0 waits for that. Only the edges, one partial per tile and,
/// in a whole-plane gather (the few-layer 2D fields), the owned cells one
/// way and the whole plane the other cross to the host. With a CUDA-aware
/// MPI (GpuTransport::device_direct) the edges and the gathers go from
/// device memory to device memory instead: no host copy, the same bits.
/// With NCCL (GpuTransport::nccl) nothing waits on the host: an exchange
/// is an NCCL group on the exchange stream; a gather is one on stream 0;
/// a sum's tile partials, written into their slots of the whole plane's,
/// are all-reduced on stream 0 and summed by the canonical tree on the
/// device, so a VectorSpace result in device memory never comes back (the
/// same bits). The communicator's operations keep one order on every rank:
/// stream 0 joins each exchange at end(), before any other is queued.
/// Not copyable: the exchanges refer to it.
class BlockDecomposition final : public PlaneDecomposition {
 public:
  /// @param exec the executor whose memory the arrays are in (null: the host's)
  /// @param transport how a GPU's exchanges travel (ignored on the host)
  /// @throws InvalidArgument when comm's size is not the partition's ranks,
  ///         on a GPU when the partition's tiles are wider than 32 columns,
  ///         when device_direct is asked of an MPI that is not CUDA-aware,
  ///         or nccl of a build without NCCL or of ranks sharing a GPU
  BlockDecomposition(const Communicator& comm, const PlanePartition& partition,
                     std::shared_ptr<const Executor> exec = nullptr, GpuTransport transport = GpuTransport::automatic);
  /// The nx x ny plane over comm's ranks (PlanePartition::for_ranks()).
  static std::shared_ptr<const BlockDecomposition> over(const Communicator& comm, int nx, int ny, int tile = 16,
                                                        std::shared_ptr<const Executor> exec = nullptr,
                                                        GpuTransport transport = GpuTransport::automatic);
  ~BlockDecomposition() override;
  BlockDecomposition(const BlockDecomposition&) = delete;
  BlockDecomposition& operator=(const BlockDecomposition&) = delete;

  const PlaneBlock& block() const { return block_; }
  /// True when the exchanges send device memory through MPI (a GPU with a CUDA-aware MPI).
  bool device_direct() const { return route_ == GpuTransport::device_direct; }
  /// The transport chosen (never automatic; host_staged for host arrays).
  GpuTransport transport() const { return route_; }
  /// The ghosted block's layout.
  const GhostedBlock& shape() const { return shape_; }
  /// Sums since construction (or the last reset_traffic()).
  const BlockTraffic& traffic() const { return traffic_; }
  void reset_traffic() const { traffic_ = BlockTraffic{}; }
  const PlanePartition& partition() const { return partition_; }
  const Communicator& communicator() const { return comm_; }
  /// Index of owned column (li, lj) (-1 and bx, by: ghosts), layer k, in a ghosted field.
  std::size_t index(int li, int lj, int k) const { return shape_.index(li, lj, k); }

  MemorySpace memory_space() const override { return exec_->memory_space(); }
  int ghosted_nx() const override { return shape_.gx(); }
  int ghosted_ny() const override { return shape_.gy(); }
  int plane_nx() const override { return partition_.nx(); }
  int plane_ny() const override { return partition_.ny(); }
  int first_i() const override { return block_.i_begin - shape_.x0(); }
  int first_j() const override { return block_.j_begin - shape_.y0(); }
  int rank() const override { return comm_.rank(); }
  const std::vector<PlaneBlock>& blocks() const override { return blocks_; }
  void owned(const double* field, int layers, double* out) const override;
  void gather(const double* field, int layers, double* whole) const override;
  void slice(const double* whole, int layers, double* field) const override;
  void begin(const double* field, int layers) const override;
  void end(double* field, int layers) const override;
  void begin(const float* field, int layers) const override;
  void end(float* field, int layers) const override;
  stencil::ColumnFrame frame() const override;
  /// True on the NCCL transport (exchanges, gathers and device-memory sums never wait on the host).
  bool stream_ordered() const override { return route_ == GpuTransport::nccl; }
  /// Host memory only (MPI messages between the ranks whose cells meet).
  std::unique_ptr<PlaneLevelLink> level_link(const PlaneLevelLayout& layout) const override;
  void set_ghosts(double* field, int layers, double value) const override;
  void set_ghosts(float* field, int layers, float value) const override;
  double dot(const double* x, const double* y, int layers) const override;
  double max_abs(const double* x, int layers) const override;
  const VectorSpace<double>& space(int layers, double) const override;
  const VectorSpace<float>& space(int layers, float) const override;

 private:
  struct Exchange;
  /// The exchange of `layers` layers of T (made on first use).
  template <class T>
  Exchange& exchange_of(int layers) const;
  template <class T>
  void start(const T* field, int layers) const;
  template <class T>
  void finish(T* field, int layers) const;
  /// out[i] = the canonical sum of ys[i] x (x null: of ys[i]) over the
  /// owned cells of every rank, in one all-reduce; the first `roots` of
  /// them square roots; rounded to U, into `out` in memory `space`.
  template <class T, class U>
  void reduce(const T* const* ys, int count, const T* x, int layers, int roots, U* out, MemorySpace space) const;
  /// reduce() through host memory and MPI: out[i] the sums in double, on the host.
  template <class T>
  void canonical(const T* const* ys, int count, const T* x, int layers, double* out) const;
  /// reduce() on the device through NCCL: out in device memory.
  template <class T, class U>
  void canonical_on_device(const T* const* ys, int count, const T* x, int layers, int roots, U* out) const;
  /// The executor's CUDA stream i.
  CUstream_st* cuda_stream(int i) const;
  /// Grows the gather buffers to `room` values (they never shrink).
  void reserve_gather(std::size_t room) const;
  /// On the NCCL route, keeps a device buffer being replaced until the
  /// decomposition goes: a graph captured over it (a solver's device loop)
  /// may replay it. Buffers grow a few times a run at most.
  void retire(const std::shared_ptr<double>& buffer) const;
  template <class T>
  class CountedSpace;
  template <class T>
  const VectorSpace<T>& space_of(int layers) const;

  Communicator comm_;
  PlanePartition partition_;
  std::shared_ptr<const Executor> exec_;
  bool device_ = false;                             ///< the arrays are not in host memory
  GpuTransport route_ = GpuTransport::host_staged;  ///< the transport chosen
  std::unique_ptr<NcclLink> nccl_;                  ///< route_ nccl: the NCCL communicator
  int stream_ = 0;                                  ///< the exchanges' stream on a GPU
  PlaneBlock block_;
  std::vector<PlaneBlock> blocks_;  ///< every rank's
  GhostedBlock shape_;
  int neighbour_[4] = {-1, -1, -1, -1};
  std::vector<std::size_t> tiles_;  ///< the owned tiles' global numbers, in tile_partials()' order
  mutable std::map<int, std::unique_ptr<Exchange>> exchanges_;   ///< by 2 layers + (T is double)
  mutable std::vector<double> partials_, mine_;                  ///< every tile's partial of each sum; the owned ones
  mutable std::shared_ptr<double> device_partials_;              ///< the owned tiles' partials on a GPU
  mutable int partial_sums_ = 0;                                 ///< sums the partial buffers hold
  mutable std::shared_ptr<double> slots_mine_, slots_all_;       ///< nccl: every tile's slot of each sum, before and
                                                                 ///< after the all-reduce (mine zero but my tiles')
  mutable int slot_sums_ = 0;                                    ///< nccl: sums the slot buffers hold
  mutable std::shared_ptr<double> sum_out_;                      ///< nccl: device results bound for the host
  mutable std::vector<double> sums_;                             ///< host results
  mutable std::vector<std::shared_ptr<double>> retired_;         ///< nccl: replaced device buffers (see retire())
  mutable std::shared_ptr<double> gather_host_, gather_device_;  ///< a gather's blocks (pinned on a GPU); grow only
  mutable std::size_t gather_room_ = 0;                          ///< values each of them holds
  mutable std::unique_ptr<Event> gather_ready_;                  ///< a device_direct gather's packed cells
  mutable std::map<int, std::unique_ptr<VectorSpace<double>>> spaces64_;
  mutable std::map<int, std::unique_ptr<VectorSpace<float>>> spaces32_;
  mutable BlockTraffic traffic_;
};

}  // namespace voltaic::mpi
