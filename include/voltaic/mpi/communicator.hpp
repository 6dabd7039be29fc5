#pragma once
/// @file communicator.hpp
/// @brief MPI for voltaic (the voltaic::mpi library, built with
/// VOLTAIC_MPI): the program's MPI session, a communicator and the few
/// collectives the distributed solver uses, errors as typed exceptions.

#include <mpi.h>

#include <string>

#include "voltaic/core/error.hpp"

namespace voltaic::mpi {

/// An MPI (or NCCL) call failed; what() names the call and the library's message.
class MpiError : public Error {
  using Error::Error;
};

/// MPI_Init_thread (funneled) for the lifetime of the object and
/// MPI_Finalize after it; when MPI is already initialised it does neither.
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

 private:
  bool owns_ = false;
};

/// A communicator (MPI_COMM_WORLD by default; not owned).
class Communicator {
 public:
  explicit Communicator(MPI_Comm comm = MPI_COMM_WORLD);
  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm get() const { return comm_; }
  void barrier() const;
  /// The largest of `value` over the ranks.
  int max(int value) const;

 private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};

/// Throws MpiError naming `call` when `code` is not MPI_SUCCESS.
void check(int code, const char* call);

}  // namespace voltaic::mpi
