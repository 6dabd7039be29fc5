// Long cycling (cycling.hpp): PyBaMM's termination strings and
// save_at_cycles rule, and a run that keeps only some cycles' rows and
// stops at its capacity termination.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/simulation.hpp"

using namespace voltaic;

namespace {

const std::vector<std::string> kCycle = {"Discharge at 1C until 2.5 V", "Rest for 10 minutes",
                                         "Charge at 1C until 4.2 V", "Hold at 4.2 V until C/10"};

TEST(CycleTermination, ReadsPybammsStrings) {
  const CycleTermination t = parse_cycle_termination({"80% capacity", "4.5 A.h capacity", "2.7 V"});
  EXPECT_EQ(t.capacity_percent, 80.0);
  EXPECT_EQ(t.capacity_ah, 4.5);
  EXPECT_EQ(t.voltage, 2.7);
  EXPECT_EQ(parse_cycle_termination({"4 Ah capacity"}).capacity_ah, 4.0);
  EXPECT_EQ(parse_cycle_termination({"3V"}).voltage, 3.0);
  EXPECT_EQ(t.text(), "80% capacity, 4.5 A.h capacity, 2.7 V");
  EXPECT_EQ(parse_cycle_termination({"80 % capacity"}).capacity_percent, 80.0);  // PyBaMM reads it too
  for (const char* bad : {"120% capacity", "-1 V", "80% capacty", "capacity", "0 V", "nan V"})
    EXPECT_THROW(parse_cycle_termination({bad}), InvalidArgument) << bad;
}

TEST(CycleSaving, KeepsTheFirstTheLastEveryNthAndTheListed) {
  EXPECT_TRUE(CycleSaving{}.saved(17, 100));
  const CycleSaving every = CycleSaving::every_nth(10);
  std::vector<int> kept;
  for (int c = 1; c <= 25; ++c)
    if (every.saved(c, 25)) kept.push_back(c);
  EXPECT_EQ(kept, (std::vector<int>{1, 10, 20, 25}));
  const CycleSaving listed = CycleSaving::listed({3, 7});
  kept.clear();
  for (int c = 1; c <= 9; ++c)
    if (listed.saved(c, 9)) kept.push_back(c);
  EXPECT_EQ(kept, (std::vector<int>{1, 3, 7, 9}));
  EXPECT_THROW(CycleSaving::every_nth(0), InvalidArgument);
  EXPECT_THROW(CycleSaving::listed({2, -1}), InvalidArgument);
}

SimulationOptions small() {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 1, 1};
  o.degradation.sei = SeiModel::reaction_limited;
  return o;
}

ParameterSet fast_fading() {
  ParameterSet p = parameter_sets::chen2020();
  p.sei.exchange_current_density *= 1000.0;
  return p;
}

// Rows only for the saved cycles; the summaries and the state every cycle
// reaches are those of the run that keeps them all.
TEST(CycleSaving, ARunKeepsTheSavedCyclesRowsAndEveryCyclesSummary) {
  const Experiment all(kCycle, 7);
  Experiment some(kCycle, 7);
  some.set_saving(CycleSaving::every_nth(3));
  const Solution a = Simulation(fast_fading(), small(), CpuExecutor::create()).run(all);
  const Solution b = Simulation(fast_fading(), small(), CpuExecutor::create()).run(some);
  ASSERT_TRUE(a.completed && b.completed) << a.termination << b.termination;
  ASSERT_EQ(a.cycles.size(), 7u);
  ASSERT_EQ(b.cycles.size(), 7u);
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(a.cycles[i].values(), b.cycles[i].values()) << "cycle " << i + 1;
  std::set<int> cycles;
  for (double step : b["Step"]) cycles.insert(static_cast<int>(step) / static_cast<int>(kCycle.size()) + 1);
  EXPECT_EQ(cycles, (std::set<int>{1, 3, 6, 7}));
  // The kept rows are the full run's rows of those cycles.
  std::vector<double> kept;
  for (std::size_t r = 0; r < a.rows(); ++r)
    if (cycles.count(static_cast<int>(a["Step"][r]) / static_cast<int>(kCycle.size()) + 1))
      kept.push_back(a["Voltage [V]"][r]);
  EXPECT_EQ(kept, b["Voltage [V]"]);
  EXPECT_EQ(b.steps_taken, a.steps_taken);
}

// "<x>% capacity" stops after the first cycle whose electrode-SOH capacity
// is at or below x% of the first cycle's, and says so.
TEST(CycleTermination, ARunStopsAtItsCapacityTermination) {
  Experiment e(kCycle, 50);
  e.set_termination(parse_cycle_termination({"97% capacity"}));
  e.set_saving(CycleSaving::every_nth(1000));
  const Solution s = Simulation(fast_fading(), small(), CpuExecutor::create()).run(e);
  ASSERT_TRUE(s.completed) << s.termination;
  ASSERT_GE(s.cycles.size(), 2u);
  ASSERT_LT(s.cycles.size(), 50u) << "the fade never reached 97%";
  const double stop = 0.97 * s.cycles.front().capacity;
  EXPECT_LE(s.cycles.back().capacity, stop);
  EXPECT_GT(s.cycles[s.cycles.size() - 2].capacity, stop);
  EXPECT_NE(s.termination.find("\"97% capacity\""), std::string::npos) << s.termination;
  EXPECT_GT(s.cycles.back().lithium_inventory_lost_percent, 0.0);
  // Rows: the first cycle's and the one it stopped in, as PyBaMM keeps them.
  std::set<int> cycles;
  for (double step : s["Step"]) cycles.insert(static_cast<int>(step) / static_cast<int>(kCycle.size()) + 1);
  EXPECT_EQ(cycles, (std::set<int>{1, static_cast<int>(s.cycles.size())}));
}

TEST(CycleTermination, ARunStopsAtItsVoltageTermination) {
  Experiment e(kCycle, 5);
  e.set_termination(parse_cycle_termination({"2.6 V"}));
  const Solution s = Simulation(fast_fading(), small(), CpuExecutor::create()).run(e);
  ASSERT_TRUE(s.completed) << s.termination;
  EXPECT_EQ(s.cycles.size(), 1u);  // the 1C discharge reaches 2.5 V in the first cycle
  EXPECT_LE(s.cycles.front().min_voltage, 2.6);
  EXPECT_NE(s.termination.find("lowest voltage"), std::string::npos) << s.termination;
}

}  // namespace
