#pragma once
// A batch's stop, spread over the ranks: the first rank whose observer asks
// to stop (a signal to that rank) tells every other rank with one small
// message each, and a rank that hears of it stops at its next poll, so that
// the other ranks do not run on to the end of their shares.

#include <string>
#include <vector>

#include "voltaic/mpi/communicator.hpp"
#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::mpi {

class SpreadStop : public BatchObserver {
 public:
  /// `observer` (may be null): this rank's own reason to stop. Spreads only
  /// where MPI allows calls from the batch's worker threads one at a time
  /// (MPI_THREAD_SERIALIZED: the batch polls under its lock); else each
  /// rank stops on its own reason alone.
  SpreadStop(const Communicator& comm, BatchObserver* observer);
  SpreadStop(const SpreadStop&) = delete;
  SpreadStop& operator=(const SpreadStop&) = delete;
  ~SpreadStop() override;

  /// This rank's reason, else another rank's ("interrupted by SIGTERM on rank 1"), else "".
  std::string stop_reason() override;
  /// After the batch, on every rank together: receives every notice sent
  /// to this rank and completes its own sends (none is left pending).
  void settle();

 private:
  void announce();
  void hear(int source);

  const Communicator& comm_;
  BatchObserver* observer_;
  bool spread_ = false;
  std::string why_;
  std::string notice_;              ///< what this rank sent, alive until its sends complete
  std::vector<MPI_Request> sends_;  ///< to every other rank
  std::vector<char> heard_;         ///< per rank: its notice was received
};

}  // namespace voltaic::mpi
