#pragma once
// The voltaic CLI's subcommands and its exit codes.

#include <string>

namespace voltaic::cli {

/// Exit codes: documented in docs/getting_started.md.
enum ExitCode : int {
  kSuccess = 0,
  kInternalError = 1,  ///< a bug or a system failure (a CUDA error, a full disk, an output file not written)
  kBadInput = 2,       ///< the command line, a config, BPX file, table or checkpoint; a grid too large for memory;
                       ///< an output directory in use
  kSolverFailure = 3,  ///< the simulation stopped early: a step failed after its retries, or was infeasible
  kInterrupted = 130,  ///< SIGINT: the outputs and a checkpoint were committed at the last step
  kTerminated = 143,   ///< SIGTERM: as kInterrupted
};

struct RunArguments {
  std::string config;
  std::string output;   ///< overrides [output] directory when not empty
  std::string backend;  ///< overrides [solver] backend when not empty
  std::string restart;  ///< a checkpoint to continue from
};

struct SweepArguments {
  std::string config;
  std::string output;             ///< overrides [output] directory when not empty
  std::string backend;            ///< overrides [solver] backend when not empty
  int threads = 0;                ///< CPU worker threads, 0: every hardware thread
  std::string checkpoint;         ///< where a stopped sweep leaves its state ("": nowhere)
  double checkpoint_every = 0.0;  ///< [s] of wall time between checkpoints as well (0: only when stopped)
  std::string resume;             ///< the checkpoint to go on from ("": start afresh)
  std::string cells;              ///< the cells to run, by number ("": all; io::parse_cell_selection)
};

struct PackArguments {
  std::string config;
  std::string output;   ///< overrides [output] directory when not empty
  std::string backend;  ///< overrides [solver] backend when not empty
};

int run_command(const RunArguments& args);
int sweep_command(const SweepArguments& args);
int pack_command(const PackArguments& args);
int params_command(const std::string& name);
int info_command();

}  // namespace voltaic::cli
