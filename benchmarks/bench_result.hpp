#pragma once
/// @file bench_result.hpp
/// @brief What one benchmark run measured, and its two renderings: a table for
/// people and one JSON object for scripts.

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "timing.hpp"

namespace voltaic_bench {

/// One measured implementation of the operation.
struct Variant {
  std::string name;               ///< "voltaic::dot", "cublasDdot", ...
  std::string role;               ///< "reference", "voltaic", "baseline" (or combined: "voltaic+reference")
  TimingStats timing;             ///< seconds per call
  std::size_t bytes = 0;          ///< bytes read plus bytes written per call (the model's minimum)
  double flops = 0.0;             ///< floating-point operations per call (the model's count)
  double gbps = 0.0;              ///< bytes / median / 1e9
  double fraction_of_copy = 0.0;  ///< gbps / copy bandwidth
};

/// A variant whose bandwidth is computed from its timing; fraction_of_copy is
/// filled in by BenchReport::finish().
Variant make_variant(std::string name, std::string role, const TimingStats& timing, std::size_t bytes,
                     double flops = 0.0);

/// Everything one subcommand reports.
struct BenchReport {
  std::string benchmark;               ///< "copy", "axpy", "dot"
  std::string device;                  ///< device name, or "cpu"
  std::string backend;                 ///< "cpu" or "cuda"
  std::string precision;               ///< "double" or "float"
  std::size_t size = 0;                ///< elements per vector
  std::string size_unit = "elements";  ///< what `size` counts ("macro cells" for step)
  int repeat = 0;
  int warmup = 0;
  std::string command_line;
  double copy_bandwidth_gbps = 0.0;  ///< the reference every variant is compared with
  std::vector<Variant> variants;
  std::vector<std::string> notes;                                   ///< e.g. why baselines were skipped
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();  ///< benchmark-specific fields, merged at top level

  /// Adds a variant (bandwidth computed).
  void add(std::string name, std::string role, const TimingStats& timing, std::size_t bytes, double flops = 0.0);
  /// Sets copy_bandwidth_gbps from the first variant whose role names
  /// "reference", then every variant's fraction_of_copy.
  void finish();
  /// The first variant whose role contains `role`, or nullptr.
  const Variant* find_role(const std::string& role) const;
};

/// One JSON object: benchmark, device, backend, precision, size (then
/// size_unit when it is not "elements"), repeat, warmup, command_line,
/// copy_bandwidth_GBps, variants[], notes[], then extra.
nlohmann::ordered_json to_json(const BenchReport& report);

/// A header line, one row per variant (name, median ms, GB/s, % of copy
/// bandwidth), the notes, then the extra fields flattened to "a.b: value" lines.
/// A report that moves no modelled bytes and has no copy reference (step) has
/// no bandwidth line or columns.
void print_table(const BenchReport& report, std::ostream& out);

/// `value` with %.17g: enough digits to identify a double exactly.
std::string format_17g(double value);

/// "model name" of /proc/cpuinfo, or "unknown".
std::string host_cpu_name();

}  // namespace voltaic_bench
