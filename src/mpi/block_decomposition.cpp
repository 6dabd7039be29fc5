// The plane cut over MPI ranks behind the core library's PlaneDecomposition.
#include "voltaic/mpi/block_decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "mpi/level_link.hpp"
#include "mpi/nccl_link.hpp"

#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_CUDA_AWARE_SUPPORT and MPIX_Query_cuda_support()
#endif
#endif

namespace voltaic::mpi {

bool mpi_is_cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

bool nccl_is_built() { return NcclLink::available(); }

const char* to_string(GpuTransport t) {
  switch (t) {
    case GpuTransport::automatic: return "automatic";
    case GpuTransport::host_staged: return "host_staged";
    case GpuTransport::device_direct: return "device_direct";
    case GpuTransport::nccl: return "nccl";
  }
  return "?";
}

namespace {

constexpr const char* kWhere = "BlockDecomposition";

/// Memory freed by the executor that gave it.
using Buffer = std::unique_ptr<void, std::function<void(void*)>>;

Buffer device_buffer(const std::shared_ptr<const Executor>& e, std::size_t bytes) {
  return Buffer(e->allocate(bytes), [e](void* p) { e->deallocate(p); });
}

Buffer pinned_buffer(const std::shared_ptr<const Executor>& e, std::size_t bytes) {
  return Buffer(e->allocate_pinned(bytes), [e](void* p) { e->deallocate_pinned(p); });
}

/// True when another rank of comm on this node runs on the same GPU as
/// this one (compared by PCI bus id, whatever each rank's device ordinal).
bool shares_gpu(const Communicator& comm, const Executor& exec) {
  const auto* cuda = dynamic_cast<const CudaExecutor*>(&exec);
  char mine[32] = {};
  if (cuda) std::snprintf(mine, sizeof mine, "%s", cuda->info().pci_bus_id.c_str());
  MPI_Comm node;
  check(MPI_Comm_split_type(comm.get(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int size = 1;
  MPI_Comm_size(node, &size);
  std::vector<char> all(sizeof mine * static_cast<std::size_t>(size));
  const int gathered = MPI_Allgather(mine, sizeof mine, MPI_CHAR, all.data(), sizeof mine, MPI_CHAR, node);
  MPI_Comm_free(&node);
  check(gathered, "MPI_Allgather");
  int same = 0;
  for (int r = 0; r < size; ++r) same += std::strncmp(all.data() + r * sizeof mine, mine, sizeof mine) == 0 ? 1 : 0;
  return same > 1;
}

}  // namespace

/// One exchange of `layers` layers of one precision: the packed edges
/// (each side's part at its offset), and on a GPU their device copies and
/// the events that order the exchange stream with stream 0.
struct BlockDecomposition::Exchange {
  std::size_t values = 0;      ///< edge values, every side
  std::size_t offset[4] = {};  ///< where each side's values start
  Buffer send, receive;        ///< host memory (pinned on a GPU)
  Buffer device_send, device_receive;
  std::unique_ptr<Event> ready, packed, unpacked;
  std::vector<MPI_Request> requests;
};

BlockDecomposition::BlockDecomposition(const Communicator& comm, const PlanePartition& partition,
                                       std::shared_ptr<const Executor> exec, GpuTransport transport)
    : comm_(comm),
      partition_(partition),
      exec_(exec ? std::move(exec) : CpuExecutor::create()),
      device_(exec_->memory_space() != MemorySpace::host()) {
  if (comm_.size() != partition_.ranks())
    throw InvalidArgument(
        "partition", kWhere,
        std::to_string(partition_.ranks()) + " blocks for " + std::to_string(comm_.size()) + " ranks");
  if (device_ && partition_.tile() > 32)
    throw InvalidArgument(
        "partition", kWhere,
        "tiles of " + std::to_string(partition_.tile()) + " columns: a GPU block sums a tile, at most 32 x 32 columns");
  if (device_ && transport == GpuTransport::device_direct && !mpi_is_cuda_aware())
    throw InvalidArgument("transport", kWhere,
                          "device_direct needs a CUDA-aware MPI; this one is not (host_staged or automatic work)");
  if (device_ && transport == GpuTransport::nccl && !NcclLink::available())
    throw InvalidArgument("transport", kWhere,
                          "nccl needs voltaic::mpi built with NCCL (VOLTAIC_NCCL); this one is not (host_staged or "
                          "automatic work)");
  // Every rank asks (the question is collective): the arguments are the same on every rank.
  const bool shared =
      device_ && (transport == GpuTransport::automatic || transport == GpuTransport::nccl) && shares_gpu(comm_, *exec_);
  if (shared && transport == GpuTransport::nccl)
    throw InvalidArgument("transport", kWhere,
                          "nccl needs a GPU for each rank; ranks of this node share one (host_staged or automatic "
                          "work)");
  // Automatic: NCCL where built, else device memory where MPI can, unless
  // ranks share this GPU (then host staging measured faster: docs/performance.md).
  if (!device_)
    route_ = GpuTransport::host_staged;
  else if (transport != GpuTransport::automatic)
    route_ = transport;
  else if (shared)
    route_ = GpuTransport::host_staged;
  else
    route_ = NcclLink::available() ? GpuTransport::nccl
             : mpi_is_cuda_aware() ? GpuTransport::device_direct
                                   : GpuTransport::host_staged;
  if (route_ == GpuTransport::nccl)
    nccl_ = std::make_unique<NcclLink>(comm_, dynamic_cast<const CudaExecutor&>(*exec_));
  block_ = partition_.block(comm_.rank());
  for (int r = 0; r < partition_.ranks(); ++r) blocks_.push_back(partition_.block(r));
  const std::vector<int> n = partition_.neighbours(comm_.rank());
  shape_.bx = block_.nx();
  shape_.by = block_.ny();
  for (int s = 0; s < 4; ++s) {
    neighbour_[s] = n[s];
    shape_.ghost[s] = n[s] >= 0;
  }
  tiles_ = partition_.tiles_of(comm_.rank());
  partials_.assign(partition_.num_tiles(), 0.0);
  mine_.assign(tiles_.size(), 0.0);
  if (device_) {
    const int streams = exec_->num_streams();
    stream_ = streams >= 3 ? 2 : streams - 1;
    device_partials_ = std::shared_ptr<double>(static_cast<double*>(exec_->allocate(mine_.size() * sizeof(double))),
                                               [e = exec_](double* p) { e->deallocate(p); });
  }
}

void BlockDecomposition::retire(const std::shared_ptr<double>& buffer) const {
  if (buffer && route_ == GpuTransport::nccl) retired_.push_back(buffer);
}

CUstream_st* BlockDecomposition::cuda_stream(int i) const {
  return dynamic_cast<const CudaExecutor&>(*exec_).stream(i);
}

BlockDecomposition::~BlockDecomposition() = default;

std::shared_ptr<const BlockDecomposition> BlockDecomposition::over(const Communicator& comm, int nx, int ny, int tile,
                                                                   std::shared_ptr<const Executor> exec,
                                                                   GpuTransport transport) {
  return std::make_shared<const BlockDecomposition>(comm, PlanePartition::for_ranks(nx, ny, comm.size(), tile),
                                                    std::move(exec), transport);
}

template <class T>
BlockDecomposition::Exchange& BlockDecomposition::exchange_of(int layers) const {
  auto& x = exchanges_[2 * layers + (std::is_same_v<T, double> ? 1 : 0)];
  if (x) return *x;
  x = std::make_unique<Exchange>();
  for (int s = 0; s < 4; ++s) {
    x->offset[s] = x->values;
    if (shape_.ghost[s]) x->values += static_cast<std::size_t>(shape_.side_length(s)) * layers;
  }
  const std::size_t bytes = std::max<std::size_t>(x->values, 1) * sizeof(T);
  if (device_) {
    if (route_ == GpuTransport::host_staged) {
      x->send = pinned_buffer(exec_, bytes);
      x->receive = pinned_buffer(exec_, bytes);
    }
    x->device_send = device_buffer(exec_, bytes);
    x->device_receive = device_buffer(exec_, bytes);
    x->ready = exec_->create_event();
    x->packed = exec_->create_event();
    x->unpacked = exec_->create_event();
  } else {
    x->send = Buffer(::operator new(bytes), [](void* p) { ::operator delete(p); });
    x->receive = Buffer(::operator new(bytes), [](void* p) { ::operator delete(p); });
  }
  return *x;
}

template <class T>
void BlockDecomposition::start(const T* field, int layers) const {
  Exchange& x = exchange_of<T>(layers);
  ++traffic_.exchanges;
  if (x.values == 0) return;  // one block: no ghosts
  for (int s = 0; s < 4; ++s)
    if (shape_.ghost[s]) {
      ++traffic_.messages;
      traffic_.exchange_bytes += static_cast<long long>(shape_.side_length(s) * layers * sizeof(T));
    }
  if (route_ == GpuTransport::nccl) {
    // All on the exchange stream, after stream 0's last write of the field: the host goes on at once.
    x.ready->record(0);
    x.ready->wait(stream_);
    auto* send = static_cast<T*>(x.device_send.get());
    auto* receive = static_cast<T*>(x.device_receive.get());
    ghost_columns::pack(*exec_, shape_, layers, field, send, stream_);
    NcclLink::Message messages[4];
    int count = 0;
    for (int s = 0; s < 4; ++s)
      if (shape_.ghost[s])
        messages[count++] = {neighbour_[s], send + x.offset[s], receive + x.offset[s],
                             static_cast<std::size_t>(shape_.side_length(s)) * layers};
    nccl_->exchange(messages, count, sizeof(T), cuda_stream(stream_));
    return;
  }
  const bool direct = route_ == GpuTransport::device_direct;
  const MPI_Datatype type = std::is_same_v<T, double> ? MPI_DOUBLE : MPI_FLOAT;
  // A tag per layer count and precision: exchanges of several may be in flight.
  const int tag = 1000 + 2 * layers + (std::is_same_v<T, double> ? 1 : 0);
  // Device-direct: the neighbours' edges land in device memory.
  auto* receive = static_cast<T*>(direct ? x.device_receive.get() : x.receive.get());
  // The last exchange's edges may still be on their way up from `receive` (or being unpacked from it).
  if (device_) x.unpacked->synchronize();
  x.requests.clear();
  for (int s = 0; s < 4; ++s) {
    if (!shape_.ghost[s]) continue;
    const int count = shape_.side_length(s) * layers;
    check(MPI_Irecv(receive + x.offset[s], count, type, neighbour_[s], tag, comm_.get(), &x.requests.emplace_back()),
          "MPI_Irecv");
  }
  if (device_) {
    // After what stream 0 has queued (the field's last writer); the host goes on.
    x.ready->record(0);
    x.ready->wait(stream_);
    ghost_columns::pack(*exec_, shape_, layers, field, static_cast<T*>(x.device_send.get()), stream_);
    if (!direct)
      exec_->copy_async(x.send.get(), MemorySpace::host(), x.device_send.get(), exec_->memory_space(),
                        x.values * sizeof(T), stream_);
    x.packed->record(stream_);
    return;  // sent in finish(), once packed
  }
  ghost_columns::pack(*exec_, shape_, layers, field, static_cast<T*>(x.send.get()));
  for (int s = 0; s < 4; ++s) {
    if (!shape_.ghost[s]) continue;
    // The neighbour across side s receives these as its opposite side's ghosts.
    check(MPI_Isend(static_cast<T*>(x.send.get()) + x.offset[s], shape_.side_length(s) * layers, type, neighbour_[s],
                    tag, comm_.get(), &x.requests.emplace_back()),
          "MPI_Isend");
  }
}

template <class T>
void BlockDecomposition::finish(T* field, int layers) const {
  Exchange& x = exchange_of<T>(layers);
  if (x.values == 0) return;
  const bool direct = route_ == GpuTransport::device_direct;
  if (route_ == GpuTransport::nccl) {
    ghost_columns::unpack(*exec_, shape_, layers, static_cast<const T*>(x.device_receive.get()), field, stream_);
    x.unpacked->record(stream_);
    x.unpacked->wait(0);
    return;
  }
  if (device_) {
    const MPI_Datatype type = std::is_same_v<T, double> ? MPI_DOUBLE : MPI_FLOAT;
    const int tag = 1000 + 2 * layers + (std::is_same_v<T, double> ? 1 : 0);
    x.packed->synchronize();
    auto* send = static_cast<T*>(direct ? x.device_send.get() : x.send.get());
    for (int s = 0; s < 4; ++s) {
      if (!shape_.ghost[s]) continue;
      check(MPI_Isend(send + x.offset[s], shape_.side_length(s) * layers, type, neighbour_[s], tag, comm_.get(),
                      &x.requests.emplace_back()),
            "MPI_Isend");
    }
  }
  check(MPI_Waitall(static_cast<int>(x.requests.size()), x.requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  x.requests.clear();
  if (!device_) return ghost_columns::unpack(*exec_, shape_, layers, static_cast<const T*>(x.receive.get()), field);
  if (!direct)
    exec_->copy_async(x.device_receive.get(), exec_->memory_space(), x.receive.get(), MemorySpace::host(),
                      x.values * sizeof(T), stream_);
  ghost_columns::unpack(*exec_, shape_, layers, static_cast<const T*>(x.device_receive.get()), field, stream_);
  x.unpacked->record(stream_);
  x.unpacked->wait(0);
}

void BlockDecomposition::begin(const double* field, int layers) const { start(field, layers); }
void BlockDecomposition::end(double* field, int layers) const { finish(field, layers); }
void BlockDecomposition::begin(const float* field, int layers) const { start(field, layers); }
void BlockDecomposition::end(float* field, int layers) const { finish(field, layers); }

stencil::ColumnFrame BlockDecomposition::frame() const {
  stencil::ColumnFrame f;
  f.x_lo = shape_.ghost[0] ? 2 : 0;
  f.x_hi = shape_.ghost[1] ? 2 : 0;
  f.y_lo = shape_.ghost[2] ? 2 : 0;
  f.y_hi = shape_.ghost[3] ? 2 : 0;
  return f;
}

void BlockDecomposition::set_ghosts(double* field, int layers, double value) const {
  ghost_columns::fill(*exec_, shape_, layers, field, value);
}

void BlockDecomposition::set_ghosts(float* field, int layers, float value) const {
  ghost_columns::fill(*exec_, shape_, layers, field, value);
}

template <class T>
void BlockDecomposition::canonical(const T* const* ys, int count, const T* x, int layers, double* out) const {
  const std::size_t owned = tiles_.size(), all = partition_.num_tiles(), n = static_cast<std::size_t>(count);
  if (partial_sums_ < count) {
    partials_.resize(all * n);
    mine_.resize(owned * n);
    if (device_) {
      const auto e = exec_;
      device_partials_.reset(static_cast<double*>(e->allocate(mine_.size() * sizeof(double))),
                             [e](double* p) { e->deallocate(p); });
    }
    partial_sums_ = count;
  }
  ++traffic_.sums;
  traffic_.sum_bytes += static_cast<long long>(all * n * sizeof(double));
  double* local = device_ ? device_partials_.get() : mine_.data();
  ghost_columns::tile_partials_of_rows(*exec_, shape_, layers, partition_.tile(), ys, count, x, local, owned);
  if (device_) exec_->copy(mine_.data(), MemorySpace::host(), local, exec_->memory_space(), owned * n * sizeof(double));
  std::fill(partials_.begin(), partials_.begin() + all * n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t m = 0; m < owned; ++m) partials_[i * all + tiles_[m]] = mine_[i * owned + m];
  // Each slot has one rank's value and zeros: exact, in any order MPI adds.
  check(MPI_Allreduce(MPI_IN_PLACE, partials_.data(), static_cast<int>(all * n), MPI_DOUBLE, MPI_SUM, comm_.get()),
        "MPI_Allreduce");
  for (std::size_t i = 0; i < n; ++i) out[i] = sum_of_partials(partials_.data() + i * all, all);
}

template <class T, class U>
void BlockDecomposition::canonical_on_device(const T* const* ys, int count, const T* x, int layers, int roots,
                                             U* out) const {
  const std::size_t all = partition_.num_tiles(), n = static_cast<std::size_t>(count);
  if (slot_sums_ < count) {
    // Grown, the old buffers stay allocated: a captured graph may still read them.
    retire(slots_mine_);
    retire(slots_all_);
    const auto e = exec_;
    const auto slots = [&e, all, n] {
      return std::shared_ptr<double>(static_cast<double*>(e->allocate(all * n * sizeof(double))),
                                     [e](double* p) { e->deallocate(p); });
    };
    slots_mine_ = slots();
    slots_all_ = slots();
    // Zero but this rank's slots, which every sum overwrites: the all-reduce adds one value and zeros, exactly.
    const std::vector<double> zeros(all * n, 0.0);
    e->copy(slots_mine_.get(), e->memory_space(), zeros.data(), MemorySpace::host(), all * n * sizeof(double));
    slot_sums_ = count;
  }
  ++traffic_.sums;
  traffic_.sum_bytes += static_cast<long long>(all * n * sizeof(double));
  const TileSlots mine{tiles_.front(), static_cast<std::size_t>(partition_.tiles_x())};
  ghost_columns::tile_partials_of_rows(*exec_, shape_, layers, partition_.tile(), ys, count, x, slots_mine_.get(), all,
                                       mine);
  // On stream 0, between the partials and the tree: no event between streams
  // (the exchanges' NCCL groups on their stream have all joined stream 0 by
  // now, so the communicator's operations stay in one order). One rank holds
  // every slot already: no all-reduce.
  const double* slots = slots_mine_.get();
  if (comm_.size() > 1) {
    nccl_->sum(slots_mine_.get(), slots_all_.get(), all * n, cuda_stream(0));
    slots = slots_all_.get();
  }
  ghost_columns::sum_partials(*exec_, slots, all, count, roots, out, 0);
}

template <class T, class U>
void BlockDecomposition::reduce(const T* const* ys, int count, const T* x, int layers, int roots, U* out,
                                MemorySpace space) const {
  if (count < 1) return;
  const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(U);
  if (route_ == GpuTransport::nccl) {
    if (space != MemorySpace::host()) return canonical_on_device(ys, count, x, layers, roots, out);
    if (!sum_out_ || sums_.size() < static_cast<std::size_t>(count)) {
      sums_.resize(static_cast<std::size_t>(count));
      const auto e = exec_;
      sum_out_.reset(static_cast<double*>(e->allocate(sums_.size() * sizeof(double))),
                     [e](double* p) { e->deallocate(p); });
    }
    auto* device = reinterpret_cast<U*>(sum_out_.get());
    canonical_on_device(ys, count, x, layers, roots, device);
    return exec_->copy(out, space, device, exec_->memory_space(), bytes);
  }
  sums_.resize(static_cast<std::size_t>(count));
  canonical(ys, count, x, layers, sums_.data());
  for (int i = 0; i < roots; ++i) sums_[i] = std::sqrt(sums_[i]);
  if (space == MemorySpace::host()) return static_cast<void>(std::copy(sums_.begin(), sums_.begin() + count, out));
  const std::vector<U> values(sums_.begin(), sums_.begin() + count);  // rounded to U, for one copy
  exec_->copy(out, space, values.data(), MemorySpace::host(), bytes);
}

double BlockDecomposition::dot(const double* x, const double* y, int layers) const {
  double s = 0.0;
  reduce(&x, 1, y, layers, 0, &s, MemorySpace::host());
  return s;
}

std::unique_ptr<PlaneLevelLink> BlockDecomposition::level_link(const PlaneLevelLayout& layout) const {
  return std::make_unique<LevelLink>(comm_, layout, exec_);  // over MPI, staged through host memory on a GPU
}

double BlockDecomposition::max_abs(const double* x, int layers) const {
  const double m = ghost_columns::max_abs(*exec_, shape_, layers, x);
  double local[2] = {std::isnan(m) ? 0.0 : m, std::isnan(m) ? 1.0 : 0.0};  // the largest |x|, 1 where one is NaN
  double all[2];
  ++traffic_.maxima;
  check(MPI_Allreduce(local, all, 2, MPI_DOUBLE, MPI_MAX, comm_.get()), "MPI_Allreduce");
  return all[1] != 0.0 ? NAN : all[0];
}

void BlockDecomposition::gather(const double* field, int layers, double* whole) const {
  // Each rank's owned cells (ghost_columns::owned()'s order), every rank's
  // to every rank, each placed in the whole plane. On a GPU packed and
  // placed by kernels: with device_direct the blocks go from device memory
  // to device memory, else through pinned host memory.
  std::vector<int> counts(comm_.size()), offsets(comm_.size());
  std::size_t total = 0;
  for (int r = 0; r < comm_.size(); ++r) {
    counts[r] = static_cast<int>(partition_.block(r).columns() * static_cast<std::size_t>(layers));
    offsets[r] = static_cast<int>(total);
    total += static_cast<std::size_t>(counts[r]);
  }
  const std::size_t mine = static_cast<std::size_t>(counts[comm_.rank()]);
  const bool staged = route_ == GpuTransport::host_staged;
  reserve_gather(staged ? total + mine : total);  // staged: this rank's cells after every block
  ++traffic_.gathers;
  traffic_.gather_bytes += static_cast<long long>(total * sizeof(double));
  const double* blocks = nullptr;
  if (route_ == GpuTransport::nccl) {
    double* const all = gather_device_.get();  // every block; this rank's packed in its place, the others' shared
    ghost_columns::owned(*exec_, shape_, layers, field, all + offsets[comm_.rank()]);
    if (comm_.size() > 1) nccl_->share(all, counts.data(), offsets.data(), cuda_stream(0));  // as a sum's
    blocks = all;
  } else if (!staged) {
    double* const all = gather_device_.get();  // every block; this rank's packed in its place
    ghost_columns::owned(*exec_, shape_, layers, field, all + offsets[comm_.rank()]);
    gather_ready_->record(0);
    gather_ready_->synchronize();  // MPI reads device memory outside the streams' order
    check(
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts.data(), offsets.data(), MPI_DOUBLE, comm_.get()),
        "MPI_Allgatherv");
    blocks = all;
  } else {
    double* const all = gather_host_.get();  // every block, then this rank's
    double* const own = all + total;
    if (device_) {
      ghost_columns::owned(*exec_, shape_, layers, field, gather_device_.get() + total);
      exec_->copy(own, MemorySpace::host(), gather_device_.get() + total, exec_->memory_space(), mine * sizeof(double));
    } else {
      ghost_columns::owned(*exec_, shape_, layers, field, own);
    }
    check(MPI_Allgatherv(own, static_cast<int>(mine), MPI_DOUBLE, all, counts.data(), offsets.data(), MPI_DOUBLE,
                         comm_.get()),
          "MPI_Allgatherv");
    blocks = all;
    if (device_) {
      exec_->copy_async(gather_device_.get(), exec_->memory_space(), all, MemorySpace::host(), total * sizeof(double),
                        0);
      blocks = gather_device_.get();
    }
  }
  for (int r = 0; r < comm_.size(); ++r) {
    const PlaneBlock b = partition_.block(r);
    ghost_columns::place(*exec_, b.nx(), b.ny(), layers, partition_.nx(), partition_.ny(), b.i_begin, b.j_begin,
                         blocks + offsets[r], whole);
  }
}

void BlockDecomposition::reserve_gather(std::size_t room) const {
  if (gather_room_ >= room) return;
  const auto e = exec_;
  if (device_) {
    retire(gather_device_);  // a captured graph may still read it
    gather_device_.reset(static_cast<double*>(e->allocate(room * sizeof(double))),
                         [e](double* p) { e->deallocate(p); });
    if (route_ == GpuTransport::host_staged)
      gather_host_.reset(static_cast<double*>(e->allocate_pinned(room * sizeof(double))),
                         [e](double* p) { e->deallocate_pinned(p); });
    if (!gather_ready_) gather_ready_ = e->create_event();
  } else {
    gather_host_.reset(new double[room], std::default_delete<double[]>());
  }
  gather_room_ = room;
}

void BlockDecomposition::owned(const double* field, int layers, double* out) const {
  ghost_columns::owned(*exec_, shape_, layers, field, out);
}

void BlockDecomposition::slice(const double* whole, int layers, double* field) const {
  ghost_columns::slice(*exec_, shape_, layers, partition_.nx(), partition_.ny(), first_i(), first_j(), whole, field);
}

/// The canonical sums as a VectorSpace (of ghosted vectors of `layers`
/// layers), counted in the decomposition's traffic.
template <class T>
class BlockDecomposition::CountedSpace final : public VectorSpace<T> {
 public:
  CountedSpace(const BlockDecomposition& d, int layers) : d_(d), layers_(layers) {}
  double dot(const Executor&, View<const T> x, View<const T> y) const override {
    double s = 0.0;
    const T* xs = x.data();
    d_.reduce(&xs, 1, y.data(), layers(x), 0, &s, MemorySpace::host());
    return s;
  }
  void block_dot(const Executor&, View<const T> ys, std::size_t stride, int count, View<const T> x,
                 View<T> result) const override {
    if (count < 1) return;
    rows_.clear();
    for (int i = 0; i < count; ++i) rows_.push_back(ys.data() + static_cast<std::size_t>(i) * stride);
    d_.reduce(rows_.data(), count, x.data(), layers(x), 0, result.data(), result.space());
  }
  void norm_and_dot(const Executor&, View<const T> x, View<const T> y, View<T> result) const override {
    // x x and y x: the unfused nrm2's and dot's sums (the products commute exactly); the first a root.
    rows_.assign({x.data(), y.data()});
    d_.reduce(rows_.data(), 2, x.data(), layers(x), 1, result.data(), result.space());
  }
  void dot(const Executor&, View<const T> x, View<const T> y, View<T> result) const override {
    const T* xs = x.data();
    d_.reduce(&xs, 1, y.data(), layers(x), 0, result.data(), result.space());
  }
  double nrm2(const Executor& e, View<const T> x) const override { return std::sqrt(dot(e, x, x)); }
  void nrm2(const Executor&, View<const T> x, View<T> result) const override {
    const T* xs = x.data();
    d_.reduce(&xs, 1, xs, layers(x), 1, result.data(), result.space());
  }

 private:
  int layers(View<const T> x) const {
    if (x.size() != d_.shape_.layer() * static_cast<std::size_t>(layers_))
      throw SizeMismatch("x", "BlockDecomposition::space",
                         std::to_string(x.size()) + " values for a ghosted block of " + std::to_string(layers_) +
                             " layers of " + std::to_string(d_.shape_.layer()));
    return layers_;
  }
  const BlockDecomposition& d_;
  int layers_;
  mutable std::vector<const T*> rows_;
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
