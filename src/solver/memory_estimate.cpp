#include "voltaic/solver/memory_estimate.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>

namespace voltaic {

namespace {

// Doubles per unit of the grid that a Simulation holds once it has run a
// step (state, BDF2 history, Krylov bases, Jacobian, preconditioners,
// streamed frames): measured on the CPU (memory_estimate_test.cpp; 253 per
// cell, 15 more with conduction, 6 per particle shell, 18 per particle)
// and rounded up by about 15 %.
constexpr double kPerCell = 290.0;
constexpr double kConduction = 25.0;
constexpr double kPerShell = 7.0;
constexpr double kPerParticle = 24.0;
constexpr double kPerColumnWithFoils = 200.0;  // 2 foils x (GMRES(40) basis in both precisions, levels)
constexpr double kFixedBytes = 1 << 20;

/// The text of a small system file ("" when it cannot be read), by POSIX
/// read: no iostream, so no C++ locale. A process can hold a broken global
/// locale (seen when a Python test runner loaded another libstdc++ first),
/// and a memory check must not crash on it.
std::string read_system_file(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0 && text.size() < (1u << 20);)
    text.append(buffer, static_cast<std::size_t>(n));
  ::close(fd);
  return text;
}

double read_meminfo_available() {
  const std::string text = read_system_file("/proc/meminfo");
  const std::size_t at = text.find("MemAvailable:");
  if (at == std::string::npos) return std::numeric_limits<double>::infinity();
  char* end = nullptr;
  const double kib = std::strtod(text.c_str() + at + 13, &end);
  return end == text.c_str() + at + 13 ? std::numeric_limits<double>::infinity() : kib * 1024.0;
}

/// What the cgroup (v2, else v1) limit leaves, infinity without a limit.
double cgroup_left() {
  const auto number = [](const char* path) {
    const std::string text = read_system_file(path);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return end == text.c_str() ? std::numeric_limits<double>::infinity() : v;  // "max", or no file
  };
  double limit = number("/sys/fs/cgroup/memory.max"), used = number("/sys/fs/cgroup/memory.current");
  if (std::isinf(limit)) {
    limit = number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    used = number("/sys/fs/cgroup/memory/memory.usage_in_bytes");
  }
  if (std::isinf(limit) || limit > 1e18 || std::isinf(used)) return std::numeric_limits<double>::infinity();
  return std::max(limit - used, 0.0);
}

/// What the address-space limit (ulimit -v) leaves: the limit less the
/// process's present virtual size; infinity without a limit.
double address_space_left() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return std::numeric_limits<double>::infinity();
  const std::string status = read_system_file("/proc/self/status");
  const std::size_t at = status.find("VmSize:");
  double used = 0.0;
  if (at != std::string::npos) used = 1024.0 * std::strtod(status.c_str() + at + 7, nullptr);
  return std::max(double(limit.rlim_cur) - used, 0.0);
}

}  // namespace

double simulation_memory_bytes(const SimulationOptions& options) {
  const CellGridSpec& g = options.grid;
  const double columns = double(g.nx) * double(g.ny);
  const double cells = columns * (double(g.negative_cells) + g.separator_cells + g.positive_cells);
  const double particles = columns * (double(g.negative_cells) + g.positive_cells);
  // Conduction's heat grid: the cells and a layer per foil.
  const double heat = options.thermal == ThermalModel::conduction ? kConduction * (cells + 2.0 * columns) : 0.0;
  // The potential-pair foils: unknowns, GMRES basis and multigrid levels per column.
  const double foils = g.collectors == CurrentCollectorModel::potential_pair ? kPerColumnWithFoils * columns : 0.0;
  return 8.0 * (kPerCell * cells + heat + kPerShell * particles * g.radial_shells + kPerParticle * particles + foils) +
         kFixedBytes;
}

double host_memory_bytes_available() {
  return std::min({read_meminfo_available(), cgroup_left(), address_space_left()});
}

std::string human_bytes(double bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 6) {
    bytes /= 1024.0;
    ++u;
  }
  char text[64];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
  return text;
}

double available_memory_bytes(const Executor& exec) {
  if (exec.backend() == Backend::cuda) return double(static_cast<const CudaExecutor&>(exec).info().global_memory_bytes);
  return host_memory_bytes_available();
}

void require_memory(const SimulationOptions& options, const Executor& exec) {
  const double need = simulation_memory_bytes(options), have = available_memory_bytes(exec);
  if (need <= have) return;
  const CellGridSpec& g = options.grid;
  std::ostringstream why;
  why << "needs about " << human_bytes(need) << " (nx = " << g.nx << ", ny = " << g.ny << ", "
      << g.negative_cells + g.separator_cells + g.positive_cells << " cells through the thickness, " << g.radial_shells
      << " shells), but " << exec.name() << " has " << human_bytes(have)
      << " available; allowed: a grid whose estimate fits (docs/config.md, [grid])";
  throw InsufficientMemory("grid", "Simulation", why.str());
}

}  // namespace voltaic
