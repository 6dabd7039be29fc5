// voltaic run: everything the input can get wrong is checked before a file
// is written; then the run streams its rows, fields and checkpoints to the
// output directory's staging area, publishes them as one set, and a summary
// ends it. SIGINT and SIGTERM end it the same way, a step early.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "command_support.hpp"
#include "commands.hpp"
#include "progress.hpp"
#include "ranks.hpp"
#include "stop_signals.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/version.hpp"
#include "voltaic/io/atomic_file.hpp"
#include "voltaic/io/checkpoint_file.hpp"
#include "voltaic/io/config.hpp"
#include "voltaic/io/output_directory.hpp"
#include "voltaic/io/output_path.hpp"
#include "voltaic/io/run_output.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic::cli {

namespace fs = std::filesystem;

namespace {

/// RunOutput that also drives the progress display, and stops the run after SIGINT or SIGTERM.
class CliOutput : public io::RunOutput {
 public:
  CliOutput(const io::OutputConfig& output, const CellLayout& layout, Progress& progress, double start_time)
      : RunOutput(output, layout, start_time), progress_(progress) {}
  void on_row(const Solution& solution) override {
    RunOutput::on_row(solution);
    progress_.update(solution);
  }
  std::string stop_reason() override {
    const int signal = stop_signal();
    return signal == 0 ? std::string() : std::string("interrupted by ") + signal_name(signal);
  }

 private:
  Progress& progress_;
};

void print_summary(const Solution& s, const Simulation& sim, double wall_s, const std::vector<std::string>& files) {
  if (s.rows() == 0) return;
  const std::size_t last = s.rows() - 1;
  double t_max = 0.0;
  for (double t : s["Maximum cell temperature [K]"]) t_max = std::max(t_max, t);
  std::printf("\n%s\n", s.completed ? "Run completed." : "Run stopped early.");
  std::printf("  %-28s %s\n", "ended by", s.termination.c_str());
  for (const std::string& note : s.notes) std::printf("  %-28s %s\n", "note", note.c_str());
  std::printf("  %-28s %.6g A.h\n", "discharge capacity", s["Discharge capacity [A.h]"][last]);
  std::printf("  %-28s %.6g W.h\n", "discharge energy", s["Discharge energy [W.h]"][last]);
  std::printf("  %-28s %.6g V\n", "final voltage", s["Voltage [V]"][last]);
  std::printf("  %-28s %.6g K\n", "maximum temperature", t_max);
  std::printf("  %-28s %.6g s\n", "simulated time", s["Time [s]"][last]);
  std::printf("  %-28s %d taken, %d rejected\n", "time steps", s.steps_taken, s.steps_rejected);
  std::printf("  %-28s %.3f s (%.3g ms per step) on %s\n", "wall time", wall_s,
              s.steps_taken > 0 ? 1e3 * wall_s / s.steps_taken : 0.0, sim.layout().executor()->name().c_str());
  for (const std::string& f : files) std::printf("  %-28s %s\n", "wrote", f.c_str());
}

/// Loads the checkpoint at `path` into `sim`; whatever is wrong with it is
/// bad input naming the file.
void restart_from(Simulation& sim, const std::string& path, const Experiment& experiment) {
  const Checkpoint checkpoint = io::read_checkpoint(path);
  try {
    sim.load_checkpoint(checkpoint, experiment);
  } catch (const InvalidArgument& e) {
    throw io::FileError("'" + path + "'", "voltaic run --restart", "cannot be continued: " + e.why());
  }
}

/// After an error on the way: publishes the complete rows and frames when
/// every file is intact, else keeps the directory's earlier files.
void settle_after_failure(io::RunOutput& output) {
  HoldSecondSignal hold;
  if (output.intact()) {
    try {
      output.commit();
      return;
    } catch (const std::exception& e) {
      report("error", e);
      return;
    }
  }
  output.abandon();
  std::fprintf(stderr, "voltaic: the earlier files in '%s' are kept\n", output.directory().path().c_str());
}

/// The last lines of an interrupted run: what it kept and how to go on.
int report_interruption(int signal, const Solution& s, const io::RunOutput& output) {
  std::fprintf(stderr, "voltaic: interrupted by %s", signal_name(signal));
  if (!s.completed) std::fprintf(stderr, "; continue with --restart %s", output.checkpoint_path().c_str());
  std::fprintf(stderr, "\n");
  return exit_code_of_signal(signal);
}

}  // namespace

