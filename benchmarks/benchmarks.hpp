#pragma once
/// @file benchmarks.hpp
/// @brief The subcommands: copy, axpy and dot, each measured against the copy
/// bandwidth of the same device and, on CUDA, against vendor baselines; the
/// stencil, spmv and solve kernels; and step, a whole DFN discharge.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench_result.hpp"
#include "pack_bench.hpp"
#include "timing.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic_bench {

/// The step subcommand's own options (it takes none of the vector options).
struct StepBenchOptions {
  int nx = 1;               ///< in-plane cells along the electrode height
  int ny = 1;               ///< in-plane cells along the electrode width
  int cells = 20;           ///< z-cells per region (negative, separator, positive)
  int shells = 20;          ///< radial shells per particle
  double c_rate = 1.0;      ///< of "Discharge at <x>C until 2.5 V"
  double duration_s = 0.0;  ///< > 0: "Discharge at <x>C for <d> seconds" instead (time per step of big cells)
  std::string thermal = "isothermal";   ///< "isothermal", "lumped" or "conduction"
  std::string parameters = "chen2020";  ///< a built-in parameter set (marquis2019 has tabs)
  std::string collectors = "uniform";   ///< "uniform" or "potential-pair"
  int repeat = 1;                       ///< timed discharges, each from a new Simulation
  int warmup = 0;                       ///< untimed discharges first
  bool split = false;                   ///< one more discharge, with sub-step timing (synchronises between them)
  double linear_rtol = 0.0;             ///< > 0: the potential step's GMRES-IR relative tolerance
  double inner_rtol = 0.0;              ///< > 0: GMRES-IR's inner (FP32) relative tolerance
  bool gmres_host_loop = false;         ///< the potential step's GMRES cycles decided on the host
  double diffusion_rtol = 0.0;          ///< > 0: the electrolyte step's CG relative tolerance
  double heat_rtol = 0.0;               ///< > 0: the 3D heat step's CG relative tolerance
  bool json_stdout = false;             ///< --json without a file: JSON on stdout instead of the table
  std::string json_file;                ///< --json FILE: the table, and one JSON line appended to FILE
};

struct SweepBenchOptions {
  int cells = 200;            ///< Latin-hypercube samples
  std::vector<int> threads;   ///< thread counts to run, in order (empty: 1 and every hardware thread)
  double spread = 0.2;        ///< each parameter uniform on its Chen2020 value times 1 -+ spread
  std::uint64_t seed = 1;     ///< of the Latin hypercube
  int cells_per_region = 20;  ///< z-cells per region (PyBaMM's mesh)
  int shells = 20;            ///< radial shells per particle
  std::string thermal = "lumped";
  std::string engine = "simulation";                 ///< on the CPU: "simulation" or "program" (BatchEngine)
  std::string step = "Discharge at 1C until 2.5 V";  ///< the experiment: one step (a power step, say)
  std::string drive_cycle;    ///< a drive-cycle CSV the step names "cycle" ("Run cycle (A)"), or ""
  int baseline_cells = 2000;  ///< on CUDA: the first cells also run on the CPU, every core (the baseline)
  std::string json_file;      ///< --json FILE: the table, and one JSON line appended to FILE
  bool json_stdout = false;   ///< --json without a file
};

/// What the command line asked for.
struct BenchOptions {
  std::string benchmark;                    ///< "copy", "axpy", "dot", "stencil", "spmv", "solve", "step"
  std::string backend = "auto";             ///< "cpu", "cuda" or "auto"
  std::string precision = "double";         ///< "double" or "float"
  std::size_t size = std::size_t{1} << 27;  ///< elements per vector (copy, axpy, dot)
  int n = 256;                              ///< cells per side of the n^3 grid (stencil)
  int repeat = 20;
  int warmup = 3;
  int device = 0;                 ///< CUDA device ordinal
  std::uint64_t seed = 20240611;  ///< of the random inputs
  bool json = false;
  std::string command_line;
  StepBenchOptions step;
  SweepBenchOptions sweep;
  PackBenchOptions pack;
};

/// Runs options.benchmark on `exec` (a CpuExecutor or a CudaExecutor).
/// Throws voltaic::InvalidArgument for an unknown benchmark or precision.
BenchReport run_benchmark(const BenchOptions& options, const std::shared_ptr<const voltaic::Executor>& exec);

}  // namespace voltaic_bench
