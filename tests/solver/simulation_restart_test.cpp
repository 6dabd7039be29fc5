// Simulation runs with an observer: checkpoints that continue a run bit for
// bit, refusals of a checkpoint from another setup, and fields streamed to
// the observer on the output thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/cycling.hpp"
#include "voltaic/solver/field_catalog.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

SimulationOptions small_cell(ThermalModel thermal = ThermalModel::lumped) {
  SimulationOptions o;
  o.grid = {8, 6, 8, 6, 1, 1};
  o.thermal = thermal;
  return o;
}

const Experiment& cycle() {
  static const Experiment e({"Discharge at 1C until 3.2 V", "Rest for 10 minutes", "Charge at 0.5C for 10 minutes"});
  return e;
}

/// Keeps the first checkpoint offered at or after `at` seconds.
class CheckpointAt : public RunObserver {
 public:
  explicit CheckpointAt(double at) : at_(at) {}
  bool checkpoint_due(double time) override { return !kept && time >= at_; }
  void on_checkpoint(const Checkpoint& c) override { kept = std::make_unique<Checkpoint>(c); }
  std::unique_ptr<Checkpoint> kept;

 private:
  double at_;
};

void expect_bitwise_equal(const Solution& a, const Solution& b) {
  ASSERT_EQ(a.rows(), b.rows());
  for (const std::string& name : Solution::variable_names()) {
    const std::vector<double>&x = a[name], &y = b[name];
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(x[i], y[i]) << name << ", row " << i;  // exact, not near
  }
  EXPECT_EQ(a.steps_taken, b.steps_taken);
  EXPECT_EQ(a.steps_rejected, b.steps_rejected);
  EXPECT_EQ(a.termination, b.termination);
  EXPECT_EQ(a.notes, b.notes);
}

/// A run of `e` whole, keeping its checkpoint at `at` seconds, and the same
/// run resumed from that checkpoint.
struct Resumed {
  Solution whole, resumed;
  std::unique_ptr<Checkpoint> checkpoint;
};

Resumed run_and_resume(const ParameterSet& p, const SimulationOptions& o, const Experiment& e, double at) {
  Resumed r;
  Simulation whole(p, o, CpuExecutor::create());
  CheckpointAt observer(at);
  r.whole = whole.run(e, &observer);
  r.checkpoint = std::move(observer.kept);
  if (!r.checkpoint) return r;
  Simulation resumed(p, o, CpuExecutor::create());
  resumed.load_checkpoint(*r.checkpoint);
  r.resumed = resumed.run(e);
  return r;
}

// Checkpoints in the first and in the second experiment step: each restart
// ends where the uninterrupted run ends, bit for bit, rows and fields.
TEST(SimulationRestart, ContinuesBitForBit) {
  SimulationOptions o = small_cell();
  o.field_times = {3500.0};
  for (double at : {600.0, 3300.0}) {
    Simulation whole(parameter_sets::chen2020(), o, CpuExecutor::create());
    CheckpointAt observer(at);
    const Solution a = whole.run(cycle(), &observer);
    ASSERT_TRUE(a.completed) << a.termination;
    ASSERT_TRUE(observer.kept) << "no checkpoint at " << at << " s";

    Simulation resumed(parameter_sets::chen2020(), o, CpuExecutor::create());
    resumed.load_checkpoint(*observer.kept);
    const Solution b = resumed.run(cycle());
    ASSERT_TRUE(b.completed) << b.termination;
    expect_bitwise_equal(a, b);
    EXPECT_EQ(whole.lithium_inventory(), resumed.lithium_inventory());
    EXPECT_EQ(whole.time(), resumed.time());
    ASSERT_EQ(a.fields.size(), 1u);
    ASSERT_EQ(b.fields.size(), 1u);
    for (const auto& [name, values] : a.fields[0].fields) EXPECT_EQ(values, b.fields[0].fields.at(name)) << name;
  }
}

