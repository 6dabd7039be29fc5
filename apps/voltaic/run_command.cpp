// voltaic run: everything the input can get wrong is checked before a file
// is written; then the run streams its rows, fields and checkpoints to the
// output directory's staging area, publishes them as one set, and a summary
// ends it. SIGINT and SIGTERM end it the same way, a step early.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
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
#include "voltaic/io/checkpoint_pieces.hpp"
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
  CliOutput(const io::OutputConfig& output, const CellLayout& layout, Progress& progress, double start_time,
            std::optional<io::RankShare> share)
      : RunOutput(output, layout, start_time, std::move(share)), progress_(progress) {}
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

/// Runs `write` on every rank and tells whether it succeeded on all. The
/// first rank where it failed passes its error to rank 0, which prints it
/// (the other ranks' output goes to /dev/null). Every rank calls it at the
/// same point.
template <class Write>
bool all_wrote(const Ranks& ranks, Write&& write) {
  std::string why;
  try {
    write();
  } catch (const std::exception& e) {
    why = message_of(e);
  }
  const int first = -ranks.max(why.empty() ? -ranks.size() : -ranks.rank());
  if (first == ranks.size()) return true;
  why = ranks.broadcast(why, first);
  if (ranks.root()) std::fprintf(stderr, "voltaic: error on rank %d: %s\n", first, why.c_str());
  return false;
}

/// Whether every rank is ready to run (`code` kSuccess on all). Where one
/// is not, the first such rank's error `why` reaches rank 0, which prints it
/// unless it is rank 0's own (printed already).
bool all_ready(const Ranks& ranks, int code, const std::string& why) {
  const int first = -ranks.max(code == kSuccess ? -ranks.size() : -ranks.rank());
  if (first == ranks.size()) return true;
  const std::string message = ranks.broadcast(why, first);
  if (ranks.root() && first != 0 && !message.empty())
    std::fprintf(stderr, "voltaic: error on rank %d: %s\n", first, message.c_str());
  return false;
}

/// Reports e on this rank and keeps its message for rank 0 (all_ready); returns `code`.
int failed(int code, const std::exception& e, std::string& why) {
  report("error", e);
  why = message_of(e);
  return code;
}

/// Under mpirun every rank runs its block of the cell and asks its observer
/// the same questions at the same points of the run; rank 0's output answers
/// for all (broadcast), so that no rank takes a checkpoint, streams another
/// field or stops alone. Every rank writes its block's fields and checkpoint
/// pieces (RunOutput with a RankShare); rank 0 also the rows. A file that a
/// rank cannot write stops the run on every rank, at the next point where
/// all ask, never leaving one rank waiting for the others.
class AgreedObserver : public RunObserver {
 public:
  AgreedObserver(const Ranks& ranks, io::RunOutput& output) : ranks_(ranks), output_(output) {}
  void on_row(const Solution& solution) override { output_.on_row(solution); }
  bool takes_blocks() const override { return true; }
  std::vector<std::string> streamed_fields() const override { return output_.streamed_fields(); }
  void on_fields(double time, const std::vector<const double*>& fields) override {
    // On the output thread: a failure marks the output broken (RunOutput
    // keeps that) and is agreed on, and told, at the next stop_reason().
    try {
      output_.on_fields(time, fields);
    } catch (const std::exception& e) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (field_error_.empty()) field_error_ = message_of(e);
    }
  }
  bool checkpoint_due(double time) override { return ranks_.broadcast(output_.checkpoint_due(time)); }
  void on_checkpoint(const Checkpoint& checkpoint) override {
    // Every piece, then the manifest naming them.
    if (!all_wrote(ranks_, [&] { output_.on_checkpoint(checkpoint); }) ||
        !all_wrote(ranks_, [&] { output_.seal_checkpoint(); }))
      throw io::FileError("checkpoint", "voltaic run",
                          "a rank could not write its part of the checkpoint (above); the run stops");
  }
  std::string stop_reason() override {
    const bool intact = output_.intact();
    if (!all_wrote(ranks_, [&] {
          const std::lock_guard<std::mutex> lock(mutex_);
          if (!intact)
            throw io::FileError("fields", "voltaic run", field_error_.empty() ? "not written" : field_error_);
        }))
      throw io::FileError("output", "voltaic run", "a rank could not write its fields (above); the run stops");
    // A signal to any rank stops every rank (each has its handlers).
    if (const AgreedSignal s = agreed_stop_signal(ranks_); s.signal != 0) {
      signal_ = s;
      return std::string("interrupted by ") + signal_name(s.signal) +
             (s.rank != 0 ? " on rank " + std::to_string(s.rank) : std::string());
    }
    return ranks_.broadcast(output_.stop_reason());
  }
  /// The signal that stopped the run on some rank (0: none).
  const AgreedSignal& signal() const { return signal_; }

 private:
  const Ranks& ranks_;
  io::RunOutput& output_;
  std::mutex mutex_;  // field_error_ is set on the output thread
  std::string field_error_;
  AgreedSignal signal_;
};

