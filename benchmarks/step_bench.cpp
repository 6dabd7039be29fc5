// step: "Discharge at <x>C until 2.5 V" of the Chen2020 cell from its initial
// (fully charged) state, as voltaic::Simulation runs it. Each repetition
// builds a new Simulation and times, on the host clock after the executor has
// synchronised, the set-up (parameter set, experiment, Simulation constructor)
// and run() alone; the report gives the medians, the accepted and rejected
// steps, the time per step, macro-cell-steps per second and the discharge
// capacity at the cut-off. With --split, one more discharge runs with
// SimulationOptions::time_substeps and the report splits its run time into
// the sub-steps and the rest (step control, save/restore, records).
#include "step_bench.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "copy_reference.hpp"
#include "voltaic/core/device_activity.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic_bench {

namespace {

using ExecPtr = std::shared_ptr<const voltaic::Executor>;
using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

voltaic::ThermalModel thermal_model(const std::string& name) {
  if (name == "isothermal") return voltaic::ThermalModel::isothermal;
  if (name == "lumped") return voltaic::ThermalModel::lumped;
  if (name == "conduction") return voltaic::ThermalModel::conduction;
  throw voltaic::InvalidArgument("thermal", "voltaic_bench::run_step",
                                 "'" + name + "' is not one of isothermal, lumped, conduction");
}

/// One discharge from a new Simulation.
struct Run {
  double setup_s = 0.0;  ///< parameter set, experiment and Simulation constructor
  double run_s = 0.0;    ///< Simulation::run
  int accepted = 0, rejected = 0;
  double capacity_ah = 0.0, final_time_s = 0.0, final_voltage_v = 0.0;
  bool completed = false;
  std::string termination;
  std::size_t cells = 0, particles = 0;
  voltaic::SubstepTimes substeps;  ///< with time_substeps only
  voltaic::WorkCounts work;
  voltaic::DeviceActivity activity;  ///< of Simulation::run: launches and host waits
};

Run discharge(const StepBenchOptions& so, const std::string& protocol, const ExecPtr& exec,
              bool time_substeps = false) {
  Run out;
  exec->synchronize();
  const Clock::time_point t0 = Clock::now();
  voltaic::SimulationOptions options;
  options.grid = {so.cells,
                  so.cells,
                  so.cells,
                  so.shells,
                  so.nx,
                  so.ny,
                  so.collectors == "potential-pair" ? voltaic::CurrentCollectorModel::potential_pair
                                                    : voltaic::CurrentCollectorModel::uniform};
  options.thermal = thermal_model(so.thermal);
  options.time_substeps = time_substeps;
  if (so.linear_rtol > 0.0) options.potential.linear.relative_tolerance = so.linear_rtol;
  if (so.inner_rtol > 0.0) options.potential.linear.inner_tolerance = so.inner_rtol;
  options.potential.linear.gmres_device_loop = !so.gmres_host_loop;
  if (so.diffusion_rtol > 0.0) options.diffusion.relative_tolerance = so.diffusion_rtol;
  if (so.heat_rtol > 0.0) options.heat.relative_tolerance = so.heat_rtol;
  const voltaic::Experiment experiment({protocol});
  voltaic::Simulation sim(voltaic::parameter_sets::by_name(so.parameters), options, exec);
  exec->synchronize();
  const Clock::time_point t1 = Clock::now();
  const voltaic::DeviceActivity before = voltaic::device_activity();
  const voltaic::Solution s = sim.run(experiment);
  out.activity = voltaic::device_activity() - before;
  exec->synchronize();
  const Clock::time_point t2 = Clock::now();
  out.setup_s = seconds(t0, t1);
  out.run_s = seconds(t1, t2);
  out.accepted = s.steps_taken;
  out.rejected = s.steps_rejected;
  out.capacity_ah = s["Discharge capacity [A.h]"].back();
  out.final_time_s = s["Time [s]"].back();
  out.final_voltage_v = s["Voltage [V]"].back();
  out.completed = s.completed;
  out.termination = s.termination;
  out.cells = sim.layout().num_cells();
  out.particles = sim.layout().num_particles();
  out.substeps = sim.substep_times();
  out.work = sim.work();
  return out;
}

/// What run() asked of the device from the host (zero on the CPU), in all
/// and per accepted step.
nlohmann::ordered_json activity_json(const voltaic::DeviceActivity& a, int accepted) {
  const double steps = accepted > 0 ? double(accepted) : 1.0;
  return {{"kernel_launches", a.kernel_launches},
          {"graph_launches", a.graph_launches},
          {"host_waits", a.host_waits},
          {"per_accepted_step",
           {{"kernel_launches", double(a.kernel_launches) / steps},
            {"graph_launches", double(a.graph_launches) / steps},
            {"host_waits", double(a.host_waits) / steps}}}};
}

/// The bytes each sub-step of the profiled run had to move at the least
/// (FP64 state read and written once; a model, docs/performance.md): per
/// concentration pass the electrolyte (c_e's two history levels, T, a j in,
/// c_e out) and the particles (c_s's two levels and the flux in, c_s and the
/// surface out), plus the unit-flux response once per attempt; per Newton
/// iteration the inputs (c_e, T, phi, the surface, its slope and flux), the
/// reaction and its derivative, residual and update, and the 2x2-block
/// z-line factors written and read (12 values per cell each way); per
/// thermal update the heat source's inputs and output, and with conduction
/// the heat grid's T and q read and T written (the cells and two foil layers).
struct FloorBytes {
  double concentration, potential, thermal;
};

FloorBytes floor_bytes(const Run& x, int shells, bool conduction, std::size_t columns) {
  const voltaic::WorkCounts& t = x.work;
  const double n = double(x.cells), p = double(x.particles), s = double(shells);
  const double pass = 5.0 * n + 3.0 * p * s + 2.0 * p, response = 2.0 * p * s + 2.0 * p;
  const double newton = 36.0 * n + 4.0 * p, heat = 8.0 * n + p + (conduction ? 3.0 * (n + 2.0 * double(columns)) : 0.0);
  return {8.0 * (pass * t.concentration_passes + response * t.attempts), 8.0 * newton * t.newton_iterations,
          8.0 * heat * t.potential_solves};
}

nlohmann::ordered_json work_json(const voltaic::WorkCounts& w) {
  return {{"attempts", w.attempts},
          {"concentration_passes", w.concentration_passes},
          {"electrolyte_iterations", w.electrolyte_iterations},
          {"potential_solves", w.potential_solves},
          {"newton_iterations", w.newton_iterations},
          {"linear_iterations", w.linear_iterations},
          {"heat_iterations", w.heat_iterations}};
}

/// The profiled run's time per sub-step: seconds, ms per accepted step and
/// fraction of run(); with the device's copy bandwidth, each sub-step's byte
/// floor (floor_bytes) and the fraction of it the sub-step reaches; each
/// sub-step's launches and host waits (the rest of the timed runs' are step
/// control's).
nlohmann::ordered_json split_of(const Run& x, const StepBenchOptions& so, double copy_gbps) {
  const voltaic::SubstepTimes& t = x.substeps;
  const double other = x.run_s - t.concentration_s - t.potential_s - t.thermal_s;
  const FloorBytes floor = floor_bytes(x, so.shells, so.thermal == "conduction", std::size_t(so.nx) * so.ny);
  nlohmann::ordered_json j;
  j["run_s"] = x.run_s;
  const voltaic::WorkCounts& work = x.work;
  j["work"] = work_json(work);
  j["linear_iterations_per_newton"] =
      work.newton_iterations > 0 ? double(work.linear_iterations) / double(work.newton_iterations) : 0.0;
  j["copy_bandwidth_GBps"] = copy_gbps;
  j["accepted_steps"] = x.accepted;
  const std::pair<const char*, double> parts[] = {
      {"concentration", t.concentration_s}, {"potential", t.potential_s}, {"thermal", t.thermal_s}, {"other", other}};
  const std::pair<const char*, double> floors[] = {
      {"concentration", floor.concentration}, {"potential", floor.potential}, {"thermal", floor.thermal}};
  const std::pair<const char*, const voltaic::DeviceActivity*> asked[] = {{"concentration", &t.concentration_activity},
                                                                          {"potential", &t.potential_activity},
                                                                          {"thermal", &t.thermal_activity}};
  for (const auto& [name, s] : parts) {
    j[name] = {{"s", s},
               {"ms_per_accepted_step", x.accepted > 0 ? 1e3 * s / x.accepted : 0.0},
               {"fraction", x.run_s > 0.0 ? s / x.run_s : 0.0}};
    for (const auto& [part, a] : asked) {
      if (std::string(part) == name) j[name]["device_activity"] = activity_json(*a, x.accepted);
    }
    for (const auto& [part, bytes] : floors) {
      if (std::string(part) != name || copy_gbps <= 0.0 || s <= 0.0) continue;
      j[name]["floor_bytes"] = bytes;
      j[name]["floor_s"] = bytes / (copy_gbps * 1e9);
      j[name]["fraction_of_floor"] = bytes / (copy_gbps * 1e9) / s;
    }
  }
  return j;
}

std::string rate_text(double c_rate) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", c_rate);
  return buf;
}

}  // namespace