// A checkpoint of state 3 (written before the split's first pass took the
// quadratic predictor) holds phi and aj at two past levels, not three: it
// still continues, its first step from the linear extrapolation.
TEST(SimulationRestart, AStateThreeCheckpointContinues) {
  Simulation whole(parameter_sets::chen2020(), small_cell(), CpuExecutor::create());
  CheckpointAt observer(600.0);
  const Solution a = whole.run(cycle(), &observer);
  ASSERT_TRUE(observer.kept);
  Checkpoint old = *observer.kept;
  old.texts["format"] = "voltaic simulation state 3";
  ASSERT_EQ(old.arrays.erase("state/phi@2") + old.arrays.erase("state/aj@2"), 2u);
  Simulation resumed(parameter_sets::chen2020(), small_cell(), CpuExecutor::create());
  resumed.load_checkpoint(old, cycle());
  const Solution b = resumed.run(cycle());
  ASSERT_TRUE(b.completed) << b.termination;
  EXPECT_NEAR(b["Voltage [V]"].back(), a["Voltage [V]"].back(), 1e-6);
  EXPECT_NEAR(b["Discharge capacity [A.h]"].back(), a["Discharge capacity [A.h]"].back(), 1e-6);
  EXPECT_NEAR(b["Time [s]"].back(), a["Time [s]"].back(), 0.01);  // the cut-off located to its tolerance
}

// A note taken before the checkpoint is in the resumed run's solution too.
TEST(SimulationRestart, KeepsTheNotesOfTheStepsBefore) {
  const Experiment e({"Discharge at 2C for 40 minutes", "Rest for 10 minutes"});
  Simulation whole(parameter_sets::chen2020(), small_cell(), CpuExecutor::create());
  CheckpointAt observer(1900.0);
  const Solution a = whole.run(e, &observer);
  ASSERT_EQ(a.notes.size(), 1u);
  ASSERT_TRUE(observer.kept);
  Simulation resumed(parameter_sets::chen2020(), small_cell(), CpuExecutor::create());
  resumed.load_checkpoint(*observer.kept);
  expect_bitwise_equal(a, resumed.run(e));
}

// The potential-pair foils live in phi, which the checkpoint carries: a
// pouch with tabs restarts bit for bit too.
TEST(SimulationRestart, APouchWithCollectorsContinuesBitForBit) {
  SimulationOptions o = small_cell(ThermalModel::conduction);  // the foils' temperatures are state too
  o.grid = {6, 4, 6, 5, 3, 4, CurrentCollectorModel::potential_pair};
  const Experiment e({"Discharge at 1C for 20 minutes", "Hold at 3.6 V for 5 minutes"});
  Simulation whole(parameter_sets::marquis2019(), o, CpuExecutor::create());
  CheckpointAt observer(600.0);
  const Solution a = whole.run(e, &observer);
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(observer.kept);
  Simulation resumed(parameter_sets::marquis2019(), o, CpuExecutor::create());
  resumed.load_checkpoint(*observer.kept);
  const Solution b = resumed.run(e);
  ASSERT_TRUE(b.completed) << b.termination;
  expect_bitwise_equal(a, b);
  // A checkpoint of the stack without foils is another setup.
  SimulationOptions uniform = o;
  uniform.grid.collectors = CurrentCollectorModel::uniform;
  Simulation other(parameter_sets::marquis2019(), uniform, CpuExecutor::create());
  EXPECT_THROW(other.load_checkpoint(*observer.kept), InvalidArgument);
}

TEST(SimulationRestart, CheckpointOfAnotherSetupIsRefusedNamingTheDifference) {
  Simulation whole(parameter_sets::chen2020(), small_cell(), CpuExecutor::create());
  CheckpointAt observer(100.0);
  whole.run(Experiment({"Discharge at 1C for 5 minutes"}), &observer);
  ASSERT_TRUE(observer.kept);

  SimulationOptions finer = small_cell();
  finer.grid.negative_cells = 9;
  Simulation other_grid(parameter_sets::chen2020(), finer, CpuExecutor::create());
  try {
    other_grid.load_checkpoint(*observer.kept);
    FAIL() << "a checkpoint of another grid was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("grid 8 6 8"), std::string::npos) << e.what();
  }

  ParameterSet thicker = parameter_sets::chen2020();
  thicker.negative_electrode.thickness *= 1.1;
  Simulation other_cell(thicker, small_cell(), CpuExecutor::create());
  EXPECT_THROW(other_cell.load_checkpoint(*observer.kept), InvalidArgument);

  Simulation other_experiment(parameter_sets::chen2020(), small_cell(), CpuExecutor::create());
  other_experiment.load_checkpoint(*observer.kept);
  EXPECT_THROW(other_experiment.run(Experiment({"Discharge at 2C for 5 minutes"})), InvalidArgument);
}

