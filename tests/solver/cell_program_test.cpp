// The batch cell program (src/solver/cell_program.hpp) against Simulation on
// the CPU. A 1D Simulation runs the same program (cell_engine.hpp), so this
// holds the two drivers together: the batch's (64 rows a call, its own
// wording of every ending) against Simulation's (a row a call): the same
// steps, work and curves bit for bit, and a batched cell bitwise the cell
// run alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/cycling.hpp"
#include "voltaic/solver/drive_cycle.hpp"

namespace voltaic {
namespace {

using Status = BatchCellResult::Status;

const char* const kThickness = "Negative electrode thickness [m]";
const char* const kAmbient = "Ambient temperature [K]";

SimulationOptions options(ThermalModel thermal) {
  SimulationOptions o;
  o.grid = {8, 6, 8, 8, 1, 1};
  o.thermal = thermal;
  return o;
}

std::vector<BatchCellResult> run(const CellParameters& cells, const SimulationOptions& o, const Experiment& e,
                                 BatchEngine engine, int threads = 2) {
  BatchOptions b;
  b.threads = threads;
  b.engine = engine;
  BatchSimulation batch(parameter_sets::chen2020(), cells, o, CpuExecutor::create(), b);
  return batch.run(e);
}

/// The program's cell is the simulation engine's, bit for bit: one engine.
void expect_same_bits(const BatchCellResult& program, const BatchCellResult& sim) {
  EXPECT_EQ(program.status, sim.status) << program.termination;
  EXPECT_EQ(program.termination, sim.termination);
  EXPECT_EQ(program.steps_taken, sim.steps_taken);
  EXPECT_EQ(program.steps_rejected, sim.steps_rejected);
  // The same work: one step control, one split, one Newton.
  EXPECT_EQ(program.concentration_passes, sim.concentration_passes);
  EXPECT_EQ(program.newton_iterations, sim.newton_iterations);
  ASSERT_EQ(program.voltage.size(), sim.voltage.size());
  EXPECT_EQ(program.voltage, sim.voltage);
  EXPECT_EQ(program.time, sim.time);
  EXPECT_EQ(program.temperature, sim.temperature);
  EXPECT_EQ(program.discharge_capacity_ah, sim.discharge_capacity_ah);
}

/// Asks the batch to stop at its `after`-th poll.
class StopAt : public BatchObserver {
 public:
  explicit StopAt(int after) : after_(after) {}
  std::string stop_reason() override { return ++polls_ >= after_ ? "stop requested" : ""; }

