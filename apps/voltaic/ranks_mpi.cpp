// Ranks with MPI: MPI starts only when a launcher started this process as
// one of several ranks (its environment says so), so that a plain
// `voltaic run` pays nothing for it.
#include <cstdlib>

#include "ranks.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/mpi/block_decomposition.hpp"
#include "voltaic/mpi/distributed_batch.hpp"

namespace voltaic::cli {

namespace {

const Ranks* g_current = nullptr;

/// Set by Open MPI, MPICH / PMI, PMIx and MVAPICH launchers.
bool launched_as_rank() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MV2_COMM_WORLD_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

}  // namespace

struct Ranks::Mpi {
  Mpi(int& argc, char**& argv) : session(argc, argv) {}
  mpi::Session session;
  mpi::Communicator world;
};

Ranks::Ranks(int& argc, char**& argv) {
  g_current = this;
  if (!launched_as_rank()) return;
  mpi_ = std::make_unique<Mpi>(argc, argv);
  rank_ = mpi_->world.rank();
  size_ = mpi_->world.size();
}

Ranks::~Ranks() { g_current = nullptr; }

int Ranks::max(int value) const { return mpi_ ? mpi_->world.max(value) : value; }

bool Ranks::broadcast(bool value) const {
  if (!mpi_) return value;
  int v = value ? 1 : 0;
  mpi::check(MPI_Bcast(&v, 1, MPI_INT, 0, mpi_->world.get()), "MPI_Bcast");
  return v != 0;
}

std::string Ranks::broadcast(const std::string& value, int from) const {
  if (!mpi_) return value;
  unsigned long long length = value.size();
  mpi::check(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, from, mpi_->world.get()), "MPI_Bcast");
  std::string out = rank_ == from ? value : std::string(length, '\0');
  mpi::check(MPI_Bcast(out.data(), static_cast<int>(length), MPI_CHAR, from, mpi_->world.get()), "MPI_Bcast");
  return out;
}

int Ranks::first_disagreeing(const std::string& text, std::string& theirs) const {
  const std::string root_text = broadcast(text);
  const int first = -max(text == root_text ? -size_ : -rank_);
  if (first < size_) theirs = broadcast(text, first);
  return first;
}

std::shared_ptr<const PlaneDecomposition> Ranks::decomposition(int nx, int ny,
                                                               const std::shared_ptr<const Executor>& exec) const {
  if (size_ == 1) return nullptr;
  return mpi::BlockDecomposition::over(mpi_->world, nx, ny, 16, exec);
}

std::vector<BatchCellResult> Ranks::run_batch(BatchSimulation& batch, const ParameterSet& base,
                                              const SimulationOptions& options, const BatchOptions& batch_options,
                                              const Experiment& experiment, BatchObserver* observer,
                                              const Checkpoint* resume) const {
  if (size_ == 1) return batch.run(experiment, observer, resume);
  if (resume) throw InvalidArgument("--resume", "voltaic sweep", "goes on from a checkpoint on one rank only");
  BatchOptions keep = batch_options;
  keep.keep_curves = true;  // the curves travel to rank 0 with the results
  return mpi::run_batch(mpi_->world, base, batch.cells(), options, batch.executor(), keep, experiment, observer);
}

const Ranks& Ranks::current() { return *g_current; }

}  // namespace voltaic::cli