// A growing film's state is in the checkpoint: the run continues bit for
// bit (its cycle summaries too), and a setup without the film refuses it.
TEST(SimulationRestart, AnAgeingCellContinuesBitForBitAndNeedsItsFilm) {
  SimulationOptions o = small_cell();
  o.degradation.sei = SeiModel::reaction_limited;
  ParameterSet p = parameter_sets::chen2020();
  p.sei.exchange_current_density *= 100.0;
  const Experiment twice({"Discharge at 1C until 3.2 V", "Charge at 1C until 4.1 V"}, 2);
  const Resumed r = run_and_resume(p, o, twice, 5000.0);
  const Solution &a = r.whole, &b = r.resumed;
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(r.checkpoint);
  EXPECT_EQ(r.checkpoint->arrays.count("state/c_sei"), 1u);
  expect_bitwise_equal(a, b);
  // Every cycle's summary, the one the checkpoint cut included (its tally and
  // the summaries before are in the checkpoint).
  ASSERT_EQ(a.cycles.size(), 2u);
  ASSERT_EQ(b.cycles.size(), a.cycles.size());
  for (std::size_t i = 0; i < a.cycles.size(); ++i) EXPECT_EQ(b.cycles[i].values(), a.cycles[i].values()) << i;

  Simulation without_film(p, small_cell(), CpuExecutor::create());
  try {
    without_film.load_checkpoint(*r.checkpoint);
    FAIL() << "an ageing cell's checkpoint was accepted by a cell without SEI";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("degradation SEI"), std::string::npos) << e.what();
  }
}

