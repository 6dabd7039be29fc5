#pragma once
// The data of the batch cell program (cell_program.hpp): what every cell
// shares (ProgramSettings), what each cell's parameters make of it
// (CellConstants), its clock (ProgramClock) and where its arrays lie in its
// slab (SlabOffsets). All trivially copyable, for kernels.

#include <cmath>
#include <cstddef>

#include "solver/lam_point.hpp"
#include "solver/mixing_solve.hpp"
#include "solver/plating_point.hpp"
#include "solver/porosity_point.hpp"
#include "solver/sei_point.hpp"
#include "solver/step_control.hpp"
#include "solver/stress_diffusion_point.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/drive_table.hpp"
#include "voltaic/solver/particle_point.hpp"
#include "voltaic/solver/step_clock.hpp"

namespace voltaic::program {

/// One experiment step as the program runs it (current, rest, voltage, power, drive cycle).
struct ProgramStep {
  bool voltage_control = false;
  bool power = false;  ///< value is a power [W] (> 0 discharges)
  double value = 0.0;  ///< [V] for a hold; [A] or a C-rate (c_rate) for a current (rest: 0); [W] for a power
  /// A drive cycle (table_rows > 0): its times at ProgramSettings::tables + table,
  /// its values [A] or [W] table_rows further; value is then unused.
  std::size_t table = 0, table_rows = 0;
  bool c_rate = false;         ///< value (and until_current when until_c_rate) per nominal capacity per hour
  double until_voltage = 0.0;  ///< [V], when has_until_voltage
  double until_current = 0.0;  ///< [A] or a C-rate, when has_until_current
  bool until_c_rate = false;
  double duration = 0.0;  ///< [s], when has_duration
  bool has_until_voltage = false, has_until_current = false, has_duration = false;
};

/// Where each array of a cell lies in its slab (offsets in doubles). n cells
/// through the thickness, P particles, R shells.
struct SlabOffsets {
  // Constant per cell.
  std::size_t volume, porosity, solid_sigma, dz, negative_volume, separator_one, radius, ones;
  // State with its past levels (level i of an array of m values at base + i m).
  std::size_t c_s, c_s_levels;        ///< R P; 2 levels
  std::size_t c_e, c_e_levels;        ///< n; 3 levels
  std::size_t c_surf, c_surf_levels;  ///< P; 3 levels
  std::size_t phi, phi_levels;        ///< 2n; 3 levels
  std::size_t aj, aj_levels;          ///< n; 3 levels
  // The SEI film (ProgramSettings::sei; else empty): c_sei, a j_sei, n each.
  std::size_t c_sei, c_sei_levels;    ///< 3 levels
  std::size_t aj_sei, aj_sei_levels;  ///< 3 levels
  std::size_t pot_aj_sei;             ///< the potential step's a j_sei
  std::size_t film_drop;              ///< j_tot L_sei R_sei [V], for the heat
  // Lithium plating (ProgramSettings::plating; else empty): n each.
  std::size_t c_pl, c_pl_levels;      ///< plated lithium [mol/m^3]; 3 levels
  std::size_t c_dead, c_dead_levels;  ///< dead lithium [mol/m^3]; 3 levels
  std::size_t aj_pl, aj_pl_levels;    ///< a j_pl; 3 levels
  std::size_t pot_aj_pl, adj_pl;      ///< the potential step's a j_pl and a dj_pl/d(phi_s - phi_e)
  std::size_t adj_main;               ///< with either: the intercalation's a dj/d(phi_s - phi_e)
  // Loss of active material (ProgramSettings::lam; else empty): n each.
  std::size_t active, active_levels;  ///< f = eps_s / eps_s0 (1 in the separator); 3 levels
  std::size_t lam_li, lam_li_levels;  ///< lithium of the lost material [mol/m^3]; 3 levels
  // Work: nothing here is read by a step before the step writes it (a
  // batch checkpoint keeps [c_s, T) only: batch_cell_record.hpp). State that
  // must outlive a step goes above T.
  std::size_t T, T_pass, c_e_pass, iterate, source, de, sigma, capacity, q, work;  ///< n each
  std::size_t unit_c_s, particle_work;                                             ///< R P, (R - 1) P
  std::size_t particle_factors;  ///< 6 R: each electrode's shared particle factors (particle::SharedFactors)
  // The porosity change (ProgramSettings::porosity_change; else empty): n each.
  std::size_t eps_now, transport, sigma_now;  ///< eps, eps^b_e and the solid's effective conductivity
  std::size_t ds_face;  ///< (R - 1) P: the inner faces' diffusivity (ProgramSettings::stress_diffusion; else empty)
  std::size_t flux, ds, slope;  ///< P each
  std::size_t pot_aj, adj, pot_surface, kappa, kappa_d, d_logc, s_phi, e_phi, c_e_seen;
  std::size_t bv_quadratic;        ///< n: the implicit reactions' quadratic constants, learned within a potential solve
  std::size_t residual, update;    ///< 2n each
  std::size_t d_s, d_e, c01, c10;  ///< n each
  std::size_t sig_diag, sig_tz, kap_diag, kap_tz;  ///< n each: phi_s and phi_e stencils
  std::size_t kd_diag, kd_tz, j0_diag, j1_diag;    ///< n each: the Jacobian's diagonals (its faces: sig_tz, kap_tz)
  std::size_t factors;                             ///< 6n: block z-line factors
  std::size_t el_diag, el_tz, el_rhs, el_inverse;  ///< n each: electrolyte solve
  std::size_t mix_f, mix_f_last, mix_g_last, mix_df, mix_dg;  ///< n, n, n, depth n, depth n
  std::size_t rows;                                           ///< row buffer: rows_per_call x 4
  std::size_t total;                                          ///< doubles per cell
};

/// Lanes of a cell on CUDA (a warp); a CPU lane sums in their order (CellRun::lane_sum).
inline constexpr int kWarpLanes = 32;
/// CUDA threads a cell of the batch program (kernels/cell_program.cu): a
/// block of two warps. Its loops take an array of n = 60 or P = 40 in one
/// round, not two, and the warps issue apart between barriers: on an H200
/// one cell ran 0.69x a warp's time, 1,000 cells 0.78x and 100,000 cells
/// 0.91-0.94x; four warps a cell lost from 4,000 cells up
/// (docs/performance.md, "Twenty-eighth session"). The bits are a warp's
/// (CellRunT::lane_sum).
inline constexpr int kCellLanes = 2 * kWarpLanes;
/// Values per row in the row buffer: time, voltage, current, temperature.
inline constexpr int kRowValues = 4;

/// What every cell of a batch shares.
struct ProgramSettings {
  int n = 0, P = 0, R = 0;
  SlabOffsets o{};
  particle::ShellMesh<double> mesh{};  ///< in the program's memory
  SurfaceMethod surface = SurfaceMethod::linear_extrapolation;
  bool kappa_arithmetic = false;  ///< FaceMean::arithmetic for the electrolyte conductivity
  bool lumped = false;            ///< else isothermal
  bool sei = false;               ///< an SEI film on the negative particles (CellConstants::sei)
  bool plating = false;           ///< lithium plating on them (CellConstants::plating)
  bool lam = false;               ///< loss of active material (CellConstants::lam)
  bool stress_diffusion = false;  ///< per-face particle diffusivities (CellConstants::stress_diffusion)
  bool porosity_change = false;   ///< the negative porosity follows the films (CellConstants::porosity)
  // StepControl
  stepping::StepLimits limits{};
  double initial_dt = 0, rtol = 0, atol = 0;
  int max_split = 0;
  // PotentialOptions
  double newton_tolerance = 0, max_update = 0;
  int max_newton = 0;
  const ProgramStep* steps = nullptr;  ///< one cycle, in the program's memory
  const double* tables = nullptr;      ///< the steps' drive cycles (ProgramStep::table), likewise
  int cycle_size = 0;
  long long total_steps = 0;
  int rows_per_call = 0;  ///< a call returns when a cell's row buffer is full
  /// Whether a side reaction runs on the negative particles (the film's solve).
  VOLTAIC_HD bool side() const { return sei || plating; }
  /// Whether any degradation submodel runs (else a GPU runs the batch on
  /// CellRunT<false>, cell_program.hpp).
  VOLTAIC_HD bool ages() const { return side() || lam || stress_diffusion || porosity_change; }
  /// A call also returns when an experiment step ends (a single cell's host words it).
  bool pause_at_step_ends = false;
  /// A call also returns when a cycle ends (a batch's host summarises it, cycle_summary.hpp).
  bool pause_at_cycle_ends = false;
};

/// The constants of one cell's parameters.
struct CellConstants {
  DfnConstants k;  ///< map.volume points into the cell's slab
  double dx = 0, dy = 0, area = 0;
  double nominal_capacity = 0, lower_cutoff = 0, upper_cutoff = 0;
  double discharge_rate_factor = 1, charge_rate_factor = 1;     ///< ElectricalParameters' (C-rate steps)
  double lumped_capacity = 0, lumped_cooling = 0, ambient = 0;  ///< [J/K], hA [W/K], [K]
  double foils = 0;                                             ///< sum of L / sigma of the collector foils
  double ce0 = 0, T0 = 0, cs0_negative = 0, cs0_positive = 0, ds0 = 0, c_max = 0;
  sei::Constants sei{};
  plating::Constants plating{};
  lam::Constants lam{};
  stress_diffusion::Constants stress_diffusion{};
  porosity::Constants porosity{};
};

/// Why a cell stopped or finished (the host words it, program_results.cpp).
enum class Ending : int {
  running = 0,
  completed,           ///< every experiment step ran to its end
  failed_step,         ///< a step failed after its retries (Failure says why)
  infeasible_voltage,  ///< a step starts at or past its "until" voltage
  infeasible_cutoff,   ///< a step starts at or past a cut-off
};

/// Why an attempt failed.
enum class Failure : int {
  none = 0,
  newton,           ///< Newton did not converge in max_newton iterations
  newton_update,    ///< the Newton update is not finite
  linear,           ///< a pivot of a column solve is not positive (a state outside the model)
  split,            ///< the passes did not settle in max_split
  split_nonfinite,  ///< a pass produced a non-finite c_e or T
  terminal,         ///< a non-finite voltage, current or heat
  depletion,        ///< c_e below the depletion floor
  local_error,      ///< the local error stays above tolerance at the smallest step
  stalled,          ///< the cell stopped making progress (stepping::stalled)
  power_voltage,    ///< a power step's terminal voltage was not positive (failure_value: it)
  power_unsettled,  ///< a power step's current did not settle
  porosity,         ///< the negative electrode's porosity closed (porosity::kLeastPorosity; failure_value: it)
};

/// One cell's clock (stepping::Clock, Simulation's too), where it is in the
/// experiment, why it ended, its work and its row buffer. Kept between calls.
struct ProgramClock : stepping::Clock {
  Ending ending = Ending::running;
  Failure failure = Failure::none;
  double failure_value = 0.0;  ///< the local error, or the last Newton update [V]
  double failure_dt = 0.0;     ///< the step [s] a local-error failure or a stall was measured at
  long long step = 0;          ///< experiment step index (over all cycles)
  bool step_started = false;
  double newton_constant = 0.0;  ///< PotentialStep::newton_constant
  int steps_taken = 0, steps_rejected = 0;
  long long passes = 0, newton_iterations = 0;  ///< as Simulation's WorkCounts
  long long attempts = 0, potential_solves = 0, electrolyte_solves = 0;
  double next_output = INFINITY;  ///< [s] steps land on this time (a field output; set by the host)
  double max_temperature = 0;
  int rows = 0;                 ///< rows in the buffer since the host last drained it
  int rotation3 = 0;            ///< level rotation of the 3-level arrays
  int rotation2 = 0;            ///< and of the 2-level ones
  int mix_count = 0;            ///< Anderson history
  bool ended_by_event = false;  ///< how the last experiment step ended (else by its duration)
};

}  // namespace voltaic::program
