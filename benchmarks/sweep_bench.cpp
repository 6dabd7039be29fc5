// sweep: the config of sweep_bench_config() read as `voltaic sweep` reads it,
// then BatchSimulation::run for each thread count (one untimed warm-up cell
// first). Reported per thread count: wall time, cells per second, speed-up
// over the first count, completed cells; and whether every count gave each
// cell bitwise the same voltage curve.
#include "sweep_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/io/sweep_config.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/memory_estimate.hpp"

namespace voltaic_bench {

namespace {

using Clock = std::chrono::steady_clock;

/// The five parameters, each uniform on +-spread of Chen2020's value.
constexpr const char* kVaried[] = {
    "Negative electrode thickness [m]",
    "Positive electrode thickness [m]",
    "Negative particle radius [m]",
    "Positive particle radius [m]",
    "Separator porosity",
};

}  // namespace

std::string sweep_bench_config(const SweepBenchOptions& so) {
  std::string t = "[cell]\nparameter_set = \"Chen2020\"\n[grid]\n";
  t += "negative_cells = " + std::to_string(so.cells_per_region) +
       "\nseparator_cells = " + std::to_string(so.cells_per_region) +
       "\npositive_cells = " + std::to_string(so.cells_per_region) + "\nradial_shells = " + std::to_string(so.shells) +
       "\n";
  t += "[thermal]\nmodel = \"" + so.thermal + "\"\n[experiment]\nsteps = [\"" + so.step + "\"]\n";
  if (!so.drive_cycle.empty())  // a literal string: the path as given
    t += "[experiment.drive_cycles]\ncycle = '" + std::filesystem::absolute(so.drive_cycle).string() + "'\n";
  t += "[sweep]\nmethod = \"latin_hypercube\"\nsamples = " + std::to_string(so.cells) +
       "\nseed = " + std::to_string(so.seed) + "\n";
  char spread[32];
  std::snprintf(spread, sizeof spread, "%.17g", so.spread);
  for (const char* name : kVaried)
    t += std::string("[sweep.parameters.\"") + name + "\"]\ndistribution = \"uniform\"\nspread = " + spread + "\n";
  return t;
}

namespace {

/// On CUDA: the whole batch by the cell program (set-up included), then its
/// first cells on the CPU backend with every core (a Simulation per cell),
/// timed beside it and compared curve for curve.
void run_sweep_cuda(BenchReport& r, const BenchOptions& o, const std::shared_ptr<const voltaic::Executor>& exec,
                    const voltaic::io::SweepRunConfig& config, const voltaic::Experiment& experiment) {
  const SweepBenchOptions& so = o.sweep;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  voltaic::CellParameters one = config.sweep.cells;
  one.values.resize(one.names.size());
  voltaic::BatchSimulation(config.run.parameters, one, config.run.simulation, exec, {cores, false}).run(experiment);
  const Clock::time_point t0 = Clock::now();
  voltaic::BatchSimulation gpu(config.run.parameters, config.sweep.cells, config.run.simulation, exec, {cores, true});
  const std::vector<voltaic::BatchCellResult> results = gpu.run(experiment);
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  std::size_t completed = 0;
  long steps = 0;
  long long passes = 0, newton = 0;
  for (const voltaic::BatchCellResult& c : results) {
    completed += c.status == voltaic::BatchCellResult::Status::completed;
    steps += c.steps_taken;
    passes += c.concentration_passes;
    newton += c.newton_iterations;
  }
  r.add("BatchSimulation::run, cell program on " + exec->name(), "voltaic (GPU)", summarize({wall}), 0);

  // The baseline: the CPU backend, every core, on the first cells.
  voltaic::CellParameters first = config.sweep.cells;
  const std::size_t nb = std::min<std::size_t>(static_cast<std::size_t>(so.baseline_cells), results.size());
  first.values.resize(nb * first.names.size());
  double cpu_wall = 0.0, worst_v = 0.0, worst_capacity = 0.0;
  std::size_t same_steps = 0;
  if (nb > 0) {
    const auto cpu = voltaic::CpuExecutor::create();
    voltaic::BatchSimulation base(config.run.parameters, first, config.run.simulation, cpu, {cores, true});
    const Clock::time_point t1 = Clock::now();
    const std::vector<voltaic::BatchCellResult> ref = base.run(experiment);
    cpu_wall = std::chrono::duration<double>(Clock::now() - t1).count();
    r.add("BatchSimulation::run, Simulation per cell, " + std::to_string(cores) + " CPU threads, " +
              std::to_string(nb) + " cells",
          "voltaic (CPU)", summarize({cpu_wall}), 0);
    for (std::size_t i = 0; i < nb; ++i) {
      worst_capacity =
          std::max(worst_capacity, std::fabs(ref[i].discharge_capacity_ah - results[i].discharge_capacity_ah));
      if (ref[i].voltage.size() != results[i].voltage.size()) continue;
      ++same_steps;
      for (std::size_t k = 0; k < ref[i].voltage.size(); ++k)
        worst_v = std::max(worst_v, std::fabs(ref[i].voltage[k] - results[i].voltage[k]));
    }
  }
  const double bytes = double(gpu.cell_program_bytes());
  r.extra["gpu"] = {{"wall_s", wall},
                    {"cells_per_s", double(results.size()) / wall},
                    {"completed", completed},
                    {"mean_accepted_steps", double(steps) / double(results.size())},
                    {"bytes_per_cell", bytes},
                    {"cells_in_80_GB", std::floor(80e9 / bytes)},
                    {"work",
                     {{"mean_concentration_passes", double(passes) / double(results.size())},
                      {"mean_newton_iterations", double(newton) / double(results.size())}}}};
  r.extra["cpu_baseline"] = {{"cells", nb},
                             {"threads", cores},
                             {"wall_s", cpu_wall},
                             {"cells_per_s", nb > 0 ? double(nb) / cpu_wall : 0.0},
                             {"cells_with_the_same_steps", same_steps},
                             {"max_voltage_difference_v", worst_v},
                             {"max_capacity_difference_ah", worst_capacity}};
}

}  // namespace

void run_sweep(BenchReport& r, const BenchOptions& o, const std::shared_ptr<const voltaic::Executor>& exec) {
  const SweepBenchOptions& so = o.sweep;
  if (so.threads.empty()) throw voltaic::InvalidArgument("threads", "voltaic_bench::run_sweep", "is empty");
  const voltaic::io::SweepRunConfig config = voltaic::io::parse_sweep_config(sweep_bench_config(so), "sweep-bench");
  const voltaic::Experiment experiment = config.run.experiment();
  if (exec->backend() != voltaic::Backend::cpu) {
    run_sweep_cuda(r, o, exec, config, experiment);
    describe(r, so, config);
    return;
  }
  {  // warm-up: one cell (page faults, first-use initialisation)
    voltaic::CellParameters one = config.sweep.cells;
    one.values.resize(one.names.size());
    voltaic::BatchSimulation(config.run.parameters, one, config.run.simulation, exec, {1, false}).run(experiment);
  }
  std::vector<std::vector<double>> first_curves;
  bool same_bits = true;
  double first_rate = 0.0;
  nlohmann::ordered_json per_count = nlohmann::ordered_json::array();
  for (int threads : so.threads) {
    const voltaic::BatchEngine engine =
        so.engine == "program" ? voltaic::BatchEngine::cell_program : voltaic::BatchEngine::simulation;
    voltaic::BatchSimulation batch(config.run.parameters, config.sweep.cells, config.run.simulation, exec,
                                   {threads, true, engine});
    const Clock::time_point t0 = Clock::now();
    const std::vector<voltaic::BatchCellResult> results = batch.run(experiment);
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    std::size_t completed = 0;
    long steps = 0;
    for (std::size_t i = 0; i < results.size(); ++i) {
      completed += results[i].status == voltaic::BatchCellResult::Status::completed;
      steps += results[i].steps_taken;
      if (first_curves.size() < results.size())
        first_curves.push_back(results[i].voltage);
      else
        same_bits = same_bits && first_curves[i] == results[i].voltage;
    }
    const double rate = double(results.size()) / wall;
    if (first_rate == 0.0) first_rate = rate;
    r.add("BatchSimulation::run, " + std::to_string(threads) + " thread(s)",
          "voltaic (" + std::to_string(threads) + "t)", summarize({wall}), 0);
    per_count.push_back({{"threads", threads},
                         {"wall_s", wall},
                         {"cells_per_s", rate},
                         {"speedup_over_first", rate / first_rate},
                         {"completed", completed},
                         {"mean_accepted_steps", double(steps) / double(results.size())}});
  }
  describe(r, so, config);
  r.extra["bytes_per_cell_in_flight"] = voltaic::simulation_memory_bytes(config.run.simulation);
  r.extra["per_thread_count"] = per_count;
  r.extra["same_bits_every_thread_count"] = same_bits;
  if (!same_bits) r.notes.push_back("a cell's voltage curve differs between thread counts");
}

void describe(BenchReport& r, const SweepBenchOptions& so, const voltaic::io::SweepRunConfig& config) {
  r.precision = "double";
  r.size = config.sweep.cells.num_cells();
  r.size_unit = "cells";
  r.repeat = 1;
  r.warmup = 1;
  r.extra["host_cpu"] = host_cpu_name();
  r.extra["host_hardware_threads"] = std::thread::hardware_concurrency();
  r.extra["parameter_set"] = "Chen2020";
  r.extra["experiment"] = so.step;
  if (!so.drive_cycle.empty()) r.extra["drive_cycle"] = so.drive_cycle;
  r.extra["thermal"] = so.thermal;
  r.extra["engine"] = so.engine;
  r.extra["grid"] = {{"cells_per_region", so.cells_per_region}, {"radial_shells", so.shells}};
  r.extra["sweep"] = {{"method", "latin_hypercube"}, {"seed", so.seed}, {"spread", so.spread}};
  std::vector<std::string> varied(std::begin(kVaried), std::end(kVaried));
  r.extra["varied"] = varied;
}

}  // namespace voltaic_bench
