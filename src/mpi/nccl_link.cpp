// NCCL between the GPUs of an MPI communicator (nccl_link.hpp).
#include "mpi/nccl_link.hpp"

#include <cstdlib>
#include <exception>
#include <string>

#if VOLTAIC_HAS_NCCL
#include <nccl.h>
#endif

namespace voltaic::mpi {

#if VOLTAIC_HAS_NCCL

namespace {

void check_nccl(ncclResult_t code, const char* call) {
  if (code != ncclSuccess) throw MpiError(call, "voltaic::mpi (NCCL)", ncclGetErrorString(code));
}

ncclComm_t as_comm(void* c) { return static_cast<ncclComm_t>(c); }

/// ncclGroupStart() now, ncclGroupEnd() on every way out: a failed call
/// inside a group must still close it.
class Group {
 public:
  Group() { check_nccl(ncclGroupStart(), "ncclGroupStart"); }
  ~Group() noexcept(false) {
    const ncclResult_t end = ncclGroupEnd();
    if (!std::uncaught_exceptions()) check_nccl(end, "ncclGroupEnd");
  }
};

}  // namespace

bool NcclLink::available() { return true; }

NcclLink::NcclLink(const Communicator& comm, const CudaExecutor& exec) : ranks_(comm.size()) {
  // Rank 0's id and whether it has one, so that no rank waits for an id that never comes.
  struct {
    int ok;
    ncclUniqueId id;
  } root{};
  if (comm.rank() == 0) root.ok = ncclGetUniqueId(&root.id) == ncclSuccess ? 1 : 0;
  check(MPI_Bcast(&root, sizeof root, MPI_BYTE, 0, comm.get()), "MPI_Bcast");
  if (!root.ok) throw MpiError("ncclGetUniqueId", "voltaic::mpi (NCCL)", "rank 0 could not make a unique id");
  // NCCL's operations then take no event nodes in a captured graph, which a
  // conditional node's body (the solvers' device loops) cannot hold. Safe
  // here: every NCCL operation of a decomposition joins stream 0 before the
  // next is queued, so captured and uncaptured ones never run at once. A
  // value the user set is kept.
  setenv("NCCL_GRAPH_MIXING_SUPPORT", "0", 0);
  exec.activate();
  ncclComm_t c = nullptr;
  check_nccl(ncclCommInitRank(&c, comm.size(), root.id, comm.rank()), "ncclCommInitRank");
  comm_ = c;
}

NcclLink::~NcclLink() {
  if (comm_) ncclCommDestroy(as_comm(comm_));
}

void NcclLink::exchange(const Message* messages, int count, std::size_t value_bytes, CUstream_st* stream) const {
  const ncclDataType_t type = value_bytes == 8 ? ncclFloat64 : ncclFloat32;
  Group group;
  for (int m = 0; m < count; ++m) {
    const Message& x = messages[m];
    check_nccl(ncclRecv(x.receive, x.count, type, x.peer, as_comm(comm_), stream), "ncclRecv");
    check_nccl(ncclSend(x.send, x.count, type, x.peer, as_comm(comm_), stream), "ncclSend");
  }
}

void NcclLink::sum(const double* send, double* receive, std::size_t count, CUstream_st* stream) const {
  check_nccl(ncclAllReduce(send, receive, count, ncclFloat64, ncclSum, as_comm(comm_), stream), "ncclAllReduce");
}

void NcclLink::share(double* buffer, const int* counts, const int* offsets, CUstream_st* stream) const {
  Group group;
  for (int r = 0; r < ranks_; ++r)
    check_nccl(ncclBroadcast(buffer + offsets[r], buffer + offsets[r], static_cast<std::size_t>(counts[r]), ncclFloat64,
                             r, as_comm(comm_), stream),
               "ncclBroadcast");
}

#else

bool NcclLink::available() { return false; }

NcclLink::NcclLink(const Communicator&, const CudaExecutor&) {
  throw BackendUnavailable("transport", "voltaic::mpi", "GpuTransport::nccl: voltaic::mpi was built without NCCL");
}

NcclLink::~NcclLink() = default;
void NcclLink::exchange(const Message*, int, std::size_t, CUstream_st*) const {}
void NcclLink::sum(const double*, double*, std::size_t, CUstream_st*) const {}
void NcclLink::share(double*, const int*, const int*, CUstream_st*) const {}

#endif

}  // namespace voltaic::mpi
