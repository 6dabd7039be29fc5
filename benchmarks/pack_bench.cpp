// pack: PackSimulation of an Np x Ns pack through pack_drive_cycle() on the
// asked backend (set-up included in the wall time), then a smaller pack on
// the CPU backend through the first minutes (the baseline a user would
// otherwise run, per cell-step).
#include "pack_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "timing.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/drive_cycle.hpp"
#include "voltaic/solver/pack.hpp"

namespace voltaic_bench {

namespace {

using Clock = std::chrono::steady_clock;

/// liionpack's notebook 07: about 1.6 s per 1-minute step for 5,000 SPMe cells.
constexpr double kLiionpackSecondsPerCellStep = 1.6 / 5000.0;

voltaic::CellParameters spread_cells(std::size_t count, double spread) {
  voltaic::CellParameters c{{"Negative electrode thickness [m]", "Positive particle radius [m]"}, {}};
  std::mt19937_64 rng(1);
  std::vector<std::vector<double>> strata(2);
  for (auto& s : strata) {  // a Latin hypercube: one draw per stratum, shuffled
    for (std::size_t i = 0; i < count; ++i)
      s.push_back((double(i) + std::uniform_real_distribution<double>(0.0, 1.0)(rng)) / double(count));
    std::shuffle(s.begin(), s.end(), rng);
  }
  for (std::size_t i = 0; i < count; ++i) {
    c.values.push_back(85.2e-6 * (1.0 + spread * (2.0 * strata[0][i] - 1.0)));
    c.values.push_back(5.22e-6 * (1.0 + spread * (2.0 * strata[1][i] - 1.0)));
  }
  return c;
}

struct PackRun {
  voltaic::PackSolution solution;
  double wall_s = 0.0;
};

PackRun run_one(int parallel, int series, double seconds, double spread,
                const std::shared_ptr<const voltaic::Executor>& exec) {
  const auto start = Clock::now();
  voltaic::PackLayout l;
  l.parallel = parallel;
  l.series = series;
  l.connection_resistance = 1e-3;
  l.busbar_resistance = 1e-4 * series;
  voltaic::PackOptions o;
  o.cell.thermal = voltaic::ThermalModel::lumped;
  o.thermal.neighbour_conductance = 0.2;
  voltaic::PackSimulation pack(voltaic::parameter_sets::chen2020(), spread_cells(l.cells(), spread), l, o, exec);
  const std::vector<double> amps = pack_drive_cycle(seconds, pack.nominal_capacity());
  std::vector<double> t(amps.size());
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = double(i);
  voltaic::DriveCycles cycles;
  cycles["drive"] = std::make_shared<const voltaic::DriveCycle>(voltaic::DriveCycle("drive", t, amps));
  PackRun r;
  // From 90 % charge (a full pack would meet its upper cut-off at the first braking).
  r.solution = pack.run(voltaic::Experiment({"Discharge at 1C for 6 minutes", "Run drive (A)"}, 1, cycles));
  r.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

void report(BenchReport& r, const std::string& key, const PackRun& run, int parallel, int series, double seconds) {
  const double cell_steps = double(run.solution.steps_taken) * parallel * series;
  r.extra[key] = {{"parallel", parallel},
                  {"series", series},
                  {"cells", parallel * series},
                  {"drive_cycle_s", seconds},
                  {"completed", run.solution.completed},
                  {"termination", run.solution.termination},
                  {"wall_s", run.wall_s},
                  {"steps", run.solution.steps_taken},
                  {"steps_rejected", run.solution.steps_rejected},
                  {"circuit_iterations", run.solution.circuit_iterations},
                  {"cell_steps_per_s", cell_steps / run.wall_s},
                  {"us_per_cell_step", 1e6 * run.wall_s / cell_steps},
                  {"faster_than_real_time", seconds / run.wall_s},
                  {"final_voltage_v", run.solution.voltage.empty() ? 0.0 : run.solution.voltage.back()}};
}

}  // namespace

std::vector<double> pack_drive_cycle(double seconds, double capacity_ah) {
  // Speed-like pulses: accelerations up to 2C, cruising near 0.4C, braking
  // back to -0.5C; the mean near 0.5C, so an hour uses about half the charge.
  const auto rows = static_cast<std::size_t>(seconds) + 1;
  std::vector<double> amps(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    const double t = double(i), phase = std::fmod(t, 120.0);
    double c = phase < 15.0   ? 2.0 * phase / 15.0
               : phase < 70.0 ? 0.4 + 0.1 * std::sin(t / 7.0)
               : phase < 85.0 ? -0.5
                              : 0.3;
    if (phase >= 85.0) c += 0.7 * std::sin(3.14159265358979 * (phase - 85.0) / 35.0);
    amps[i] = c * capacity_ah;
  }
  return amps;
}

void run_pack(BenchReport& r, const PackBenchOptions& o, const std::shared_ptr<const voltaic::Executor>& exec) {
  r.size = static_cast<std::size_t>(o.parallel) * static_cast<std::size_t>(o.series);
  r.size_unit = "cells";
  const PackRun main = run_one(o.parallel, o.series, o.duration, o.spread, exec);
  const TimingStats t = summarize({main.wall_s});
  r.add("PackSimulation::run on " + r.backend, "voltaic", t, 0);
  report(r, "pack", main, o.parallel, o.series, o.duration);
  if (o.baseline_parallel > 0 && o.baseline_series > 0) {
    const PackRun base =
        run_one(o.baseline_parallel, o.baseline_series, o.baseline_duration, o.spread, voltaic::CpuExecutor::create());
    const TimingStats b = summarize({base.wall_s});
    r.add("PackSimulation::run on cpu (one core, smaller pack)", "baseline", b, 0);
    report(r, "cpu_baseline", base, o.baseline_parallel, o.baseline_series, o.baseline_duration);
    r.extra["speedup_per_cell_step_over_cpu"] =
        double(r.extra["cpu_baseline"]["us_per_cell_step"]) / double(r.extra["pack"]["us_per_cell_step"]);
  }
  r.extra["liionpack_us_per_cell_step_spme"] = 1e6 * kLiionpackSecondsPerCellStep;
  r.notes.push_back(
      "liionpack (SPMe cells, explicit coupling, 1-minute steps; its notebook 07: 1.6 s a step for 5,000 cells) is "
      "a published figure, not run here");
}

}  // namespace voltaic_bench