void print_summary(const Solution& s, const Simulation& sim, double wall_s, const std::vector<std::string>& files) {
  if (s.rows() == 0) return;
  const std::size_t last = s.rows() - 1;
  double t_max = 0.0;
  for (double t : s["Maximum cell temperature [K]"]) t_max = std::max(t_max, t);
  std::printf("\n%s\n", s.completed ? "Run completed." : "Run stopped early.");
  std::printf("  %-28s %s\n", "ended by", s.termination.c_str());
  for (const std::string& note : s.notes) std::printf("  %-28s %s\n", "note", note.c_str());
  // Over cycles these are net (charge counts against discharge): the last
  // cycle's own figures say what a cycling engineer asks.
  const bool cycling = s.cycles.size() > 1;
  std::printf("  %-28s %.6g A.h\n", cycling ? "net discharge capacity" : "discharge capacity",
              s["Discharge capacity [A.h]"][last]);
  std::printf("  %-28s %.6g W.h\n", cycling ? "net discharge energy" : "discharge energy",
              s["Discharge energy [W.h]"][last]);
  if (cycling) {
    const CycleSummary& c = s.cycles.back();
    std::printf("  %-28s %zu; the last discharged %.6g A.h and %.6g W.h, capacity %.6g A.h, LLI %.4g %%\n", "cycles",
                s.cycles.size(), c.discharge_capacity, c.discharge_energy, c.capacity,
                c.lithium_inventory_lost_percent);
  }
  std::printf("  %-28s %.6g V\n", "final voltage", s["Voltage [V]"][last]);
  std::printf("  %-28s %.6g K\n", "maximum temperature", t_max);
  std::printf("  %-28s %.6g s\n", "simulated time", s["Time [s]"][last]);
  std::printf("  %-28s %d taken, %d rejected\n", "time steps", s.steps_taken, s.steps_rejected);
  std::printf("  %-28s %.3f s (%.3g ms per step) on %s\n", "wall time", wall_s,
              s.steps_taken > 0 ? 1e3 * wall_s / s.steps_taken : 0.0, sim.layout().executor()->name().c_str());
  for (const std::string& f : files) std::printf("  %-28s %s\n", "wrote", f.c_str());
}

/// Loads the checkpoint at `path` into `sim` (this rank's block of it, from
/// the pieces of one written per rank); whatever is wrong with it is bad
/// input naming the file.
void restart_from(Simulation& sim, const std::string& path, const Experiment& experiment) {
  const Checkpoint checkpoint = io::read_checkpoint_for(path, sim.state_window());
  try {
    sim.load_checkpoint(checkpoint, experiment);
  } catch (const InvalidArgument& e) {
    throw io::FileError("'" + path + "'", "voltaic run --restart", "cannot be continued: " + e.why());
  }
}

