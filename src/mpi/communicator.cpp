// The MPI session and communicator: thin, checked wrappers.
#include "voltaic/mpi/communicator.hpp"

namespace voltaic::mpi {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw MpiError(call, "voltaic::mpi", std::string(text, static_cast<std::size_t>(length)));
}

Session::Session(int& argc, char**& argv) {
  int initialised = 0;
  check(MPI_Initialized(&initialised), "MPI_Initialized");
  if (initialised) return;
  int provided = 0;
  // SERIALIZED: a batch's worker threads poll for other ranks' stops, one at a time (SpreadStop).
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
  owns_ = true;
  // Errors come back as codes (check() turns them into exceptions), not aborts.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

Session::~Session() {
  if (owns_) MPI_Finalize();
}

Communicator::Communicator(MPI_Comm comm) : comm_(comm) {
  check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

void Communicator::barrier() const { check(MPI_Barrier(comm_), "MPI_Barrier"); }

int Communicator::max(int value) const {
  check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_MAX, comm_), "MPI_Allreduce");
  return value;
}

}  // namespace voltaic::mpi
