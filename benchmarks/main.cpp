// voltaic-bench: the command line. Subcommands copy, axpy and dot; each
// measures voltaic against the device copy bandwidth and, on CUDA, against
// cudaMemcpy / cuBLAS / CUB, then prints a table or one JSON object. step
// times a whole Chen2020 discharge and prints the table, appending one JSON
// line to the file that --json names (or, --json alone, prints only the JSON).
//
//   voltaic-bench dot --backend cuda --size 134217728 --precision double --repeat 20
//   voltaic-bench axpy --backend cpu --size 1000003 --json
//   voltaic-bench step --backend cpu --repeat 5 --json out/step.jsonl
//   voltaic-bench sweep --cells 200 --threads 1 2 --json out/sweep.jsonl
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstddef>
#include <exception>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <thread>

#include "bench_result.hpp"
#include "benchmarks.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/version.hpp"

namespace {

using voltaic_bench::BenchOptions;

/// argv joined by spaces, arguments with spaces or quotes single-quoted.
std::string join_command_line(int argc, char** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.empty() || arg.find_first_of(" \t\"'\\$") != std::string::npos) {
      std::string quoted = "'";
      for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      arg = quoted + "'";
    }
    if (i > 0) out += ' ';
    out += arg;
  }
  return out;
}

/// The options every subcommand takes, bound to the one BenchOptions.
void add_common_options(CLI::App& cmd, BenchOptions& o) {
  cmd.add_option("--backend", o.backend, "cpu, cuda, or auto (cuda when a CUDA device is visible, else cpu)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  cmd.add_option("--size", o.size, "elements per vector (at least 1)")
      ->check(CLI::Range(std::size_t{1}, std::numeric_limits<std::size_t>::max() / 16))
      ->capture_default_str();
  cmd.add_option("--precision", o.precision, "double or float")
      ->check(CLI::IsMember({"double", "float"}))
      ->capture_default_str();
  cmd.add_option("--repeat", o.repeat, "timed repetitions per variant; the median is reported")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd.add_option("--warmup", o.warmup, "untimed runs before timing each variant")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd.add_option("--device", o.device, "CUDA device ordinal (cuda backend)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_option("--seed", o.seed, "seed of the random inputs (std::mt19937_64)")->capture_default_str();
  cmd.add_option("--n", o.n, "cells per side of the n^3 grid (stencil, spmv, solve), of the n x n plane (vcycle)")
      ->check(CLI::Range(2, 4096))
      ->capture_default_str();
  cmd.add_flag("--json", o.json, "print one JSON object on stdout instead of the table");
}

/// The options of step: the cell, the discharge, the repeats, --json [FILE].
void add_step_options(CLI::App& cmd, BenchOptions& o) {
  voltaic_bench::StepBenchOptions& s = o.step;
  cmd.add_option("--backend", o.backend, "cpu, cuda, or auto (cuda when a CUDA device is visible, else cpu)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  cmd.add_option("--device", o.device, "CUDA device ordinal (cuda backend)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_option("--nx", s.nx, "in-plane cells along the electrode height")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  cmd.add_option("--ny", s.ny, "in-plane cells along the electrode width")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  cmd.add_option("--cells", s.cells, "z-cells per region (negative electrode, separator, positive electrode)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd.add_option("--shells", s.shells, "finite-volume shells per particle")
      ->check(CLI::Range(2, 100000))
      ->capture_default_str();
  cmd.add_option("--duration", s.duration_s,
                 "seconds of discharge instead of a full one (0: until 2.5 V); for time per step on slow backends");
  cmd.add_option("--linear-rtol", s.linear_rtol,
                 "relative tolerance of the potential step's GMRES-IR (0: PotentialOptions' default)")
      ->check(CLI::Range(0.0, 0.1));
  cmd.add_option("--inner-rtol", s.inner_rtol,
                 "relative tolerance of each FP32 inner solve of GMRES-IR (0: PotentialOptions' default)")
      ->check(CLI::Range(0.0, 0.5));
  cmd.add_flag("--gmres-host-loop", s.gmres_host_loop,
               "the potential step's GMRES iterations decided on the host, one wait each "
               "(SolverOptions::gmres_device_loop off; default: a device-decided CUDA graph per restart cycle)");
  cmd.add_option("--diffusion-rtol", s.diffusion_rtol,
                 "relative tolerance of the electrolyte step's CG (0: SimulationOptions' default)")
      ->check(CLI::Range(0.0, 0.1));
  cmd.add_option("--heat-rtol", s.heat_rtol,
                 "relative tolerance of the 3D heat step's CG (0: SimulationOptions' default)")
      ->check(CLI::Range(0.0, 0.1));
  cmd.add_option("--c-rate", s.c_rate, "discharge current in C (\"Discharge at <x>C until 2.5 V\")")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--thermal", s.thermal, "isothermal, lumped or conduction (3D heat through the whole stack)")
      ->check(CLI::IsMember({"isothermal", "lumped", "conduction"}))
      ->capture_default_str();
  cmd.add_option("--parameters", s.parameters, "built-in parameter set (the discharge runs to its lower cut-off)")
      ->check(CLI::IsMember({"chen2020", "marquis2019"}))
      ->capture_default_str();
  cmd.add_option("--collectors", s.collectors,
                 "uniform (equipotential faces) or potential-pair (2D foils with the set's tabs: marquis2019)")
      ->check(CLI::IsMember({"uniform", "potential-pair"}))
      ->capture_default_str();
  cmd.add_option("--repeat", s.repeat, "timed discharges, each from a new Simulation; the median is reported")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd.add_option("--warmup", s.warmup, "untimed discharges first")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd.add_flag("--split", s.split,
               "after the timed discharges, one more with the time of each sub-step (concentration, potential, "
               "thermal; the executor synchronised between them)");
  cmd.add_option("--json", s.json_file,
                 "append one JSON line to FILE (the table is still printed); without FILE, print the JSON object "
                 "on stdout instead of the table")
      ->expected(0, 1)
      ->type_name("[FILE]");
}

/// The options of sweep: the batch's size and thread counts, --json [FILE].
void add_sweep_options(CLI::App& cmd, BenchOptions& o) {
  voltaic_bench::SweepBenchOptions& s = o.sweep;
  cmd.add_option("--backend", o.backend,
                 "cpu (a Simulation per cell on worker threads) or cuda (the cell program, two warps a cell)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  cmd.add_option("--baseline-cells", s.baseline_cells,
                 "on cuda: the first cells also run on the CPU backend with every core, timed beside")
      ->check(CLI::Range(0, 100000000))
      ->capture_default_str();
  cmd.add_option("--cells", s.cells, "Latin-hypercube samples")->check(CLI::Range(1, 100000000))->capture_default_str();
  cmd.add_option("--threads", s.threads, "thread counts to run in turn (default: 1 and every hardware thread)")
      ->check(CLI::Range(1, 4096));
  cmd.add_option("--spread", s.spread, "relative half-width of each parameter's uniform range")
      ->check(CLI::Range(0.0, 0.9))
      ->capture_default_str();
  cmd.add_option("--seed", s.seed, "seed of the Latin hypercube")->capture_default_str();
  cmd.add_option("--cells-per-region", s.cells_per_region, "z-cells per region")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  cmd.add_option("--shells", s.shells, "radial shells per particle")
      ->check(CLI::Range(2, 10000))
      ->capture_default_str();
  cmd.add_option("--step", s.step, "the experiment's one step, in PyBaMM's wording")->capture_default_str();
  cmd.add_option("--drive-cycle", s.drive_cycle,
                 "a drive-cycle CSV (time, current or power) that --step names 'cycle', as in \"Run cycle (A)\"")
      ->check(CLI::ExistingFile);
  cmd.add_option("--thermal", s.thermal, "isothermal or lumped")
      ->check(CLI::IsMember({"isothermal", "lumped"}))
      ->capture_default_str();
  cmd.add_option("--engine", s.engine,
                 "on cpu: simulation (a Simulation per cell) or program (the cell program on worker threads)")
      ->check(CLI::IsMember({"simulation", "program"}))
      ->capture_default_str();
  cmd.add_option("--json", s.json_file,
                 "append one JSON line to FILE (the table is still printed); without FILE, print the JSON object "
                 "on stdout instead of the table")
      ->expected(0, 1)
      ->type_name("[FILE]");
}

/// The executor --backend names; "auto" picks CUDA when a device is visible.
/// step runs the particles on a second stream; the kernels use one.
std::shared_ptr<const voltaic::Executor> make_executor(const BenchOptions& o) {
  std::string backend = o.backend;
  if (backend == "auto") backend = voltaic::CudaExecutor::device_count() > 0 ? "cuda" : "cpu";
  if (backend == "cuda") {
    try {
      return voltaic::CudaExecutor::create(o.device, o.benchmark == "step" ? 2 : 1);
    } catch (const voltaic::BackendUnavailable& e) {
      throw voltaic::BackendUnavailable("--backend cuda", "voltaic-bench",
                                        e.why() + " (" + std::to_string(voltaic::CudaExecutor::device_count()) +
                                            " CUDA devices; use --backend cpu or --backend auto)");
    }
  }
  return voltaic::CpuExecutor::create();
}

}  // namespace

int main(int argc, char** argv) {
  BenchOptions options;
  options.command_line = join_command_line(argc, argv);

  CLI::App app{
      "voltaic-bench: voltaic BLAS-1 throughput against the device copy bandwidth and vendor "
      "baselines (cudaMemcpy, cuBLAS, CUB)"};
  app.set_version_flag("--version", std::string("voltaic ") + voltaic::version());
  app.require_subcommand(1);

  struct Subcommand {
    const char* name;
    const char* help;
  };
  const Subcommand subcommands[] = {
      {"copy", "y = x: voltaic::copy against cudaMemcpy device-to-device (2n elements moved)"},
      {"axpy", "y = alpha x + y: voltaic::axpy against cuBLAS axpy (3n elements moved)"},
      {"dot",
       "x . y: voltaic::dot against cuBLAS dot and CUB transform-reduce, plus a determinism "
       "check over launch configurations (2n elements moved)"},
      {"stencil",
       "y = A x, the 7-point StencilOperator on an n^3 grid: x-y tiled z-streaming kernel against the plain "
       "kernel (6 values per cell moved)"},
      {"spmv",
       "y = A x with the n^3 stencil assembled as CSR and ELL: voltaic against cuSPARSE CSR and sliced ELL on the "
       "same matrix"},
      {"vcycle",
       "z = M^{-1} r, one V-cycle of the plane multigrid on an n x n pouch plane: the fused coarse tail and graphs "
       "(the default) against a kernel per step, no graphs and one smoothing sweep; and update()"},
      {"solve",
       "time to a 1e-10 relative residual on the n^3 anisotropic cell: GMRES-IR (FP32 inner) against FP64 GMRES, "
       "both GMRES(30) with the z-line preconditioner"},
  };
  for (const Subcommand& s : subcommands) {
    CLI::App* cmd = app.add_subcommand(s.name, s.help);
    add_common_options(*cmd, options);
    const std::string name = s.name;
    cmd->callback([&options, name] { options.benchmark = name; });
  }
  CLI::App* step = app.add_subcommand(
      "step",
      "a whole \"Discharge at <x>C until 2.5 V\" of the Chen2020 cell (voltaic::Simulation): wall time with "
      "set-up and of run() alone, steps, time per step, macro-cell-steps per second, discharge capacity");
  add_step_options(*step, options);
  step->callback([&options, step] {
    options.benchmark = "step";
    options.step.json_stdout = step->count("--json") > 0 && options.step.json_file.empty();
  });

  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "BatchSimulation over a Latin hypercube of five Chen2020 parameters (+-20 %, 1C to 2.5 V, lumped): cells "
      "per second per thread count, speed-up, same bits for every count");
  add_sweep_options(*sweep, options);
  sweep->callback([&options, sweep] {
    options.benchmark = "sweep";
    options.sweep.json_stdout = sweep->count("--json") > 0 && options.sweep.json_file.empty();
    if (options.sweep.threads.empty())
      options.sweep.threads = {1, static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))};
  });

  CLI::App* pack = app.add_subcommand(
      "pack",
      "PackSimulation of an Np x Ns pack of Chen2020 cells (+-5 % spread) through a drive cycle at 1 s resolution: "
      "wall time, steps, circuit iterations, cell-steps per second, beside a smaller pack on the CPU");
  add_common_options(*pack, options);
  voltaic_bench::PackBenchOptions& po = options.pack;
  pack->add_option("--parallel", po.parallel, "Np")->check(CLI::Range(1, 100000));
  pack->add_option("--series", po.series, "Ns")->check(CLI::Range(1, 100000));
  pack->add_option("--duration", po.duration, "seconds of drive cycle")->check(CLI::Range(1.0, 1e6));
  pack->add_option("--spread", po.spread, "the cells' parameters uniform on +-spread")->check(CLI::Range(0.0, 0.5));
  pack->add_option("--baseline-parallel", po.baseline_parallel, "the CPU baseline's Np (0: none)")
      ->check(CLI::Range(0, 100000));
  pack->add_option("--baseline-series", po.baseline_series, "the CPU baseline's Ns")->check(CLI::Range(0, 100000));
  pack->add_option("--baseline-duration", po.baseline_duration, "seconds the CPU baseline runs")
      ->check(CLI::Range(1.0, 1e6));
  pack->callback([&options] { options.benchmark = "pack"; });

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  try {
    const auto exec = make_executor(options);
    const voltaic_bench::BenchReport report = voltaic_bench::run_benchmark(options, exec);
    if (options.json || options.step.json_stdout || options.sweep.json_stdout) {
      std::cout << voltaic_bench::to_json(report).dump() << std::endl;
    } else {
      voltaic_bench::print_table(report, std::cout);
      std::cout.flush();
    }
    for (const std::string& path : {options.step.json_file, options.sweep.json_file}) {
      if (path.empty()) continue;
      std::ofstream file(path, std::ios::app);
      file << voltaic_bench::to_json(report).dump() << '\n';
      if (!file.flush()) {
        std::cerr << "voltaic-bench: error: cannot append to " << path << std::endl;
        return 1;
      }
    }
  } catch (const voltaic::Error& e) {
    std::cerr << "voltaic-bench: error: " << e.what() << std::endl;
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "voltaic-bench: error: " << e.what() << std::endl;
    return 1;
  }
  return 0;
}