void run_step(BenchReport& r, const BenchOptions& o, const ExecPtr& exec) {
  const StepBenchOptions& so = o.step;
  if (so.repeat < 1 || so.warmup < 0) {
    throw voltaic::InvalidArgument("repeat", "voltaic_bench::run_step",
                                   "repeat must be at least 1 and warmup at least 0");
  }
  if (!(so.c_rate > 0.0)) {
    throw voltaic::InvalidArgument("c-rate", "voltaic_bench::run_step", "must be > 0 (a discharge)");
  }
  thermal_model(so.thermal);  // an unknown model fails before anything runs
  const std::string protocol =
      "Discharge at " + rate_text(so.c_rate) + "C " +
      (so.duration_s > 0.0 ? "for " + std::to_string(so.duration_s) + " seconds"
                           : "until " +
                                 voltaic::format_parameter_value(
                                     voltaic::parameter_sets::by_name(so.parameters).electrical.lower_voltage_cutoff) +
                                 " V");

  for (int w = 0; w < so.warmup; ++w) discharge(so, protocol, exec);
  std::vector<Run> runs;
  for (int i = 0; i < so.repeat; ++i) runs.push_back(discharge(so, protocol, exec));

  std::vector<double> setup, run, total;
  bool same_steps = true;
  for (const Run& x : runs) {
    setup.push_back(x.setup_s);
    run.push_back(x.run_s);
    total.push_back(x.setup_s + x.run_s);
    same_steps = same_steps && x.accepted == runs[0].accepted && x.rejected == runs[0].rejected &&
                 x.capacity_ah == runs[0].capacity_ah;
  }
  const Run& first = runs.front();
  const TimingStats total_t = summarize(total), run_t = summarize(run), setup_t = summarize(setup);

  r.precision = "double";
  r.size = first.cells;
  r.size_unit = "macro cells";
  r.repeat = so.repeat;
  r.warmup = so.warmup;
  r.add("set-up + run: " + so.parameters + ", " + protocol, "voltaic (total)", total_t, 0);
  r.add("Simulation::run", "voltaic (run)", run_t, 0);
  r.add("set-up: " + so.parameters + "(), Experiment, Simulation()", "set-up", setup_t, 0);

  const double steps = first.accepted;
  r.extra["host_cpu"] = host_cpu_name();
  r.extra["host_hardware_threads"] = std::thread::hardware_concurrency();
  r.extra["parameter_set"] = so.parameters;
  r.extra["current_collector"] = so.collectors;
  r.extra["experiment"] = protocol;
  r.extra["thermal"] = so.thermal;
  r.extra["potential_linear_rtol"] =
      so.linear_rtol > 0.0 ? so.linear_rtol : voltaic::PotentialOptions{}.linear.relative_tolerance;
  r.extra["gmres_device_loop"] = !so.gmres_host_loop;
  r.extra["potential_inner_rtol"] =
      so.inner_rtol > 0.0 ? so.inner_rtol : voltaic::PotentialOptions{}.linear.inner_tolerance;
  r.extra["diffusion_rtol"] =
      so.diffusion_rtol > 0.0 ? so.diffusion_rtol : voltaic::SimulationOptions::default_diffusion().relative_tolerance;
  r.extra["heat_rtol"] =
      so.heat_rtol > 0.0 ? so.heat_rtol : voltaic::SimulationOptions::default_heat().relative_tolerance;
  r.extra["grid"] = {{"nx", so.nx},
                     {"ny", so.ny},
                     {"cells_per_region", so.cells},
                     {"radial_shells", so.shells},
                     {"macro_cells", first.cells},
                     {"particles", first.particles}};
  r.extra["total_s"] = total_t.median_s;
  r.extra["run_s"] = run_t.median_s;
  r.extra["setup_s"] = setup_t.median_s;
  r.extra["accepted_steps"] = first.accepted;
  r.extra["rejected_steps"] = first.rejected;
  r.extra["run_ms_per_accepted_step"] = steps > 0 ? 1e3 * run_t.median_s / steps : 0.0;
  r.extra["run_ms_per_attempt"] = 1e3 * run_t.median_s / double(first.accepted + first.rejected);
  r.extra["macro_cell_steps_per_s"] = steps * double(first.cells) / run_t.median_s;
  r.extra["discharge_capacity_Ah"] = first.capacity_ah;
  r.extra["final_time_s"] = first.final_time_s;
  r.extra["final_voltage_V"] = first.final_voltage_v;
  r.extra["completed"] = first.completed;
  r.extra["termination"] = first.termination;
  r.extra["same_steps_every_repeat"] = same_steps;
  r.extra["work"] = work_json(first.work);
  r.extra["device_activity"] = activity_json(first.activity, first.accepted);
  if (so.split) {
    // The device's copy bandwidth beside it (256 MiB), for the byte floors.
    voltaic::Array<double> block(exec, std::size_t{1} << 25);
    voltaic::fill(*exec, block.view(), 1.0);
    add_copy_reference(r, exec, block, TimingOptions{2, 10});
    r.finish();
    r.extra["substeps"] = split_of(discharge(so, protocol, exec, true), so, r.copy_bandwidth_gbps);
    r.notes.push_back(
        "substeps: one more discharge, untimed above, with the executor synchronised around each sub-step; "
        "other = run() minus the sub-steps (step control, save/restore, reaction lag, records)");
  }
  if (!first.completed) r.notes.push_back("the discharge did not complete: " + first.termination);
  if (!same_steps) r.notes.push_back("steps or capacity differ between repeats; the first repeat's are reported");
}

}  // namespace voltaic_bench
