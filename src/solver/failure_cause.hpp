#pragma once
// The physical limit behind a failed time step, read from the state: an
// electrolyte depleted somewhere, particles full or empty at their surface
// (the ends of the OCP's range). A message that says so, where and how
// close, helps a user more than the solver's own reason (a stencil
// coefficient that became NaN).

#include <string>
#include <vector>

#include "solver/step_control.hpp"
#include "voltaic/solver/cell_layout.hpp"

namespace voltaic {

/// Below this fraction of its initial value the electrolyte counts as depleted.
constexpr double kDepletedFraction = 0.02;
/// A surface stoichiometry this close to 0 or 1 counts as an empty or full particle.
constexpr double kStoichiometryMargin = 0.005;

/// "the electrolyte is depleted in the positive electrode (...)", or "" when
/// the state is clear of every limit. `c_e` per cell and `c_surf` per
/// particle, on the host.
std::string physical_limit(const std::vector<double>& c_e, const std::vector<double>& c_surf, const CellLayout& layout);

/// Why a cell that stopped making progress (stepping::stalled) was stopped:
/// its last free step h, how many came in a row, and the option that bounds them.
std::string stall_reason(int free_steps, double h, double min_dt, double max_dt, int max_steps);

/// The words of a failed step that both engines give (Simulation and the
/// cell program word a failure alike, whichever runs the cell).
/// Newton's iterations ran out (`last_update`, `tolerance` [V]).
std::string newton_failure(int max_iterations, double last_update, double tolerance);
/// The Newton update is not finite (`linear`: the linear solve's summary).
std::string newton_update_failure(const std::string& linear);
/// The split's passes ended `outcome` (nonfinite or unsettled; `change`: the
/// last change in error tolerances).
std::string split_failure(stepping::Split outcome, int max_passes, double change);
/// The terminal voltage, current or heat came out non-finite.
std::string terminal_failure();
/// The electrolyte concentration fell below its floor.
std::string depletion_failure();
/// The local error stays `error` tolerances at the smallest step `h` [s].
std::string local_error_failure(double error, double h);

/// Why a power step's current could not be found (stepping::draw_power ended
/// no_voltage or unsettled; `voltage`: its last terminal voltage).
std::string power_failure(stepping::Power outcome, double voltage);

}  // namespace voltaic