int run_command(const RunArguments& args) {
  if (const int ranks = Ranks::current().size(); ranks > 1) {
    std::fprintf(stderr,
                 "voltaic: error: voltaic run: %d MPI ranks, but one cell runs on one rank (the x-y decomposition "
                 "over ranks is not built yet); allowed: run it without mpirun, or spread cells with voltaic sweep\n",
                 ranks);
    return kBadInput;
  }
  install_stop_handlers();  // a signal from here on ends the run with its exit code, never kills it
  // Everything the input can get wrong, before any file is written.
  io::RunConfig config;
  std::shared_ptr<const Executor> exec;
  std::unique_ptr<Simulation> sim;
  std::optional<Experiment> experiment;
  try {
    config = io::load_config(args.config);
    if (!args.output.empty()) config.output.directory = args.output;
    if (args.backend == "cpu") config.backend = io::BackendChoice::cpu;
    if (args.backend == "cuda") config.backend = io::BackendChoice::cuda;
    if (args.backend == "auto") config.backend = io::BackendChoice::automatic;
    exec = make_executor(config.backend, "voltaic run");
    SimulationOptions options = config.simulation;
    options.field_times = config.output.field_times;
    options.field_period = config.output.field_period;
    sim = std::make_unique<Simulation>(config.parameters, options, exec);
    experiment.emplace(config.experiment());
    io::check_output_directory(config.output.directory);
    if (!args.restart.empty()) {
      restart_from(*sim, args.restart, *experiment);
      std::printf("voltaic: continuing from %s at t = %.6g s\n", args.restart.c_str(), sim->time());
    }
  } catch (const CudaError& e) {
    report("error", e);
    return kInternalError;
  } catch (const Error& e) {  // ConfigError, BpxError, FileError, BackendUnavailable, InvalidArgument
    report("error", e);
    return kBadInput;
  }

  if (const int signal = stop_signal()) {
    std::fprintf(stderr, "voltaic: interrupted by %s before the run started; nothing written\n", signal_name(signal));
    return exit_code_of_signal(signal);
  }

  const std::string& dir = config.output.directory;
  std::error_code ec;
  const bool created = !fs::exists(dir, ec);
  std::printf("voltaic %s: %s on %s, %zu cells x %d shells, output in %s\n", args.config.c_str(),
              config.cell_source.c_str(), exec->name().c_str(), sim->layout().num_cells(),
              config.simulation.grid.radial_shells, dir.c_str());
  std::fflush(stdout);
  Progress progress(*experiment, config.parameters.electrical.nominal_capacity, stdout, isatty(fileno(stdout)));
  std::unique_ptr<CliOutput> output;
  try {
    output = std::make_unique<CliOutput>(config.output, sim->layout(), progress, sim->time());
  } catch (const io::FileError& e) {
    report("error", e);
    return exit_code_of_output_error(e);
  }
  note_leftovers(output->directory());

  const auto start = std::chrono::steady_clock::now();
  Solution solution;
  try {
    solution = sim->run(*experiment, output.get());
  } catch (const InvalidArgument& e) {  // a step or field the run cannot take, seen before anything ran
    progress.finish();
    report("error", e);
    output.reset();
    remove_if_unused(dir, created);
    return kBadInput;
  } catch (const std::exception& e) {  // a CUDA or file error on the way: keep what is complete
    progress.finish();
    report(dynamic_cast<const io::FileError*>(&e) ? "error" : "internal error", e);
    settle_after_failure(*output);
    return kInternalError;
  }
  progress.finish();
  try {
    HoldSecondSignal hold;  // the files are published as a set, never half
    output->finish(solution);
  } catch (const io::FileError& e) {
    report("error", e);
    return kInternalError;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_summary(solution, *sim, wall, output->files());
  std::fflush(stdout);
  if (const int signal = stop_signal()) return report_interruption(signal, solution, *output);
  if (!solution.completed) {
    std::fprintf(stderr, "voltaic: stopped early: %s\n", one_line(solution.termination).c_str());
    return kSolverFailure;
  }
  return kSuccess;
}

}  // namespace voltaic::cli
