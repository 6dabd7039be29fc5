// voltaic pack: Np x Ns 1D cells wired into a pack ([pack]), their
// parameters a [sweep]'s or identical, run through the experiment on the
// CPU or a GPU. Everything the input can get wrong is checked, and the
// output directory locked, before the pack runs; pack.csv and pack.h5 are
// then published as one set, also when the pack stopped early (exit 3) or
// SIGINT or SIGTERM stopped it after the time step in flight (130, 143).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "command_support.hpp"
#include "commands.hpp"
#include "progress.hpp"
#include "ranks.hpp"
#include "stop_signals.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/io/output_path.hpp"
#include "voltaic/io/pack_config.hpp"
#include "voltaic/io/pack_output.hpp"
#include "voltaic/solver/pack.hpp"

namespace voltaic::cli {

namespace fs = std::filesystem;

namespace {

/// The largest spread over the run of the cells' currents within a group
/// and of the cells' temperatures over the pack, with where it was.
struct Spreads {
  double current = 0.0;  ///< [A] max - min of I_k within one group, one row
  std::size_t current_row = 0, current_group = 0;
  double temperature = 0.0;  ///< [K] max - min of T_k over the pack, one row
  std::size_t temperature_row = 0;
};

Spreads spreads_of(const PackSolution& s, const PackLayout& l) {
  Spreads out;
  // A netlist's cells are one group: its layout has no parallel groups to tell.
  const bool grid = l.netlist.empty();
  const std::size_t np = grid ? static_cast<std::size_t>(l.parallel) : s.cells, rows = s.time.size();
  for (std::size_t r = 0; r < rows && s.cells > 0; ++r) {
    for (std::size_t g = 0; g < (grid ? static_cast<std::size_t>(l.series) : 1); ++g) {
      const auto first = s.cell_current.begin() + static_cast<std::ptrdiff_t>(r * s.cells + g * np);
      const auto [lo, hi] = std::minmax_element(first, first + static_cast<std::ptrdiff_t>(np));
      if (*hi - *lo > out.current) {
        out.current = *hi - *lo;
        out.current_row = r;
        out.current_group = g;
      }
    }
    const auto first = s.cell_temperature.begin() + static_cast<std::ptrdiff_t>(r * s.cells);
    const auto [lo, hi] = std::minmax_element(first, first + static_cast<std::ptrdiff_t>(s.cells));
    if (*hi - *lo > out.temperature) {
      out.temperature = *hi - *lo;
      out.temperature_row = r;
    }
  }
  return out;
}

/// While the pack runs: its time steps and the wall time, redrawn in place
/// on a terminal, else a log line at the first step and every 10 s. The
/// stop hook, asked after every accepted step, drives it (the pack tells no
/// more while it runs).
class PackProgress {
 public:
  PackProgress(std::FILE* out, bool terminal) : out_(out), terminal_(terminal) {}
  void step() {
    ++steps_;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (terminal_ ? elapsed - last_s_ < 0.2 : steps_ > 1 && elapsed - last_s_ < 10.0) return;
    last_s_ = elapsed;
    const double rate = elapsed > 0.0 ? double(steps_) / elapsed : 0.0;
    if (terminal_)
      std::fprintf(out_, "\r  %lld time steps  %.3g steps/s  %s elapsed  ", steps_, rate, clock_text(elapsed).c_str());
    else
      std::fprintf(out_, "voltaic: %lld time step%s taken, %.3g steps/s (%s)\n", steps_, steps_ == 1 ? "" : "s", rate,
                   clock_text(elapsed).c_str());
    std::fflush(out_);
    drawn_ = true;
  }
  /// Ends the line drawn in place.
  void finish() {
    if (terminal_ && drawn_) std::fprintf(out_, "\n");
    drawn_ = false;
  }

