#pragma once
// The MPI ranks the CLI runs on: one without MPI or without a launcher;
// under mpirun (srun, ...) with a CLI built with VOLTAIC_MPI, every rank.
// Only rank 0 prints and writes; `voltaic sweep` spreads its cells,
// `voltaic run` cuts its cell's plane.

#include <memory>
#include <string>
#include <vector>

#include "voltaic/linalg/plane_decomposition.hpp"
#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::cli {

class Ranks {
 public:
  /// Starts MPI when this process was launched as one of several ranks.
  Ranks(int& argc, char**& argv);
  ~Ranks();
  Ranks(const Ranks&) = delete;
  Ranks& operator=(const Ranks&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }
  /// The largest of `value` over the ranks (value itself on one rank).
  int max(int value) const;
  /// Rank 0's value (rank `from`'s), on every rank.
  bool broadcast(bool value) const;
  std::string broadcast(const std::string& value, int from = 0) const;
  /// The first rank whose `text` differs from rank 0's, or size() when all
  /// agree; every rank calls it at the same point. `theirs` receives that
  /// rank's text (on every rank).
  int first_disagreeing(const std::string& text, std::string& theirs) const;
  /// The nx x ny plane cut over the ranks (mpi::BlockDecomposition) for arrays
  /// in exec's memory; null on one rank.
  /// @throws InvalidArgument when the plane has fewer tiles than there are ranks
  std::shared_ptr<const PlaneDecomposition> decomposition(int nx, int ny,
                                                          const std::shared_ptr<const Executor>& exec) const;
  /// The batch run on every rank, each its share of the cells, gathered on
  /// rank 0 (mpi::run_batch); on one rank batch.run(). Rank 0 returns the
  /// results and its observer sees every cell; the others return none.
  /// `resume` (BatchSimulation::run's) on one rank only.
  /// @throws InvalidArgument for a `resume` on several ranks
  std::vector<BatchCellResult> run_batch(BatchSimulation& batch, const ParameterSet& base,
                                         const SimulationOptions& options, const BatchOptions& batch_options,
                                         const Experiment& experiment, BatchObserver* observer,
                                         const Checkpoint* resume = nullptr) const;

  /// The process-wide instance main() made (for the subcommands).
  static const Ranks& current();

 private:
  struct Mpi;
  std::unique_ptr<Mpi> mpi_;
  int rank_ = 0, size_ = 1;
};

}  // namespace voltaic::cli
