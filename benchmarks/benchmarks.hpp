#pragma once
/// @file benchmarks.hpp
/// @brief The three subcommands: copy, axpy and dot, each measured against the
/// copy bandwidth of the same device and, on CUDA, against vendor baselines.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "bench_result.hpp"
#include "timing.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic_bench {

/// What the command line asked for.
struct BenchOptions {
  std::string benchmark;                    ///< "copy", "axpy", "dot", "stencil", "spmv", "solve"
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
};

/// Runs options.benchmark on `exec` (a CpuExecutor or a CudaExecutor).
/// Throws voltaic::InvalidArgument for an unknown benchmark or precision.
BenchReport run_benchmark(const BenchOptions& options, const std::shared_ptr<const voltaic::Executor>& exec);

}  // namespace voltaic_bench