/// A rank other than 0 under mpirun: its block of the cell, in step with
/// rank 0, which reports; it writes its pieces into rank 0's staging
/// directory (the exit code is the same on every rank: the run's rows are).
int run_block(const Ranks& ranks, Simulation& sim, const Experiment& experiment, const io::RunConfig& config) {
  const std::string staging = ranks.broadcast(std::string());
  std::unique_ptr<io::RunOutput> output;
  const bool made = all_wrote(ranks, [&] {
    if (staging.empty()) return;  // rank 0 could not make its output (and says why)
    const PlaneDecomposition& cut = *sim.layout().decomposition();
    output = std::make_unique<io::RunOutput>(config.output, sim.layout(), sim.time(),
                                             io::RankShare{cut.rank(), cut.blocks(), staging});
  });
  if (!made || staging.empty()) return kInternalError;
  AgreedObserver observer(ranks, *output);
  Solution solution;
  try {
    solution = sim.run(experiment, &observer);
  } catch (const InvalidArgument& e) {
    report("error", e);
    return kBadInput;
  } catch (const std::exception& e) {
    if (!dynamic_cast<const io::FileError*>(&e)) report("internal error", e);
    return kInternalError;
  }
  if (!all_wrote(ranks, [&] { output->close(); })) return kInternalError;
  if (ranks.max(0) != 0) return kInternalError;  // rank 0 could not publish the set
  const int signal = observer.signal().signal;
  return solution.completed ? kSuccess : signal ? exit_code_of_signal(signal) : kSolverFailure;
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
int report_interruption(const AgreedSignal& signal, const Solution& s, const io::RunOutput& output) {
  // One write: under mpirun the streams are forwarded in pieces and would interleave.
  std::string line = std::string("voltaic: interrupted by ") + signal_name(signal.signal);
  if (signal.rank != 0) line += " on rank " + std::to_string(signal.rank);
  if (!s.completed) line += "; continue with --restart " + output.checkpoint_path();
  std::fprintf(stderr, "%s\n", line.c_str());
  return exit_code_of_signal(signal.signal);
}

}  // namespace

