#include "spread_stop.hpp"

namespace voltaic::mpi {

namespace {
constexpr int kStopTag = 4303;
}

SpreadStop::SpreadStop(const Communicator& comm, BatchObserver* observer)
    : comm_(comm), observer_(observer), heard_(static_cast<std::size_t>(comm.size()), 0) {
  int level = MPI_THREAD_SINGLE;
  check(MPI_Query_thread(&level), "MPI_Query_thread");
  spread_ = comm.size() > 1 && level >= MPI_THREAD_SERIALIZED;
}

SpreadStop::~SpreadStop() {
  // A batch that threw before settle(): the sends were eager (a few bytes);
  // free the requests rather than wait on ranks that may have left.
  for (MPI_Request& r : sends_)
    if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
}

std::string SpreadStop::stop_reason() {
  if (!why_.empty()) return why_;
  std::string mine = observer_ ? observer_->stop_reason() : std::string();
  if (!mine.empty()) {
    why_ = std::move(mine);
    if (spread_) announce();
    return why_;
  }
  if (!spread_) return why_;
  int waiting = 0;
  MPI_Status status;
  check(MPI_Iprobe(MPI_ANY_SOURCE, kStopTag, comm_.get(), &waiting, &status), "MPI_Iprobe");
  if (waiting) hear(status.MPI_SOURCE);
  return why_;
}

void SpreadStop::announce() {
  notice_ = why_;
  for (int r = 0; r < comm_.size(); ++r) {
    if (r == comm_.rank()) continue;
    sends_.emplace_back();
    check(
        MPI_Isend(notice_.data(), static_cast<int>(notice_.size()), MPI_CHAR, r, kStopTag, comm_.get(), &sends_.back()),
        "MPI_Isend");
  }
}

void SpreadStop::hear(int source) {
  MPI_Status status;
  check(MPI_Probe(source, kStopTag, comm_.get(), &status), "MPI_Probe");
  int length = 0;
  check(MPI_Get_count(&status, MPI_CHAR, &length), "MPI_Get_count");
  std::string text(static_cast<std::size_t>(length), '\0');
  check(MPI_Recv(text.data(), length, MPI_CHAR, source, kStopTag, comm_.get(), MPI_STATUS_IGNORE), "MPI_Recv");
  heard_[static_cast<std::size_t>(source)] = 1;
  if (why_.empty()) why_ = text + " on rank " + std::to_string(source);
}

void SpreadStop::settle() {
  if (!spread_) return;
  int sent = sends_.empty() ? 0 : 1;
  std::vector<int> senders(static_cast<std::size_t>(comm_.size()), 0);
  check(MPI_Allgather(&sent, 1, MPI_INT, senders.data(), 1, MPI_INT, comm_.get()), "MPI_Allgather");
  for (int r = 0; r < comm_.size(); ++r)
    if (r != comm_.rank() && senders[static_cast<std::size_t>(r)] && !heard_[static_cast<std::size_t>(r)]) hear(r);
  if (!sends_.empty())
    check(MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  sends_.clear();
}

}  // namespace voltaic::mpi
