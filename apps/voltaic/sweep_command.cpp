// voltaic sweep: many independent 1D cells, the [sweep] section saying which
// parameters vary. Everything the input can get wrong is checked before a
// file is written; each finished cell's curves stream to curves.h5, the
// summary (one row per cell) comes at the end, and both are published as one
// set. A cell that fails is reported in its row; SIGINT and SIGTERM stop the
// batch with what finished kept.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "command_support.hpp"
#include "commands.hpp"
#include "ranks.hpp"
#include "stop_signals.hpp"
#include "sweep_progress.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/version.hpp"
#include "voltaic/io/cell_selection.hpp"
#include "voltaic/io/checkpoint_file.hpp"
#include "voltaic/io/output_path.hpp"
#include "voltaic/io/sweep_config.hpp"
#include "voltaic/io/sweep_output.hpp"
#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::cli {

namespace fs = std::filesystem;

namespace {

/// The sweep's files go in this folder of the output directory, beside what `voltaic run` writes.
constexpr const char* kSweepFolder = "sweep";

/// Streams each finished cell to the output and the progress display (and
/// each cycle a cell ends to the display), and keeps its row (for a summary
/// after a failure); stops the batch after SIGINT or SIGTERM.
class SweepObserver : public BatchObserver {
 public:
  SweepObserver(io::SweepOutput& output, SweepProgress& progress, std::size_t cells, const SweepArguments& args)
      : output_(output),
        progress_(progress),
        rows_(cells),
        checkpoint_(args.checkpoint),
        every_(args.checkpoint_every) {}
  void on_cell(std::size_t index, const BatchCellResult& result) override {
    output_.on_cell(index, result);
    progress_.update(index, result);
    BatchCellResult& row = rows_[index];
    row = result;
    row.time = row.voltage = row.current = row.temperature = {};
  }
  void on_cycle(std::size_t index, const CycleSummary& summary) override { progress_.cycle(index, summary); }
  /// The finished cells' results without their curves; the others not_run.
  const std::vector<BatchCellResult>& rows() const { return rows_; }
  std::string stop_reason() override {
    const int signal = stop_signal();
    return signal == 0 ? std::string() : std::string("interrupted by ") + signal_name(signal);
  }
  double checkpoint_period_s() override { return checkpoint_.empty() ? -1.0 : every_; }
  void on_checkpoint(const Checkpoint& c) override {
    io::write_checkpoint(checkpoint_, c);  // atomically: a crash while writing keeps the one before
    ++checkpoints_;
  }
  int checkpoints() const { return checkpoints_; }

 private:
  io::SweepOutput& output_;
  SweepProgress& progress_;
  std::vector<BatchCellResult> rows_;
  std::string checkpoint_;
  double every_;
  int checkpoints_ = 0;
};

/// Polls the stop signals: the observer of a rank other than 0, which
/// writes nothing.
class StopObserver : public BatchObserver {
 public:
  std::string stop_reason() override {
    const int signal = stop_signal();
    return signal == 0 ? std::string() : std::string("interrupted by ") + signal_name(signal);
  }
};

void note_ignored_output(const io::OutputConfig& output) {
  if (!output.field_times.empty() || output.field_period > 0.0 || output.checkpoint_period > 0.0)
    std::fprintf(stderr, "voltaic: note: a sweep writes no fields or checkpoints; [output] asks for them\n");
}

/// Memory a cell took [bytes]: its result as kept on the host (with its
/// cycle summaries and any curves), on average over the cells.
double result_bytes_per_cell(const std::vector<BatchCellResult>& results) {
  double bytes = 0.0;
  for (const BatchCellResult& r : results) {
    bytes += double(sizeof(BatchCellResult) + r.termination.capacity() + r.cycles.capacity() * sizeof(CycleSummary) +
                    (r.time.capacity() + r.voltage.capacity() + r.current.capacity() + r.temperature.capacity()) *
                        sizeof(double));
  }
  return results.empty() ? 0.0 : bytes / double(results.size());
}

void print_summary(const BatchSimulation& batch, const std::vector<BatchCellResult>& results, double wall_s,
                   const std::string& where, const std::vector<std::string>& files) {
  std::size_t count[5] = {};
  for (const BatchCellResult& r : results) ++count[static_cast<int>(r.status)];
  const std::size_t ran = results.size() - count[0];
  const std::size_t cut = count[static_cast<int>(BatchCellResult::Status::not_run)] +
                          count[static_cast<int>(BatchCellResult::Status::interrupted)];
  std::printf("\nSweep %s.\n", cut == 0 ? "finished" : "stopped early");
  for (auto s : {BatchCellResult::Status::completed, BatchCellResult::Status::stopped, BatchCellResult::Status::failed,
                 BatchCellResult::Status::interrupted, BatchCellResult::Status::not_run}) {
    if (count[static_cast<int>(s)] > 0)
      std::printf("  %-28s %zu\n", (std::string("cells ") + to_string(s)).c_str(), count[static_cast<int>(s)]);
  }
  std::printf("  %-28s %.3f s, %.4g cells/s %s\n", "wall time", wall_s, wall_s > 0.0 ? double(ran) / wall_s : 0.0,
              where.c_str());
  std::printf("  %-28s %.1f KiB a cell on the host (its result, cycle summaries and curves kept)", "memory",
              result_bytes_per_cell(results) / 1024.0);
  if (batch.executor()->backend() != Backend::cpu)
    std::printf(", %.1f KiB a cell in flight on the device (the cell program's arrays)",
                double(batch.cell_program_bytes()) / 1024.0);
  std::printf("\n");
  for (const std::string& f : files) std::printf("  %-28s %s\n", "wrote", f.c_str());
}

/// After an error on the way: publishes the finished cells when the files
/// are intact, else keeps the directory's earlier files.
void settle_after_failure(io::SweepOutput& output, const std::vector<BatchCellResult>& results) {
  HoldSecondSignal hold;
  if (output.intact()) {
    try {
      output.finish(results);
      return;
    } catch (const std::exception& e) {
      report("error", e);
    }
  }
  output.abandon();
  std::fprintf(stderr, "voltaic: the earlier files in '%s' are kept\n", output.directory().path().c_str());
}

}  // namespace

