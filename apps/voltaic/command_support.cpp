#include "command_support.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "commands.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/version.hpp"
#include "voltaic/io/atomic_file.hpp"

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

}  // namespace voltaic::cli