 private:
  std::FILE* out_;
  bool terminal_;
  bool drawn_ = false;
  long long steps_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_s_ = 0.0;
};

/// "the CPU", or the GPU's name.
std::string where_of(const Executor& exec) { return exec.backend() == Backend::cpu ? "the CPU" : exec.name(); }

void print_summary(const io::PackRunConfig& config, const PackSolution& s, double wall_s, const std::string& where,
                   const std::vector<std::string>& files) {
  std::printf("\n%s\n", s.completed ? "Pack completed." : s.interrupted ? "Pack interrupted." : "Pack stopped early.");
  std::printf("  %-28s %s\n", "ended by", s.termination.c_str());
  if (!s.time.empty()) {
    std::printf("  %-28s %.6g V\n", "final voltage", s.voltage.back());
    std::printf("  %-28s %.6g s\n", "simulated time", s.time.back());
  }
  std::printf("  %-28s %d taken, %d rejected, %lld circuit iterations\n", "time steps", s.steps_taken, s.steps_rejected,
              s.circuit_iterations);
  std::printf("  %-28s %.3f s (%.3g ms per step) on %s\n", "wall time", wall_s,
              s.steps_taken > 0 ? 1e3 * wall_s / s.steps_taken : 0.0, where.c_str());
  if (!s.time.empty()) {
    const Spreads d = spreads_of(s, config.layout);
    if (config.layout.netlist.empty()) {
      std::printf("  %-28s %.4g A (group %zu at t = %.6g s)\n", "cell current spread", d.current, d.current_group,
                  s.time[d.current_row]);
    } else {
      std::printf("  %-28s %.4g A (at t = %.6g s)\n", "cell current spread", d.current, s.time[d.current_row]);
    }
    std::printf("  %-28s %.4g K (at t = %.6g s)\n", "cell temperature spread", d.temperature,
                s.time[d.temperature_row]);
  }
  for (const std::string& f : files) std::printf("  %-28s %s\n", "wrote", f.c_str());
}

/// What the config asks for that a pack does not do, said once.
void note_ignored(const io::PackRunConfig& config) {
  const io::OutputConfig& output = config.run.output;
  if (!output.field_times.empty() || output.field_period > 0.0 || output.checkpoint_period > 0.0)
    std::fprintf(stderr, "voltaic: note: a pack writes no fields or checkpoints; [output] asks for them\n");
}

/// Whether the pack's cells age (a GPU runs plain cells only).
bool cells_age(const io::PackRunConfig& config) {
  const DegradationOptions& d = config.run.simulation.degradation;
  return d.any() || d.porosity_change();
}

/// The executor of the config's backend (after --backend). auto picks the
/// CPU for ageing cells, which a GPU refuses; cuda asks for the GPU whatever
/// the cells (ageing ones are then refused by name, bad input).
std::shared_ptr<const Executor> pack_executor(const io::PackRunConfig& config) {
  if (config.run.backend == io::BackendChoice::automatic && cells_age(config)) {
    std::shared_ptr<const Executor> exec = make_executor(io::BackendChoice::cpu, "voltaic pack");
    if (CudaExecutor::device_count() > 0)
      std::fprintf(stderr, "voltaic: note: the cells age: the pack runs on the CPU (a GPU runs plain cells)\n");
    return exec;
  }
  return make_executor(config.run.backend, "voltaic pack");
}

}  // namespace

int pack_command(const PackArguments& args) {
  install_stop_handlers();  // a signal from here on ends the pack with its exit code, never kills it
  io::PackRunConfig config;
  std::shared_ptr<const Executor> exec;
  std::unique_ptr<PackSimulation> pack;
  std::optional<Experiment> experiment;
  try {
    if (Ranks::current().size() > 1)
      throw InvalidArgument("MPI ranks", "voltaic pack",
                            std::to_string(Ranks::current().size()) +
                                " ranks; allowed: one process (a pack runs in one process, without mpirun)");
    config = io::load_pack_config(args.config);
    if (!args.output.empty()) config.run.output.directory = args.output;
    if (args.backend == "cpu") config.run.backend = io::BackendChoice::cpu;
    if (args.backend == "cuda") config.run.backend = io::BackendChoice::cuda;
    if (args.backend == "auto") config.run.backend = io::BackendChoice::automatic;
    experiment.emplace(config.run.experiment());
    exec = pack_executor(config);
    pack = std::make_unique<PackSimulation>(config.run.parameters, config.cells, config.layout, config.options, exec);
    io::check_output_directory(config.run.output.directory);
  } catch (const CudaError& e) {
    report("error", e);
    return kInternalError;
  } catch (const Error& e) {  // ConfigError, BpxError, FileError, BackendUnavailable, InvalidArgument
    report("error", e);
    return kBadInput;
  }
  note_ignored(config);
  if (const int signal = stop_signal()) {
    std::fprintf(stderr, "voltaic: interrupted by %s before the pack started; nothing written\n", signal_name(signal));
    return exit_code_of_signal(signal);
  }

  const std::string& dir = config.run.output.directory;
  std::error_code ec;
  const bool created = !fs::exists(dir, ec);
  std::unique_ptr<io::PackOutput> output;
  try {
    output = std::make_unique<io::PackOutput>(dir);
  } catch (const io::FileError& e) {
    report("error", e);
    remove_if_unused(dir, created);
    return exit_code_of_output_error(e);
  }
  note_leftovers(output->directory());
  const PackLayout& l = config.layout;
  const std::size_t swept = config.cells.names.size();
  const std::string cells =
      swept == 0 ? "identical" : std::to_string(swept) + " swept parameter" + (swept == 1 ? "" : "s");
  const std::string where = where_of(*exec);
  const std::string layout =
      l.netlist.empty() ? std::to_string(l.parallel) + "p" + std::to_string(l.series) + "s" : std::string("a netlist");
  std::printf("voltaic pack %s: %s of %s (%zu cells, %s), %.4g A.h, %.4g V to %.4g V, on %s, output in %s\n",
              args.config.c_str(), layout.c_str(), config.run.cell_source.c_str(), l.cells(), cells.c_str(),
              pack->nominal_capacity(), pack->lower_voltage_cutoff(), pack->upper_voltage_cutoff(), where.c_str(),
              dir.c_str());
  std::fflush(stdout);

  PackProgress progress(stdout, isatty(fileno(stdout)));
  const auto stop = [&progress]() -> std::string {
    progress.step();
    const int signal = stop_signal();
    return signal == 0 ? std::string() : std::string(signal_name(signal));
  };
  const auto start = std::chrono::steady_clock::now();
  PackSolution solution;
  try {
    solution = pack->run(*experiment, stop);
  } catch (const InvalidArgument& e) {  // a step the pack cannot take
    progress.finish();
    report("error", e);
    output.reset();
    remove_if_unused(dir, created);
    return kBadInput;
  } catch (const std::exception& e) {
    progress.finish();
    report("internal error", e);
    output->abandon();
    return kInternalError;
  }
  progress.finish();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  try {
    HoldSecondSignal hold;  // the files are published as a set, never half
    output->write(config, solution);
  } catch (const std::exception& e) {
    report("error", e);
    std::fprintf(stderr, "voltaic: the earlier files in '%s' are kept\n", dir.c_str());
    return kInternalError;
  }
  print_summary(config, solution, wall, where, output->files());
  std::fflush(stdout);
  if (const int signal = stop_signal()) {
    std::fprintf(stderr, "voltaic: interrupted by %s; the pack's rows up to t = %.6g s are in %s\n",
                 signal_name(signal), solution.time.empty() ? 0.0 : solution.time.back(), dir.c_str());
    return exit_code_of_signal(signal);
  }
  if (!solution.completed) {
    std::fprintf(stderr, "voltaic: stopped early: %s\n", one_line(solution.termination).c_str());
    return kSolverFailure;
  }
  return kSuccess;
}

}  // namespace voltaic::cli