int sweep_command(const SweepArguments& args) {
  install_stop_handlers();
  const Ranks& ranks = Ranks::current();
  io::SweepRunConfig config;
  std::unique_ptr<BatchSimulation> batch;
  std::optional<Experiment> experiment;
  std::unique_ptr<Checkpoint> resume;  // --resume's
  // Under mpirun every rank checks the input; rank 0 also the output. No
  // rank starts unless all can (agreed()), so none waits for a rank that left.
  int code = kSuccess;
  try {
    config = io::load_sweep_config(args.config);
    if (!args.cells.empty())
      io::select_cells(config.sweep, io::parse_cell_selection(args.cells, config.sweep.cells.num_cells()));
    if (!args.output.empty()) config.run.output.directory = args.output;
    if (args.backend == "cpu") config.run.backend = io::BackendChoice::cpu;
    if (args.backend == "cuda") config.run.backend = io::BackendChoice::cuda;
    if (args.backend == "auto") config.run.backend = io::BackendChoice::automatic;
    experiment.emplace(config.run.experiment());
    const std::shared_ptr<const Executor> exec = make_executor(config.run.backend, "voltaic sweep");
    batch = std::make_unique<BatchSimulation>(config.run.parameters, config.sweep.cells, config.run.simulation, exec,
                                              BatchOptions{args.threads, false});
    if (ranks.root()) io::check_output_directory(config.run.output.directory);
    if (ranks.size() > 1 && (!args.checkpoint.empty() || !args.resume.empty()))
      throw InvalidArgument(args.resume.empty() ? "--checkpoint" : "--resume", "voltaic sweep",
                            "keeps a sweep's state on one rank only, not under mpirun");
    if (!args.resume.empty()) {
      resume = std::make_unique<Checkpoint>(io::read_checkpoint(args.resume));
      batch->check_checkpoint(*experiment, *resume);  // another sweep's is refused before anything is written
    }
  } catch (const CudaError& e) {
    report("error", e);
    code = kInternalError;
  } catch (const Error& e) {  // ConfigError, BpxError, FileError, BackendUnavailable, InvalidArgument
    report("error", e);
    code = kBadInput;
  }
  // Ranks given different inputs would run other cells under rank 0's
  // names, or wait for each other for ever.
  const std::string given =
      "voltaic sweep\n--output " + args.output + "\n--backend " + args.backend + "\n--cells " + args.cells;
  if (ranks.size() > 1 && !same_input_on_every_rank(ranks, input_fingerprint(args.config, given))) return kBadInput;
  // Every rank ready, then (the same config text may name files that differ
  // between nodes) the same cells from the same files.
  const auto agreed = [&] {
    if (ranks.max(code != kSuccess ? 1 : 0) != 0) return false;
    if (ranks.size() == 1) return true;
    const std::string resolved = resolved_fingerprint(config.run.parameters, *experiment, &config.sweep.cells);
    if (same_input_on_every_rank(ranks, resolved)) return true;
    code = kBadInput;
    return false;
  };
  if (code == kSuccess) {
    if (const int signal = stop_signal()) {
      std::fprintf(stderr, "voltaic: interrupted by %s before the sweep started; nothing written\n",
                   signal_name(signal));
      code = exit_code_of_signal(signal);
    }
  }
  const BatchOptions batch_options{args.threads, false};
  if (!ranks.root()) {  // runs its share; rank 0 writes everything
    if (!agreed()) return code != kSuccess ? code : kBadInput;
    StopObserver stop;
    int ran = kSuccess;
    try {
      ranks.run_batch(*batch, config.run.parameters, config.run.simulation, batch_options, *experiment, &stop);
    } catch (const std::exception& e) {
      report("error", e);
      ran = kInternalError;
    }
    const AgreedSignal signal = agreed_stop_signal(ranks);  // as rank 0 asks, after the batch
    return ran != kSuccess ? ran : signal.signal != 0 ? exit_code_of_signal(signal.signal) : kSuccess;
  }
  if (code != kSuccess) {
    agreed();
    return code;
  }
  note_ignored_output(config.run.output);

  const std::string dir = (fs::path(config.run.output.directory) / kSweepFolder).string();
  std::error_code ec;
  const bool created = !fs::exists(config.run.output.directory, ec), sweep_created = !fs::exists(dir, ec);
  const int threads = static_cast<int>(batch->worker_threads());
  std::string where = batch->executor()->backend() == Backend::cpu
                          ? "on " + std::to_string(threads) + " CPU thread" + (threads == 1 ? "" : "s")
                          : "on " + batch->executor()->name() + " (the cell program, a block of two warps a cell)";
  if (ranks.size() > 1) where += " on each of " + std::to_string(ranks.size()) + " MPI ranks";
  const std::string of_all =
      config.sweep.total_cells > 0 ? " (--cells) of its " + std::to_string(config.sweep.total_cells) : "";
  std::printf("voltaic sweep %s: %zu cells%s of %s (%s, %zu parameters) %s, output in %s\n", args.config.c_str(),
              batch->num_cells(), of_all.c_str(), config.run.cell_source.c_str(), to_string(config.sweep.method),
              config.sweep.cells.names.size(), where.c_str(), dir.c_str());
  std::fflush(stdout);
  std::unique_ptr<io::SweepOutput> output;
  try {
    output = std::make_unique<io::SweepOutput>(dir, config.sweep.cells, io::sweep_output_info(config));
  } catch (const io::FileError& e) {
    report("error", e);
    remove_if_unused(config.run.output.directory, created);
    code = exit_code_of_output_error(e);
  }
  if (!agreed()) {  // nothing is run
    if (output) output->abandon();
    remove_if_unused(dir, sweep_created);
    remove_if_unused(config.run.output.directory, created);
    if (code == kSuccess) {
      std::fprintf(stderr, "voltaic: error: another MPI rank could not start the sweep (its input or memory)\n");
      code = kBadInput;
    }
    return code;
  }
  note_leftovers(output->directory());

  SweepProgress progress(batch->num_cells(), experiment->cycles(), stdout, isatty(fileno(stdout)));
  SweepObserver observer(*output, progress, batch->num_cells(), args);
  const auto start = std::chrono::steady_clock::now();
  std::vector<BatchCellResult> results;
  try {
    results = ranks.run_batch(*batch, config.run.parameters, config.run.simulation, batch_options, *experiment,
                              &observer, resume.get());
  } catch (const std::exception& e) {  // the output failed (a full disk): keep what is complete
    progress.finish();
    report(dynamic_cast<const io::FileError*>(&e) ? "error" : "internal error", e);
    agreed_stop_signal(ranks);  // the other ranks ask after their batch
    settle_after_failure(*output, observer.rows());
    return kInternalError;
  }
  // A signal to any rank stopped its share of the cells: the sweep was interrupted.
  const AgreedSignal signal = agreed_stop_signal(ranks);
  progress.finish();
  try {
    HoldSecondSignal hold;  // the files are published as a set, never half
    output->finish(results);
  } catch (const io::FileError& e) {
    report("error", e);
    return kInternalError;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<std::string> files = output->files();
  if (observer.checkpoints() > 0) files.push_back(args.checkpoint + " (checkpoint)");
  print_summary(*batch, results, wall, where, files);
  std::fflush(stdout);
  if (signal.signal != 0) {
    std::fprintf(stderr, "voltaic: interrupted by %s%s; the cells that finished are in %s\n",
                 signal_name(signal.signal),
                 signal.rank != 0 ? (" on rank " + std::to_string(signal.rank)).c_str() : "", dir.c_str());
    if (observer.checkpoints() > 0)
      std::fprintf(stderr, "voltaic: the others' state is in %s: go on with --resume %s\n", args.checkpoint.c_str(),
                   args.checkpoint.c_str());
    return exit_code_of_signal(signal.signal);
  }
  if (progress.incomplete() > 0) {
    std::fprintf(stderr,
                 "voltaic: %zu of %zu cells did not complete the experiment (their rows in summary.csv say why)\n",
                 progress.incomplete(), batch->num_cells());
  }
  return kSuccess;
}

}  // namespace voltaic::cli