// A restart in a cycle that keeps no rows (save_at_cycles): the rows it
// held back and the summaries so far are in the checkpoint, so the run's
// rows, summaries and the termination's comparison with cycle 1 are the
// uninterrupted run's; a checkpoint whose summaries disagree with its step
// index is refused.
TEST(SimulationRestart, ACheckpointInAnUnsavedCycleKeepsItsCycling) {
  SimulationOptions o = small_cell();
  o.degradation.sei = SeiModel::reaction_limited;
  ParameterSet p = parameter_sets::chen2020();
  p.sei.exchange_current_density *= 100.0;
  Experiment e({"Discharge at 1C until 3.2 V", "Charge at 1C until 4.1 V"}, 4);
  e.set_saving(CycleSaving::listed({}));                         // the first and the last cycles only
  e.set_termination(parse_cycle_termination({"10% capacity"}));  // compares with cycle 1's, never fires
  Experiment all = e;
  all.set_saving(CycleSaving{});
  const Solution every_row = Simulation(p, o, CpuExecutor::create()).run(all);
  const double second_cycle = every_row.cycles[0].time + 600.0;
  const Resumed r = run_and_resume(p, o, e, second_cycle);
  ASSERT_TRUE(r.checkpoint);
  expect_bitwise_equal(r.whole, r.resumed);
  ASSERT_EQ(r.resumed.cycles.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(r.resumed.cycles[i].values(), r.whole.cycles[i].values()) << i;
  // The held rows are cycle 2's up to the checkpoint, as the run keeping every row has them.
  const std::vector<double>& held = r.checkpoint->arrays.at("held/Time [s]");
  ASSERT_FALSE(held.empty());
  const std::vector<double>& t = every_row["Time [s]"];
  const auto first = std::search(t.begin(), t.end(), held.begin(), held.end());
  ASSERT_NE(first, t.end()) << "the held rows are not a run of the uninterrupted rows";
  EXPECT_EQ(held.front(), every_row.cycles[0].time);  // cycle 2's first row repeats cycle 1's last time
  EXPECT_LT(held.back(), every_row.cycles[1].time);

  Checkpoint short_of_one = *r.checkpoint;  // a summary missing
  for (auto& [name, values] : short_of_one.arrays)
    if (name.rfind("cycles/", 0) == 0) values.pop_back();
  Simulation refused(p, o, CpuExecutor::create());
  refused.load_checkpoint(short_of_one);
  try {
    refused.run(e);
    FAIL() << "a checkpoint with 0 summaries after cycle 1 was accepted";
  } catch (const InvalidArgument& x) {
    EXPECT_NE(std::string(x.what()).find("cycle summaries"), std::string::npos) << x.what();
  }
}

// The active material left is in the checkpoint: the run continues bit for
// bit; the fingerprint of a cell without the loss keeps its mechanics out.
TEST(SimulationRestart, ACellLosingActiveMaterialContinuesBitForBit) {
  SimulationOptions o = small_cell();
  o.degradation.loss_of_active_material[0] = LamModel::stress_driven;
  const ParameterSet p = parameter_sets::okane2022();
  const Experiment twice({"Discharge at 1C until 3.2 V", "Charge at 1C until 4.1 V"}, 2);
  const Resumed r = run_and_resume(p, o, twice, 5000.0);
  const Solution &a = r.whole, &b = r.resumed;
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(r.checkpoint);
  EXPECT_EQ(r.checkpoint->arrays.count("state/active"), 1u);
  EXPECT_NE(r.checkpoint->texts.at("setup").find("loss of active material stress-driven / none"), std::string::npos);
  // PyBaMM's default with mechanics: the particles diffuse with the stress factor, restarted bit for bit too.
  EXPECT_NE(r.checkpoint->texts.at("setup").find("stress-induced diffusion 1 / 1"), std::string::npos);
  expect_bitwise_equal(a, b);
  ASSERT_FALSE(b.cycles.empty());
  EXPECT_GT(a.cycles.back().lam_percent[0], 0.0);
  EXPECT_EQ(b.cycles.back().lam_percent[0], a.cycles.back().lam_percent[0]);
  EXPECT_EQ(b.cycles.back().lam_lithium_lost[0], a.cycles.back().lam_lithium_lost[0]);

  Simulation plain(p, small_cell(), CpuExecutor::create());
  CheckpointAt first(0.0);
  plain.run(Experiment({"Discharge at 1C for 1 minute"}), &first);
  ASSERT_TRUE(first.kept);
  EXPECT_EQ(first.kept->texts.at("setup").find("Poisson"), std::string::npos);
}

// The checkpoint's record of the solver options, pinned: checkpoints written
// by earlier builds must keep matching when the options are set as they were.
TEST(SimulationRestart, SolverOptionsAreFingerprintedAsBefore) {
  SimulationOptions o = small_cell();
  o.steps.initial_dt = 0.02;
  o.steps.max_dt = 300.0;
  o.steps.max_growth = 1.5;
  o.steps.max_retries = 7;
  o.steps.max_split_iterations = 9;
  o.potential.tolerance = 2e-9;
  o.potential.max_iterations = 30;
  o.potential.electrolyte_face_mean = FaceMean::arithmetic;
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  CheckpointAt observer(0.0);
  sim.run(Experiment({"Discharge at 1C for 1 minute"}), &observer);
  ASSERT_TRUE(observer.kept);
  const std::string setup = observer.kept->texts.at("setup");
  EXPECT_NE(setup.find("\nsteps 0.02 1e-06 300 1e-04 1e-06 1.5 7 1e-07 9\n"), std::string::npos) << setup;
  EXPECT_NE(setup.find("\npotential 2e-09 30 0.2 1 1e-04 2000 40 0.01\n"), std::string::npos) << setup;
}

// The protocol's C-rate factors enter the fingerprint only when they scale
// (a checkpoint of before they existed still continues); a scaled run's
// checkpoint is refused by a run that does not scale, naming the factor.
TEST(SimulationRestart, RateFactorsAreFingerprintedOnlyWhenTheyScale) {
  const Experiment e({"Discharge at 0.5C for 1 minute"});
  CheckpointAt plain(0.0), scaled(0.0);
  Simulation(parameter_sets::chen2020(), small_cell(), CpuExecutor::create()).run(e, &plain);
  ParameterSet p = parameter_sets::chen2020();
  p.electrical.discharge_rate_factor = 2.0;
  Simulation(p, small_cell(), CpuExecutor::create()).run(e, &scaled);
  ASSERT_TRUE(plain.kept);
  ASSERT_TRUE(scaled.kept);
  EXPECT_EQ(plain.kept->texts.at("setup").find("C-rate factor"), std::string::npos);
  EXPECT_NE(scaled.kept->texts.at("setup").find("\nDischarge C-rate factor = 2\n"), std::string::npos);
  Simulation other(parameter_sets::chen2020(), small_cell(), CpuExecutor::create());
  try {
    other.load_checkpoint(*scaled.kept);
    FAIL() << "a scaled run's checkpoint was accepted";
  } catch (const InvalidArgument& err) {
    EXPECT_NE(std::string(err.what()).find("Discharge C-rate factor"), std::string::npos) << err.what();
  }
}

/// The message load_checkpoint gives for `c`, "" when it accepts it.
std::string refusal(const Checkpoint& c, const Experiment& experiment) {
  Simulation sim(parameter_sets::chen2020(), small_cell(), CpuExecutor::create());
  try {
    sim.load_checkpoint(c, experiment);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

// A checkpoint is input: every stored number is range-checked, whatever
// got past the file's checksum (a NaN or negative time used to be accepted:
// "continuing at t = nan s").
TEST(SimulationRestart, ValuesNoRunWritesAreRefusedByName) {
  const Experiment experiment({"Discharge at 1C for 5 minutes"});
  Simulation whole(parameter_sets::chen2020(), small_cell(), CpuExecutor::create());
  CheckpointAt observer(100.0);
  whole.run(experiment, &observer);
  ASSERT_TRUE(observer.kept);
  const Checkpoint& good = *observer.kept;
  EXPECT_EQ(refusal(good, experiment), "");

  const auto with_scalar = [&](const std::string& key, double value) {
    Checkpoint c = good;
    c.scalars[key] = value;
    return refusal(c, experiment);
  };
  EXPECT_NE(with_scalar("time", std::nan("")).find("'time' is nan; allowed: a finite number >= 0 [s]"),
            std::string::npos)
      << with_scalar("time", std::nan(""));
  EXPECT_NE(with_scalar("time", -1.0).find("'time' is -1"), std::string::npos);
  EXPECT_NE(with_scalar("time", INFINITY).find("'time' is inf"), std::string::npos);
  EXPECT_NE(with_scalar("step dt", 0.0).find("'step dt' is 0; allowed: a finite number > 0"), std::string::npos);
  EXPECT_NE(with_scalar("lumped temperature", -3.0).find("'lumped temperature'"), std::string::npos);
  EXPECT_NE(with_scalar("voltage", std::nan("")).find("'voltage' is nan"), std::string::npos);
  EXPECT_NE(with_scalar("step elapsed", 1e9).find("'step elapsed'"), std::string::npos);

  const auto with_integer = [&](const std::string& key, std::int64_t value) {
    Checkpoint c = good;
    c.integers[key] = value;
    return refusal(c, experiment);
  };
  EXPECT_NE(with_integer("step index", 1).find("'step index' is 1; allowed: below the experiment's 1 steps"),
            std::string::npos)
      << with_integer("step index", 1);
  EXPECT_NE(with_integer("step index", -1).find("'step index' is -1"), std::string::npos);
  EXPECT_NE(with_integer("steps taken", -5).find("'steps taken' is -5"), std::string::npos);
  EXPECT_NE(with_integer("step history", 7).find("'step history' is 7"), std::string::npos);

  Checkpoint c = good;
  c.arrays["state/c_e"][2] = std::nan("");
  EXPECT_NE(refusal(c, experiment).find("array 'state/c_e' holds nan at 2"), std::string::npos);
  c = good;
  c.arrays["solution/Voltage [V]"].pop_back();
  EXPECT_NE(refusal(c, experiment).find("column 'Voltage [V]' has"), std::string::npos) << refusal(c, experiment);
  c = good;
  c.texts.erase("termination");
  EXPECT_NE(refusal(c, experiment).find("has no 'termination'"), std::string::npos);
  EXPECT_NE(refusal(good, Experiment({"Discharge at 1C for 6 minutes"})).find("another experiment"), std::string::npos);
}

// A drive cycle's rows shape the run as much as its name: a checkpoint of a
// run over one table does not continue over an edited one (issue 34), and
// the refusal names the table; the same table continues.
TEST(SimulationRestart, ADriveCycleEditedSinceTheCheckpointIsRefused) {
  const auto table = [](double amps) {
    return DriveCycles{{"trips", std::make_shared<const DriveCycle>("trips", std::vector<double>{0, 300, 600},
                                                                    std::vector<double>{5.0, amps, 5.0})}};
  };
  const std::vector<std::string> steps{"Run trips (A)"};
  Simulation whole(parameter_sets::chen2020(), small_cell(), CpuExecutor::create());
  CheckpointAt observer(200.0);
  const Solution a = whole.run(Experiment(steps, 1, table(2.0)), &observer);
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(observer.kept);
  const std::string edited = refusal(*observer.kept, Experiment(steps, 1, table(2.5)));
  EXPECT_NE(edited.find("another experiment"), std::string::npos) << edited;
  EXPECT_NE(edited.find("table \"trips\": 3 rows, digest"), std::string::npos) << edited;
  EXPECT_EQ(refusal(*observer.kept, Experiment(steps, 1, table(2.0))), "");
}

// The field schedule follows the restarted run's options (a restart with
// field_period 300 -> 100 used to fail with dt = -1500).
TEST(SimulationRestart, TheFieldScheduleComesFromTheNewOptions) {
  const Experiment experiment({"Discharge at 1C for 40 minutes"});
  SimulationOptions every_300 = small_cell(), every_100 = small_cell();
  every_300.field_period = 300.0;
  every_100.field_period = 100.0;
  Simulation whole(parameter_sets::chen2020(), every_300, CpuExecutor::create());
  CheckpointAt observer(1700.0);
  const Solution a = whole.run(experiment, &observer);
  ASSERT_TRUE(observer.kept);
  const double t = observer.kept->scalars.at("time");

  Simulation resumed(parameter_sets::chen2020(), every_100, CpuExecutor::create());
  resumed.load_checkpoint(*observer.kept, experiment);
  const Solution b = resumed.run(experiment);
  ASSERT_TRUE(b.completed) << b.termination;
  std::vector<double> times;
  for (const FieldSnapshot& f : b.fields) times.push_back(f.time);
  ASSERT_FALSE(times.empty());
  EXPECT_GT(times.front(), t);                                             // none before the checkpoint's time again
  EXPECT_NEAR(times.front(), 100.0 * std::ceil(t / 100.0 + 1e-12), 1e-6);  // the next multiple of 100 s
  EXPECT_NEAR(times.back(), 2400.0, 1e-6);
  EXPECT_NEAR(b["Time [s]"].back(), a["Time [s]"].back(), 1e-9);
}

/// Collects the streamed frames (called on the output thread).
class FieldCollector : public RunObserver {
 public:
  std::vector<std::string> streamed_fields() const override {
    return {"temperature", "particle_surface_concentration", "electrolyte_potential"};
  }
  void on_fields(double time, const std::vector<const double*>& data) override {
    std::lock_guard<std::mutex> lock(mutex);
    times.push_back(time);
    frames.emplace_back();
    for (const double* d : data) frames.back().emplace_back(d, d + cells);
  }
  std::size_t cells = 0;
  std::mutex mutex;
  std::vector<double> times;
  std::vector<std::vector<std::vector<double>>> frames;
};

// The streamed frames are the fields a stored snapshot holds at the same
// times (per particle: on the electrode cells, NaN in the separator).
TEST(SimulationFields, StreamedFramesMatchStoredSnapshots) {
  SimulationOptions o = small_cell();
  o.field_period = 250.0;
  o.field_times = {100.0};
  const Experiment discharge({"Discharge at 1C for 20 minutes"});
  Simulation stored(parameter_sets::chen2020(), o, CpuExecutor::create());
  const Solution s = stored.run(discharge);
  Simulation streamed(parameter_sets::chen2020(), o, CpuExecutor::create());
  FieldCollector observer;
  observer.cells = streamed.layout().num_cells();
  const Solution t = streamed.run(discharge, &observer);
  ASSERT_TRUE(t.completed) << t.termination;
  EXPECT_TRUE(t.fields.empty());

  const std::vector<double> expected_times = {0.0, 100.0, 250.0, 500.0, 750.0, 1000.0};
  ASSERT_EQ(observer.times.size(), expected_times.size());
  ASSERT_EQ(s.fields.size(), expected_times.size());
  const CellMap& map = streamed.layout().constants().map;
  for (std::size_t f = 0; f < expected_times.size(); ++f) {
    EXPECT_NEAR(observer.times[f], expected_times[f], 1e-9);
    const auto& snapshot = s.fields[f].fields;
    EXPECT_EQ(observer.frames[f][0], snapshot.at("Cell temperature [K]"));
    EXPECT_EQ(observer.frames[f][2], snapshot.at("Electrolyte potential [V]"));
    const std::vector<double>& surface = snapshot.at("Particle surface concentration [mol.m-3]");
    for (std::size_t c = 0; c < map.cells; ++c) {
      const double v = observer.frames[f][1][c];
      if (map.region(c) == 1)
        EXPECT_TRUE(std::isnan(v)) << "cell " << c;
      else
        EXPECT_EQ(v, surface[map.particle_of_cell(c)]) << "cell " << c;
    }
  }
}

/// Fails on its second frame, as a full disk would.
class FailingWriter : public FieldCollector {
 public:
  void on_fields(double time, const std::vector<const double*>& data) override {
    if (!times.empty()) throw std::runtime_error("disk full");
    FieldCollector::on_fields(time, data);
  }
};

TEST(SimulationFields, AWriterErrorReachesTheCaller) {
  SimulationOptions o = small_cell();
  o.field_period = 60.0;
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  FailingWriter observer;
  observer.cells = sim.layout().num_cells();
  EXPECT_THROW(sim.run(Experiment({"Discharge at 1C for 10 minutes"}), &observer), std::runtime_error);
}

TEST(SimulationFields, UnknownStreamedFieldIsNamed) {
  struct Bad : RunObserver {
    std::vector<std::string> streamed_fields() const override { return {"temprature"}; }
  } observer;
  Simulation sim(parameter_sets::chen2020(), small_cell(), CpuExecutor::create());
  EXPECT_THROW(sim.run(Experiment({"Rest for 1 minute"}), &observer), InvalidArgument);
}

/// Streams every frame and keeps the first checkpoint offered at or after 500 s.
struct FramesAndCheckpoint : FieldCollector {
  bool checkpoint_due(double time) override { return !kept && time >= 500.0; }
  void on_checkpoint(const Checkpoint& c) override { kept = std::make_unique<Checkpoint>(c); }
  std::unique_ptr<Checkpoint> kept;
};

/// A GPU run of `e` streaming its frames into `observer`, and the run resumed
/// from its checkpoint: the continuation bitwise the whole run. Returns the
/// whole run and its lithium inventory.
std::pair<Solution, double> run_and_resume(const ParameterSet& p, const SimulationOptions& o, const Experiment& e,
                                           const std::shared_ptr<const Executor>& gpu, FramesAndCheckpoint& observer) {
  Simulation whole(p, o, gpu);
  observer.cells = whole.layout().num_cells();
  Solution a = whole.run(e, &observer);
  EXPECT_TRUE(a.completed) << a.termination;
  EXPECT_TRUE(observer.kept);
  if (!observer.kept) return {a, whole.lithium_inventory()};
  Simulation resumed(p, o, gpu);
  resumed.load_checkpoint(*observer.kept);
  expect_bitwise_equal(a, resumed.run(e));
  EXPECT_EQ(whole.lithium_inventory(), resumed.lithium_inventory());
  return {a, whole.lithium_inventory()};
}

// On a GPU: a restart is bitwise too, and the frames streamed through pinned
// buffers on the output stream are those of the CPU backend (to rounding).
TEST(SimulationCuda, RestartAndStreamedFieldsOnTheGpu) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  const std::shared_ptr<const Executor> gpu = CudaExecutor::create(0, 3);  // stream 2 copies the frames
  SimulationOptions o = small_cell(ThermalModel::conduction);
  o.grid.nx = 3;
  o.grid.ny = 2;
  o.field_period = 200.0;
  const Experiment discharge({"Discharge at 1C for 15 minutes", "Rest for 2 minutes"});
  FramesAndCheckpoint observer;
  run_and_resume(parameter_sets::chen2020(), o, discharge, gpu, observer);

  Simulation cpu(parameter_sets::chen2020(), o, CpuExecutor::create());
  FieldCollector reference;
  reference.cells = cpu.layout().num_cells();
  cpu.run(discharge, &reference);
  ASSERT_EQ(observer.times.size(), 6u);  // 0, 200, ..., 1000 s
  ASSERT_EQ(reference.times.size(), observer.times.size());
  for (std::size_t f = 0; f < observer.frames.size(); ++f)
    for (std::size_t k = 0; k < observer.frames[f].size(); ++k)
      for (std::size_t c = 0; c < observer.cells; ++c) {
        const double x = observer.frames[f][k][c], y = reference.frames[f][k][c];
        if (std::isnan(y))
          EXPECT_TRUE(std::isnan(x));
        else
          EXPECT_NEAR(x, y, 1e-6 * std::max(1.0, std::fabs(y))) << "frame " << f << " field " << k << " cell " << c;
      }
}

/// NaN where `expected` is NaN (the separator's particle fields), else the same bits.
void expect_same_frame(const std::vector<double>& got, const std::vector<double>& expected, const std::string& what) {
  ASSERT_EQ(got.size(), expected.size()) << what;
  for (std::size_t c = 0; c < expected.size(); ++c) {
    if (std::isnan(expected[c]))
      EXPECT_TRUE(std::isnan(got[c])) << what << ", cell " << c;
    else
      EXPECT_EQ(got[c], expected[c]) << what << ", cell " << c;  // exact
  }
}

// A 1D cell on the GPU runs on the cell engine's device program: its rows,
// stored and streamed fields are the CPU's bit for bit, a restart from its
// checkpoint continues bit for bit, and `voltaic sweep`'s batch of the same
// cell (the program on a warp) gives the same rows as `voltaic run`'s
// Simulation: one engine, one answer.
TEST(SimulationCuda, A1dCellRestartsStreamsAndEqualsItsBatchOnTheGpu) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  const std::shared_ptr<const Executor> gpu = CudaExecutor::create(0, 3);
  SimulationOptions o = small_cell();
  o.field_period = 200.0;
  o.field_times = {700.0};
  o.steps.event_tolerance = 1e-10;
  const Experiment e({"Discharge at 1C for 15 minutes", "Rest for 2 minutes", "Discharge at 5 W for 2 minutes"});
  const ParameterSet p = parameter_sets::chen2020();

  // Streamed frames and a restart (an observer that streams takes the
  // frames; the stored snapshots come from runs without one, below).
  FramesAndCheckpoint observer;
  const auto [a, inventory] = run_and_resume(p, o, e, gpu, observer);
  ASSERT_TRUE(a.completed);

  Simulation cpu(p, o, CpuExecutor::create());
  FieldCollector reference;
  reference.cells = cpu.layout().num_cells();
  expect_bitwise_equal(a, cpu.run(e, &reference));
  EXPECT_EQ(inventory, cpu.lithium_inventory());
  ASSERT_EQ(observer.times, reference.times);
  ASSERT_FALSE(reference.times.empty());
  for (std::size_t f = 0; f < reference.frames.size(); ++f)
    for (std::size_t k = 0; k < reference.frames[f].size(); ++k)
      expect_same_frame(observer.frames[f][k], reference.frames[f][k],
                        "frame " + std::to_string(f) + ", field " + std::to_string(k));

  const Solution stored_gpu = Simulation(p, o, gpu).run(e), stored_cpu = Simulation(p, o, CpuExecutor::create()).run(e);
  expect_bitwise_equal(stored_gpu, a);
  ASSERT_EQ(stored_gpu.fields.size(), stored_cpu.fields.size());
  ASSERT_EQ(stored_cpu.fields.size(), 7u);  // every 200 s from 0 to 1,000 s, and 700 s
  for (std::size_t f = 0; f < stored_cpu.fields.size(); ++f) {
    EXPECT_EQ(stored_gpu.fields[f].time, stored_cpu.fields[f].time);
    for (const auto& [name, values] : stored_cpu.fields[f].fields)
      expect_same_frame(stored_gpu.fields[f].fields.at(name), values, name + " at " + std::to_string(f));
  }

  const char* const thickness = "Negative electrode thickness [m]";
  BatchOptions batch;
  batch.engine = BatchEngine::cell_program;
  const CellParameters one{{thickness}, {parameter_value(p, thickness)}};
  SimulationOptions curves_only = o;  // a batch keeps no fields
  curves_only.field_times.clear();
  curves_only.field_period = 0.0;
  const std::vector<BatchCellResult> swept = BatchSimulation(p, one, curves_only, gpu, batch).run(e);
  // Against the run without fields: field times are step ends of their own.
  const Solution run = Simulation(p, curves_only, gpu).run(e);
  ASSERT_EQ(swept.size(), 1u);
  EXPECT_EQ(swept[0].steps_taken, run.steps_taken);
  EXPECT_EQ(swept[0].steps_rejected, run.steps_rejected);
  EXPECT_EQ(swept[0].time, run["Time [s]"]);
  EXPECT_EQ(swept[0].voltage, run["Voltage [V]"]);
  EXPECT_EQ(swept[0].current, run["Current [A]"]);
  EXPECT_EQ(swept[0].temperature, run["Volume-averaged cell temperature [K]"]);
}

}  // namespace
}  // namespace voltaic
