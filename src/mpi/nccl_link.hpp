#pragma once
// NCCL between the GPUs of an MPI communicator, one rank a GPU: the
// stream-ordered transfers behind GpuTransport::nccl. Each call only
// enqueues on the stream it is given; the host does not wait. Every rank
// must make the same calls in the same order (the decomposition's ranks
// run the same solver code). Without NCCL (VOLTAIC_HAS_NCCL unset)
// available() is false and the constructor throws BackendUnavailable.

#include <cstddef>

#include "voltaic/core/executor.hpp"
#include "voltaic/mpi/communicator.hpp"

namespace voltaic::mpi {

class NcclLink {
 public:
  /// True when voltaic::mpi was built with NCCL.
  static bool available();
  /// Collective over comm: rank 0's unique id reaches the others by MPI,
  /// then every rank joins on exec's device.
  /// @throws BackendUnavailable without NCCL; MpiError naming the failed call
  NcclLink(const Communicator& comm, const CudaExecutor& exec);
  ~NcclLink();
  NcclLink(const NcclLink&) = delete;
  NcclLink& operator=(const NcclLink&) = delete;

  /// One message of an exchange: `count` values to `peer` from `send`,
  /// and as many from it into `receive` (device memory).
  struct Message {
    int peer;
    const void* send;
    void* receive;
    std::size_t count;
  };
  /// The messages' sends and receives as one group on `stream`; values are
  /// doubles (value_bytes 8) or floats (4).
  void exchange(const Message* messages, int count, std::size_t value_bytes, CUstream_st* stream) const;
  /// receive = the elementwise sum over the ranks of their `count` doubles
  /// at `send`, on `stream`.
  void sum(const double* send, double* receive, std::size_t count, CUstream_st* stream) const;
  /// Every rank r's counts[r] doubles at buffer + offsets[r] to every rank,
  /// in place, one group on `stream`.
  void share(double* buffer, const int* counts, const int* offsets, CUstream_st* stream) const;

 private:
  void* comm_ = nullptr;  ///< the ncclComm_t
  int ranks_ = 0;
};

}  // namespace voltaic::mpi
