// voltaic-bench: the command line. Subcommands copy, axpy and dot; each
// measures voltaic against the device copy bandwidth and, on CUDA, against
// cudaMemcpy / cuBLAS / CUB, then prints a table or one JSON object.
//
//   voltaic-bench dot --backend cuda --size 134217728 --precision double --repeat 20
//   voltaic-bench axpy --backend cpu --size 1000003 --json
#include <CLI/CLI.hpp>
#include <cstddef>
#include <exception>
#include <iostream>
#include <limits>
#include <memory>
#include <string>

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
  cmd.add_option("--n", o.n, "cells per side of the n^3 grid (stencil, spmv, solve)")
      ->check(CLI::Range(2, 4096))
      ->capture_default_str();
  cmd.add_flag("--json", o.json, "print one JSON object on stdout instead of the table");
}

/// The executor --backend names; "auto" picks CUDA when a device is visible.
std::shared_ptr<const voltaic::Executor> make_executor(const BenchOptions& o) {
  std::string backend = o.backend;
  if (backend == "auto") backend = voltaic::CudaExecutor::device_count() > 0 ? "cuda" : "cpu";
  if (backend == "cuda") {
    try {
      return voltaic::CudaExecutor::create(o.device, 1);
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

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  try {
    const auto exec = make_executor(options);
    const voltaic_bench::BenchReport report = voltaic_bench::run_benchmark(options, exec);
    if (options.json) {
      std::cout << voltaic_bench::to_json(report).dump() << std::endl;
    } else {
      voltaic_bench::print_table(report, std::cout);
      std::cout.flush();
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