int run_command(const RunArguments& args) {
  install_stop_handlers();  // a signal from here on ends the run with its exit code, never kills it
  // Everything the input can get wrong, before any file is written. Under
  // mpirun every rank checks the input and builds its block of the cell;
  // rank 0 also the output. No rank starts unless all can (all_ready()).
  const Ranks& ranks = Ranks::current();
  io::RunConfig config;
  std::shared_ptr<const Executor> exec;
  std::unique_ptr<Simulation> sim;
  std::optional<Experiment> experiment;
  int code = kSuccess;
  std::string why;  // this rank's error, for rank 0 to print where it is another rank's
  try {
    config = io::load_config(args.config);
    if (!args.output.empty()) config.output.directory = args.output;
    if (args.backend == "cpu") config.backend = io::BackendChoice::cpu;
    if (args.backend == "cuda") config.backend = io::BackendChoice::cuda;
    if (args.backend == "auto") config.backend = io::BackendChoice::automatic;
    exec = make_executor(config.backend, "voltaic run");
    experiment.emplace(config.experiment());
    if (ranks.root()) io::check_output_directory(config.output.directory);
  } catch (const CudaError& e) {
    code = failed(kInternalError, e, why);
  } catch (const Error& e) {  // ConfigError, BpxError, FileError, BackendUnavailable, InvalidArgument
    code = failed(kBadInput, e, why);
  }
  // Before the first collective that the input shapes (the plane's cut):
  // ranks given different inputs would wait for each other for ever.
  const std::string given =
      "voltaic run\n--output " + args.output + "\n--backend " + args.backend + "\n--restart " + args.restart;
  if (ranks.size() > 1 && !same_input_on_every_rank(ranks, input_fingerprint(args.config, given))) return kBadInput;
  if (!all_ready(ranks, code, why)) return code != kSuccess ? code : kBadInput;
  // The same config text may name files that differ between nodes.
  if (ranks.size() > 1 &&
      !same_input_on_every_rank(ranks, resolved_fingerprint(config.parameters, *experiment, nullptr)))
    return kBadInput;
  try {  // every rank its block of the cell (a collective under mpirun)
    SimulationOptions options = config.simulation;
    options.field_times = config.output.field_times;
    options.field_period = config.output.field_period;
    sim = std::make_unique<Simulation>(config.parameters, options, exec,
                                       ranks.decomposition(options.grid.nx, options.grid.ny, exec));
    if (!args.restart.empty()) {  // every rank reads it and takes its block
      restart_from(*sim, args.restart, *experiment);
    }
  } catch (const CudaError& e) {
    code = failed(kInternalError, e, why);
  } catch (const Error& e) {
    code = failed(kBadInput, e, why);
  }
  if (code == kSuccess) {
    if (const int signal = stop_signal()) {
      std::fprintf(stderr, "voltaic: interrupted by %s before the run started; nothing written\n", signal_name(signal));
      code = exit_code_of_signal(signal);
    }
  }
  if (!all_ready(ranks, code, why)) return code != kSuccess ? code : kBadInput;
  if (!args.restart.empty())
    std::printf("voltaic: continuing from %s at t = %.6g s\n", args.restart.c_str(), sim->time());
  if (!ranks.root()) return run_block(ranks, *sim, *experiment, config);

  const std::string& dir = config.output.directory;
  std::error_code ec;
  const bool created = !fs::exists(dir, ec);
  const CellLayout& layout = sim->layout();
  std::string where = exec->name();
  if (ranks.size() > 1) where += ", its plane cut over " + std::to_string(ranks.size()) + " MPI ranks";
  std::printf("voltaic %s: %s on %s, %zu cells x %d shells, output in %s\n", args.config.c_str(),
              config.cell_source.c_str(), where.c_str(), layout.plane_count(layout.num_cells()),
              config.simulation.grid.radial_shells, dir.c_str());
  std::fflush(stdout);
  Progress progress(*experiment, config.parameters.electrical.nominal_capacity, stdout, isatty(fileno(stdout)));
  std::unique_ptr<CliOutput> output;
  std::optional<io::RankShare> share;  // a cut plane: every rank writes its pieces
  if (const auto& cut = layout.decomposition()) share = io::RankShare{cut->rank(), cut->blocks(), ""};
  try {
    output = std::make_unique<CliOutput>(config.output, layout, progress, sim->time(), share);
  } catch (const io::FileError& e) {
    report("error", e);
    code = exit_code_of_output_error(e);
  }
  if (share) {
    ranks.broadcast(output ? output->directory().staging_path() : std::string());
    if (!all_wrote(ranks, [] {}) || !output) return code != kSuccess ? code : kInternalError;
  }
  if (!output) return code;
  if (!args.restart.empty()) output->restarted_from(args.restart);  // never removes its own source
  note_leftovers(output->directory());

  const auto start = std::chrono::steady_clock::now();
  Solution solution;
  AgreedObserver observer(ranks, *output);
  try {
    solution = sim->run(*experiment, share ? static_cast<RunObserver*>(&observer) : output.get());
  } catch (const InvalidArgument& e) {  // a step or field the run cannot take, seen before anything ran
    progress.finish();
    report("error", e);
    output.reset();
    remove_if_unused(dir, created);
    return kBadInput;
  } catch (const std::exception& e) {  // a CUDA or file error on the way: keep what is complete
    progress.finish();
    report(dynamic_cast<const io::FileError*>(&e) ? "error" : "internal error", e);
    if (share) {  // the other ranks stopped too, their pieces unclosed
      output->abandon();
      std::fprintf(stderr, "voltaic: the earlier files in '%s' are kept\n", dir.c_str());
    } else {
      settle_after_failure(*output);
    }
    return kInternalError;
  }
  progress.finish();
  if (share) {
    output->on_row(solution);
    if (!all_wrote(ranks, [&] { output->close(); })) {
      output->abandon();
      std::fprintf(stderr, "voltaic: the earlier files in '%s' are kept\n", dir.c_str());
      return kInternalError;
    }
  }
  int published = 1;
  try {
    HoldSecondSignal hold;  // the files are published as a set, never half
    if (share)
      output->publish();
    else
      output->finish(solution);
    published = 0;
  } catch (const io::FileError& e) {
    report("error", e);
  }
  if ((share ? ranks.max(published) : published) != 0) return kInternalError;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_summary(solution, *sim, wall, output->files());
  std::fflush(stdout);
  const AgreedSignal signal = share ? observer.signal() : AgreedSignal{stop_signal(), 0};
  if (signal.signal != 0) return report_interruption(signal, solution, *output);
  if (!solution.completed) {
    std::fprintf(stderr, "voltaic: stopped early: %s\n", one_line(solution.termination).c_str());
    return kSolverFailure;
  }
  return kSuccess;
}

}  // namespace voltaic::cli
