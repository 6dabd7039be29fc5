#include "command_support.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "commands.hpp"
#include "ranks.hpp"
#include "stop_signals.hpp"
#include "voltaic/core/digest.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/version.hpp"
#include "voltaic/io/atomic_file.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::cli {

namespace fs = std::filesystem;

namespace {

/// This process's rank on its node, as MPI launchers set it (0 without one):
/// the ranks of a node take its GPUs in turn.
int node_local_rank() {
  for (const char* v : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMIX_LOCAL_RANK", "SLURM_LOCALID"})
    if (const char* s = std::getenv(v)) return std::max(0, std::atoi(s));
  return 0;
}

/// The fingerprint's lines, for naming the first one two ranks disagree on.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// A line as a message quotes it: its first 120 bytes, escaped as every message is (one_line).
std::string quoted(const std::string& line) {
  return "'" + one_line(line.substr(0, 120)) + (line.size() > 120 ? "...'" : "'");
}

}  // namespace

std::string message_of(const std::exception& e) {
  std::string what = one_line(e.what());
  const std::string prefix = "voltaic: ";
  if (what.rfind(prefix, 0) == 0) what.erase(0, prefix.size());
  return what;
}

void report(const char* kind, const std::exception& e) {
  std::fprintf(stderr, "voltaic: %s: %s\n", kind, message_of(e).c_str());
}

std::shared_ptr<const Executor> make_executor(io::BackendChoice choice, const std::string& command) {
  const bool gpu = CudaExecutor::device_count() > 0;
  if (choice == io::BackendChoice::cuda && !gpu)
    throw BackendUnavailable("backend cuda", command,
                             cuda_backend_built() ? "no CUDA device is visible" : "this build has no CUDA backend");
  if (choice == io::BackendChoice::cpu || !gpu) return CpuExecutor::create();
  // stream 1: particles, stream 2: field output copies
  return CudaExecutor::create(node_local_rank() % CudaExecutor::device_count(), 3);
}

void remove_if_unused(const std::string& dir, bool created) {
  std::error_code ec;
  if (!created) return;
  fs::remove(fs::path(dir) / io::OutputDirectory::kLockName, ec);
  if (fs::is_empty(dir, ec)) fs::remove(dir, ec);
}

int exit_code_of_output_error(const io::FileError& e) {
  const bool input = dynamic_cast<const io::OutputLocked*>(&e) != nullptr || e.what_failed() == "create directory";
  return input ? kBadInput : kInternalError;
}

void note_leftovers(const io::OutputDirectory& directory) {
  for (const std::string& d : directory.leftovers())
    std::fprintf(stderr, "voltaic: note: '%s' holds the unfinished files of an earlier run that was killed\n",
                 d.c_str());
}

std::string input_fingerprint(const std::string& config_path, const std::string& options) {
  // The config's bytes, as the rank's reader sees them (capped: the reader
  // refuses larger files anyway).
  constexpr std::size_t kMaxBytes = std::size_t(64) << 20;
  // Only a regular file is opened: opening a FIFO would wait for a writer
  // (the config reader refuses it by name).
  std::error_code ec;
  if (!fs::exists(config_path, ec))
    return options + "\n(the config '" + config_path + "' cannot be read: no such file)";
  if (!fs::is_regular_file(config_path, ec))
    return options + "\n(the config '" + config_path + "' is not a regular file)";
  std::ifstream in(config_path, std::ios::binary);
  std::string text;
  if (in) {
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (text.size() > kMaxBytes) text.resize(kMaxBytes);
  } else {
    text = "(the config '" + config_path + "' cannot be read)";
  }
  return options + "\n" + text;
}

std::string resolved_fingerprint(const ParameterSet& parameters, const Experiment& experiment,
                                 const CellParameters* cells) {
  std::string f = "(as read from the files the config names)\n";
  for (const ParameterInfo& info : parameter_table())
    f += info.name + " = " + format_parameter_value(info.get(parameters)) + "\n";
  for (const FunctionInfo& info : function_table()) f += info.name + ": " + info.selected(parameters) + "\n";
  f += "custom function data: digest " + values_digest(parameters.custom_function_data()) + "\n";
  f += "experiment " + experiment.fingerprint() + "\n";
  if (cells)
    f += "sweep cells: " + std::to_string(cells->num_cells()) + " x " + std::to_string(cells->names.size()) +
         " values, digest " + values_digest(cells->values) + "\n";
  return f;
}

bool same_input_on_every_rank(const Ranks& ranks, const std::string& fingerprint) {
  std::string theirs;
  const int first = ranks.first_disagreeing(fingerprint, theirs);
  if (first == ranks.size()) return true;
  if (ranks.root()) {
    const std::vector<std::string> a = lines_of(fingerprint), b = lines_of(theirs);
    std::size_t line = 0;
    while (line < a.size() && line < b.size() && a[line] == b[line]) ++line;
    std::fprintf(stderr,
                 "voltaic: error: the MPI ranks were given different inputs (every rank needs the same options and "
                 "config): rank %d differs from rank 0 first at %s (rank 0) against %s (rank %d); nothing was run\n",
                 first, line < a.size() ? quoted(a[line]).c_str() : "(the end)",
                 line < b.size() ? quoted(b[line]).c_str() : "(the end)", first);
  }
  return false;
}

AgreedSignal agreed_stop_signal(const Ranks& ranks) {
  const int mine = stop_signal();
  const int first = -ranks.max(mine != 0 ? -ranks.rank() : -ranks.size());
  if (first == ranks.size()) return {0, first};
  return {std::stoi(ranks.broadcast(std::to_string(mine), first)), first};
}

}  // namespace voltaic::cli
