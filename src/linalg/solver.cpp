// Solver vocabulary shared by every Krylov method: stop reasons, the one-line
// report summary, and the NotConverged error that carries the report.
#include "voltaic/linalg/solver.hpp"

#include <cstdio>
#include <utility>

namespace voltaic {

std::string to_string(StopReason reason) {
  switch (reason) {
    case StopReason::converged: return "converged";
    case StopReason::max_iterations: return "max_iterations";
    case StopReason::stagnation: return "stagnation";
    case StopReason::breakdown: return "breakdown";
    case StopReason::non_finite: return "non_finite";
  }
  return "unknown";
}

std::string SolveReport::summary() const {
  // %.3e keeps residuals comparable across lines of a log; the reason comes
  // first because it is what a reader looks for.
  char buffer[320];
  std::snprintf(buffer, sizeof buffer,
                "%s after %d iterations (%d inner): residual %.3e, relative %.3e, initial %.3e%s",
                to_string(reason).c_str(), iterations, inner_iterations, final_residual, relative_residual,
                initial_residual, switched_to_fp64 ? ", inner solves switched to FP64" : "");
  return buffer;
}

NotConverged::NotConverged(std::string where, SolveReport report)
    : Error("solve did not converge", std::move(where), report.summary()), report_(std::move(report)) {}

}  // namespace voltaic
