// Ranks without MPI (a CLI built with VOLTAIC_MPI=OFF or without an MPI
// found): one rank.
#include "ranks.hpp"

namespace voltaic::cli {

namespace {
const Ranks* g_current = nullptr;
}

struct Ranks::Mpi {};

Ranks::Ranks(int&, char**&) { g_current = this; }
Ranks::~Ranks() { g_current = nullptr; }
int Ranks::max(int value) const { return value; }
bool Ranks::broadcast(bool value) const { return value; }
std::string Ranks::broadcast(const std::string& value, int) const { return value; }
int Ranks::first_disagreeing(const std::string&, std::string&) const { return 1; }
std::shared_ptr<const PlaneDecomposition> Ranks::decomposition(int, int, const std::shared_ptr<const Executor>&) const {
  return nullptr;
}

std::vector<BatchCellResult> Ranks::run_batch(BatchSimulation& batch, const ParameterSet&, const SimulationOptions&,
                                              const BatchOptions&, const Experiment& experiment,
                                              BatchObserver* observer, const Checkpoint* resume) const {
  return batch.run(experiment, observer, resume);
}

const Ranks& Ranks::current() { return *g_current; }

}  // namespace voltaic::cli