 private:
  int after_, polls_ = 0;
};

TEST(CellProgram, AStopKeepsTheRowsOfTheRunningCellAndLeavesTheRestNotRun) {
  BatchOptions b;
  b.threads = 1;
  b.engine = BatchEngine::cell_program;
  const CellParameters cells{{kThickness}, {85.2e-6, 70e-6, 95e-6}};
  BatchSimulation batch(parameter_sets::chen2020(), cells, options(ThermalModel::lumped), CpuExecutor::create(), b);
  StopAt observer(2);  // the first poll lets cell 0 start, the second comes after its first 64 rows
  const auto r = batch.run(Experiment({"Discharge at 1C until 3.0 V", "Charge at 1C until 4.1 V"}), &observer);
  EXPECT_EQ(r[0].status, Status::interrupted);
  EXPECT_EQ(r[0].voltage.size(), 64u);
  for (double v : r[0].voltage) EXPECT_TRUE(std::isfinite(v));
  EXPECT_EQ(r[1].status, Status::not_run);
  EXPECT_EQ(r[2].status, Status::not_run);
}

TEST(CellProgram, TheRowsPerCallDoNotChangeACell) {
  const CellParameters cells{{kThickness}, {85.2e-6, 70e-6}};
  const Experiment e(
      {"Discharge at 1C until 3.3 V", "Rest for 5 minutes", "Charge at 1C until 4.1 V", "Hold at 4.1 V until C/5"}, 2);
  std::vector<BatchCellResult> by[2];
  for (int k = 0; k < 2; ++k) {
    BatchOptions b;
    b.threads = 1;
    b.engine = BatchEngine::cell_program;
    b.rows_per_call = k == 0 ? 0 : 5;  // 64 on the CPU, or a call every 5 rows
    by[k] = BatchSimulation(parameter_sets::chen2020(), cells, options(ThermalModel::lumped), CpuExecutor::create(), b)
                .run(e);
  }
  for (std::size_t i = 0; i < cells.num_cells(); ++i) {
    SCOPED_TRACE("cell " + std::to_string(i));
    const BatchCellResult &a = by[0][i], &b = by[1][i];
    ASSERT_EQ(a.status, Status::completed) << a.termination;
    EXPECT_EQ(b.status, a.status) << b.termination;
    EXPECT_EQ(b.steps_taken, a.steps_taken);
    EXPECT_EQ(b.time, a.time);
    EXPECT_EQ(b.voltage, a.voltage);
    EXPECT_EQ(b.current, a.current);
    ASSERT_EQ(b.cycles.size(), 2u);
    ASSERT_EQ(a.cycles.size(), 2u);
    for (std::size_t c = 0; c < 2; ++c) EXPECT_EQ(b.cycles[c].values(), a.cycles[c].values());
  }
}

TEST(CellProgram, RefusesRowsPerCallOutOfRange) {
  const CellParameters cells{{kThickness}, {85.2e-6}};
  for (int rows : {-1, 65537}) {
    BatchOptions b;
    b.rows_per_call = rows;
    try {
      BatchSimulation(parameter_sets::chen2020(), cells, options(ThermalModel::lumped), CpuExecutor::create(), b);
      ADD_FAILURE() << "rows_per_call " << rows << " was taken";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("rows_per_call"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::to_string(rows)), std::string::npos) << e.what();
    }
  }
}

TEST(CellProgram, EqualsSimulationForACcCvCycle) {
  const CellParameters cells{{kThickness, kAmbient}, {85.2e-6, 298.15, 70e-6, 288.15, 95e-6, 308.15}};
  const Experiment e(
      {"Discharge at 1C until 3.3 V", "Rest for 5 minutes", "Charge at 1C until 4.1 V", "Hold at 4.1 V until C/5"});
  for (ThermalModel t : {ThermalModel::isothermal, ThermalModel::lumped}) {
    const auto program = run(cells, options(t), e, BatchEngine::cell_program);
    const auto sim = run(cells, options(t), e, BatchEngine::simulation);
    for (std::size_t i = 0; i < sim.size(); ++i) {
      SCOPED_TRACE("cell " + std::to_string(i));
      expect_same_bits(program[i], sim[i]);
      // An isothermal cell is held at its ambient temperature (PyBaMM's isothermal model).
      if (t == ThermalModel::isothermal) {
        for (double T : sim[i].temperature) EXPECT_EQ(T, cells.value(i, 1));
      }
    }
  }
}

TEST(CellProgram, WordsAnInfeasibleStepAsSimulationDoes) {
  const CellParameters cells{{kThickness}, {85.2e-6}};
  for (const char* step : {"Charge at 1C until 3.0 V", "Hold at 4.0 V until 100 A"}) {
    const Experiment e({step});
    const auto program = run(cells, options(ThermalModel::lumped), e, BatchEngine::cell_program);
    const auto sim = run(cells, options(ThermalModel::lumped), e, BatchEngine::simulation);
    EXPECT_EQ(program[0].status, Status::stopped) << program[0].termination;
    EXPECT_EQ(program[0].termination, sim[0].termination);
    EXPECT_EQ(program[0].voltage, sim[0].voltage);
  }
}

TEST(CellProgram, WordsAFailedStepAsSimulationDoes) {
  SimulationOptions o = options(ThermalModel::isothermal);
  o.potential.max_iterations = 1;  // Newton cannot converge
  const CellParameters cells{{kThickness}, {85.2e-6}};
  const Experiment e({"Discharge at 1C until 3.0 V"});
  const auto program = run(cells, o, e, BatchEngine::cell_program);
  const auto sim = run(cells, o, e, BatchEngine::simulation);
  EXPECT_EQ(program[0].status, Status::stopped);
  EXPECT_NE(program[0].termination.find("Newton did not converge in 1 iterations"), std::string::npos)
      << program[0].termination;
  EXPECT_EQ(program[0].termination, sim[0].termination);
}

// A cell that stops making progress fails with its own row and the others
// go on, with the same words as Simulation: at 3C on a
// coarse grid the base cell's electrolyte runs out near the positive
// collector and its steps crawl (1e-5 s); twice the electrolyte discharges.
TEST(CellProgram, StopsAStalledCellAsSimulationDoes) {
  const CellParameters cells{{"Initial concentration in electrolyte [mol.m-3]"}, {1000.0, 2000.0}};
  const Experiment e({"Discharge at 3C until 2.5 V"});
  SimulationOptions o = options(ThermalModel::lumped);
  o.grid = {5, 4, 5, 5, 1, 1};
  o.steps.max_steps = 2000;
  const auto program = run(cells, o, e, BatchEngine::cell_program);
  const auto sim = run(cells, o, e, BatchEngine::simulation);
  // The crawl amplifies the engines' rounding apart: each stops, with the same words.
  for (const auto* r : {&program, &sim}) {
    EXPECT_EQ((*r)[0].status, Status::stopped);
    EXPECT_NE((*r)[0].termination.find("the electrolyte is depleted in the positive electrode"), std::string::npos)
        << (*r)[0].termination;
    EXPECT_NE((*r)[0].termination.find("the cell stopped making progress: 2001 steps without completing a minute"),
              std::string::npos)
        << (*r)[0].termination;
  }
  EXPECT_EQ(program[1].status, Status::completed) << program[1].termination;
  expect_same_bits(program[1], sim[1]);
}

/// `e` by the program and by Simulation, isothermal and lumped: every cell
/// completes under Simulation and the program gives its bits
/// (expect_same_bits); `check(cell)` looks further at the program's.
template <class Check>
void expect_program_equals_simulation(const CellParameters& cells, const Experiment& e, const Check& check) {
  for (ThermalModel t : {ThermalModel::isothermal, ThermalModel::lumped}) {
    const auto program = run(cells, options(t), e, BatchEngine::cell_program);
    const auto sim = run(cells, options(t), e, BatchEngine::simulation);
    for (std::size_t i = 0; i < sim.size(); ++i) {
      SCOPED_TRACE("cell " + std::to_string(i));
      ASSERT_EQ(sim[i].status, Status::completed) << sim[i].termination;
      expect_same_bits(program[i], sim[i]);
      check(program[i]);
    }
  }
}

// A power step: the same secant iteration for the current (stepping::draw_power),
// so the same steps and curves as Simulation, discharge and charge.
TEST(CellProgram, EqualsSimulationForPowerSteps) {
  const CellParameters cells{{kThickness, kAmbient}, {85.2e-6, 298.15, 70e-6, 308.15}};
  const Experiment e({"Discharge at 15 W until 3.3 V", "Rest for 2 minutes", "Charge at 10 W until 4.0 V"});
  expect_program_equals_simulation(cells, e, [](const BatchCellResult& c) {
    // The power drawn: I V = P at every row of the discharge.
    for (std::size_t r = 1; r < c.voltage.size() && c.current[r] > 0.0; ++r)
      EXPECT_NEAR(c.current[r] * c.voltage[r], 15.0, 1e-9) << "row " << r;
  });
}

// A protocol's rates per cell: "Discharge C-rate factor" and "Charge C-rate
// factor" scale the C-rate steps (not the ones in amperes). Both engines alike, and a factor the same bits as the rate
// written out (2C x 0.5 = 1C exactly; 0.5C x 2 likewise).
TEST(CellProgram, RateFactorsScaleTheProtocolsCRateStepsPerCell) {
  const char* const discharge = "Discharge C-rate factor";
  const char* const charge = "Charge C-rate factor";
  const CellParameters cells{{discharge, charge}, {1.0, 1.0, 0.5, 2.0}};
  const Experiment e({"Discharge at 2C for 20 minutes", "Rest for 2 minutes", "Charge at 0.5C for 5 minutes",
                      "Discharge at 1 A for 1 minute"});
  const double capacity = parameter_sets::chen2020().electrical.nominal_capacity;
  expect_program_equals_simulation(cells, e, [&](const BatchCellResult&) {});
  for (BatchEngine engine : {BatchEngine::cell_program, BatchEngine::simulation}) {
    const auto r = run(cells, options(ThermalModel::lumped), e, engine);
    for (std::size_t cell = 0; cell < 2; ++cell) {
      ASSERT_EQ(r[cell].status, Status::completed) << r[cell].termination;
      ASSERT_GT(r[cell].time.size(), 20u);
      const double d = cell == 0 ? 2.0 : 1.0, c = cell == 0 ? 0.5 : 1.0;
      for (std::size_t row = 1; row < r[cell].time.size(); ++row) {
        const double t = r[cell].time[row], i = r[cell].current[row];
        if (t < 1200.0 - 1e-6) {
          EXPECT_EQ(i, d * capacity) << "cell " << cell << ", row " << row;
        } else if (t > 1320.0 + 1e-6 && t < 1620.0 - 1e-6) {
          EXPECT_EQ(i, -c * capacity) << "cell " << cell << ", row " << row;
        }
      }
      EXPECT_EQ(r[cell].current.back(), 1.0);  // amperes are amperes
    }
    // The factored cell is the cell whose experiment says 1C: the same bits.
    const Experiment written({"Discharge at 1C for 20 minutes", "Rest for 2 minutes", "Charge at 1C for 5 minutes",
                              "Discharge at 1 A for 1 minute"});
    const auto plain = run(CellParameters{{discharge}, {1.0}}, options(ThermalModel::lumped), written, engine);
    EXPECT_EQ(plain[0].time, r[1].time);
    EXPECT_EQ(plain[0].voltage, r[1].voltage);
    EXPECT_EQ(plain[0].steps_taken, r[1].steps_taken);
  }
}

/// Current and power tables with ramps, pulses of both signs and rests.
DriveCycles drive_tables() {
  DriveCycles t;
  t["I"] = std::make_shared<const DriveCycle>(
      DriveCycle("I", {0.0, 1.0, 20.0, 21.0, 40.0, 41.0, 60.0}, {0.0, 10.0, 10.0, -5.0, -5.0, 0.0, 0.0}));
  t["P"] = std::make_shared<const DriveCycle>(
      DriveCycle("P", {0.0, 5.0, 30.0, 31.0, 60.0}, {5.0, 20.0, 20.0, -10.0, -10.0}));
  t["C"] = std::make_shared<const DriveCycle>(DriveCycle("C", {0.0, 90.0}, {-5.0, -5.0}));
  return t;
}

// Drive cycles: the table is read at each attempt's time and the steps land
// on its rows, as Simulation; an "until" voltage on the side the step started.
TEST(CellProgram, EqualsSimulationForDriveCycles) {
  const CellParameters cells{{kThickness, kAmbient}, {85.2e-6, 298.15, 70e-6, 308.15}};
  // From 75 % state of charge, where the charge pulses stay below the cut-off.
  const Experiment e({"Discharge at 1C for 15 minutes", "Run I (A) until 2.5 V", "Run P (W) until 2.5 V",
                      "Run C (A) until 4.1 V", "Run I (A) for 30 s"},
                     1, drive_tables());
  const double start = 900.0;  // of the first table
  expect_program_equals_simulation(cells, e, [&](const BatchCellResult& c) {
    // Every row of the first table is a row of the run (the steps land on them).
    for (double row : {1.0, 20.0, 21.0, 40.0, 41.0, 60.0}) {
      const auto near = [&](double x) { return std::fabs(x - start - row) < 1e-9; };
      EXPECT_TRUE(std::any_of(c.time.begin(), c.time.end(), near)) << row;
    }
    // Its current at the rows' times.
    for (std::size_t r = 0; r < c.time.size(); ++r) {
      if (c.time[r] > start + 1e-6 && c.time[r] < start + 60.0 - 1e-6) {
        EXPECT_NEAR(c.current[r], e.step(1).drive_cycle->value_at(c.time[r] - start), 1e-9) << "row " << r;
      }
    }
  });
}

TEST(CellProgram, WordsAnInfeasibleDriveCycleAsSimulation) {
  const CellParameters cells{{kThickness}, {85.2e-6}};
  // A charge table "until" a voltage below the start: infeasible.
  const Experiment e({"Run C (A) until 3.0 V"}, 1, drive_tables());
  const auto program = run(cells, options(ThermalModel::lumped), e, BatchEngine::cell_program);
  const auto sim = run(cells, options(ThermalModel::lumped), e, BatchEngine::simulation);
  EXPECT_EQ(program[0].status, Status::stopped);
  EXPECT_EQ(program[0].termination, sim[0].termination);
  EXPECT_NE(program[0].termination.find("it charges until 3 V"), std::string::npos) << program[0].termination;
}

// Ageing on the program: each cell's cycle summaries (its own SEI rate and
// temperature) are Simulation's, a cell the experiment's termination stops
// early ends there with Simulation's words, and the cycles that keep no
// rows (save_at_cycles) drop them as Simulation does, but for the cycle a
// cell ends in.
TEST(CellProgram, SummarisesEachCellsCyclesAsSimulation) {
  const char* const kRate = "SEI reaction exchange current density [A.m-2]";
  const CellParameters cells{{kRate, kAmbient}, {1.5e-5, 298.15, 1.5e-4, 308.15, 3e-4, 298.15}};
  SimulationOptions o = options(ThermalModel::lumped);
  o.degradation.sei = SeiModel::reaction_limited;
  Experiment cycling({"Discharge at 1C until 3.0 V", "Charge at 1C until 4.1 V"}, 6);
  cycling.set_termination(parse_cycle_termination({"99% capacity"}));
  cycling.set_saving(CycleSaving::listed({2}));
  const auto program = run(cells, o, cycling, BatchEngine::cell_program);
  const auto sim = run(cells, o, cycling, BatchEngine::simulation);
  for (std::size_t i = 0; i < sim.size(); ++i) {
    SCOPED_TRACE("cell " + std::to_string(i));
    ASSERT_EQ(sim[i].status, Status::completed) << sim[i].termination;
    expect_same_bits(program[i], sim[i]);
    ASSERT_EQ(program[i].cycles.size(), sim[i].cycles.size());
    for (std::size_t c = 0; c < sim[i].cycles.size(); ++c) {
      const std::vector<double> a = program[i].cycles[c].values(), b = sim[i].cycles[c].values();
      for (std::size_t v = 0; v < a.size(); ++v) EXPECT_NEAR(a[v], b[v], 1e-9 * std::max(1.0, std::fabs(b[v])));
    }
  }
  // The slowest film runs every cycle; the fastest stops at 99% of its first capacity.
  EXPECT_EQ(program[0].cycles.size(), 6u);
  EXPECT_LT(program[2].cycles.size(), 6u);
  EXPECT_NE(program[2].termination.find("99% capacity"), std::string::npos) << program[2].termination;
  // Cell 0 keeps the rows of cycles 1 (the first), 2 and 6 (the last) only.
  const std::size_t kept = program[0].time.size();
  const auto all = run(cells, o, Experiment({"Discharge at 1C until 3.0 V", "Charge at 1C until 4.1 V"}, 6),
                       BatchEngine::cell_program);
  EXPECT_LT(kept, all[0].time.size() * 3 / 5);
  EXPECT_GT(kept, all[0].time.size() / 3);
}

}  // namespace
}  // namespace voltaic
