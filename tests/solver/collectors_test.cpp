// The potential-pair current collectors: tabs on the grid, what a bad tab or
// cell gets, the foils' resistance against its closed form, and the limit of
// perfect foils (the stack without collectors).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numeric>
#include <string>

#include "solver/collector_tabs.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

SimulationOptions pouch(int nx, int ny, CurrentCollectorModel collectors = CurrentCollectorModel::potential_pair) {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, nx, ny, collectors};
  return o;
}

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

// Marquis2019's tabs are on the top edge (PyBaMM's z = height: our x_hi),
// 4 cm wide; the covered fractions add up to the tab's width in faces.
TEST(CollectorTabs, MarquisTabsLieOnTheTopEdge) {
  const ParameterSet p = parameter_sets::marquis2019();
  const double h = p.cell.electrode_height, w = p.cell.electrode_width;
  const TabCoverage n = tab_coverage(p.negative_current_collector, "Negative", h, w, 8, 23);
  EXPECT_EQ(n.edge, TabEdge::x_hi);
  EXPECT_NEAR(sum(n.x_hi) * w / 23, 0.04, 1e-15);
  EXPECT_EQ(sum(n.x_lo) + sum(n.y_lo) + sum(n.y_hi), 0.0);
  // 0.04 m centred at 0.06 m: [0.04, 0.08] with faces 0.009 m wide.
  EXPECT_NEAR(n.x_hi[4], 1.0 - (0.04 - 4 * 0.009) / 0.009, 1e-12);
  EXPECT_EQ(n.x_hi[3], 0.0);
  const TabCoverage q = tab_coverage(p.positive_current_collector, "Positive", h, w, 8, 23);
  EXPECT_NEAR(sum(q.x_hi) * w / 23, 0.04, 1e-15);
  // A tab on a side edge runs along x.
  CurrentCollectorParameters side = p.positive_current_collector;
  side.tab_centre_y = w;
  side.tab_centre_z = 0.05;
  const TabCoverage s = tab_coverage(side, "Positive", h, w, 8, 23);
  EXPECT_EQ(s.edge, TabEdge::y_hi);
  EXPECT_NEAR(sum(s.y_hi) * h / 8, 0.04, 1e-15);
}

TEST(CollectorTabs, ABadTabIsNamed) {
  const ParameterSet p = parameter_sets::marquis2019();
  const double h = p.cell.electrode_height, w = p.cell.electrode_width;
  CurrentCollectorParameters c = p.negative_current_collector;
  c.tab_centre_z = 0.05;
  std::string e = message_of([&] { tab_coverage(c, "Negative", h, w, 4, 4); });
  EXPECT_TRUE(has(e, "Negative tab centre y-coordinate [m] and Negative tab centre z-coordinate [m]")) << e;
  EXPECT_TRUE(has(e, "is not on an edge")) << e;
  c = p.negative_current_collector;
  c.tab_width = 0.2;
  e = message_of([&] { tab_coverage(c, "Negative", h, w, 4, 4); });
  EXPECT_TRUE(has(e, "Negative tab width [m]")) << e;
  EXPECT_TRUE(has(e, "reaches beyond the top edge")) << e;
  e = message_of([&] { tab_coverage(parameter_sets::chen2020().positive_current_collector, "Positive", h, w, 4, 4); });
  EXPECT_TRUE(has(e, "Positive tab width [m]")) << e;
  EXPECT_TRUE(has(e, "is unset")) << e;
}

TEST(CollectorErrors, TheCellIsCheckedBeforeAnythingRuns) {
  auto e = message_of([] { Simulation(parameter_sets::chen2020(), pouch(2, 2), CpuExecutor::create()); });
  EXPECT_TRUE(has(e, "Negative tab width [m]") && has(e, "is unset")) << e;
  ParameterSet p = parameter_sets::marquis2019();
  p.cell.electrodes_in_parallel = 2;
  e = message_of([&] { Simulation(p, pouch(2, 2), CpuExecutor::create()); });
  EXPECT_TRUE(has(e, "Number of electrodes connected in parallel to make a cell")) << e;
  p = parameter_sets::marquis2019();
  p.positive_current_collector.thickness = 0.0;
  e = message_of([&] { Simulation(p, pouch(2, 2), CpuExecutor::create()); });
  EXPECT_TRUE(has(e, "Positive current collector thickness [m]")) << e;
}

// One column: the foils add the negative tab's half-cell resistance and the
// positive one's to the cell's, and nothing else changes (the single column
// carries all the current either way). V = V_stack - I (1/D_n + 1/D_p),
// D = 2 k w len / h the tab face's conductance.
TEST(Collectors, OneColumnAddsTheTabResistanceExactly) {
  const ParameterSet p = parameter_sets::marquis2019();
  const Experiment discharge({"Discharge at 1C for 20 minutes"});
  Simulation stack(p, pouch(1, 1, CurrentCollectorModel::uniform), CpuExecutor::create());
  Simulation foils(p, pouch(1, 1), CpuExecutor::create());
  const Solution a = stack.run(discharge), b = foils.run(discharge);
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(b.completed) << b.termination;
  const double h = p.cell.electrode_height, w = p.cell.electrode_width;
  auto d = [&](const CurrentCollectorParameters& c) { return 2.0 * c.conductivity * c.thickness * c.tab_width / h; };
  const double r = 1.0 / d(p.negative_current_collector) + 1.0 / d(p.positive_current_collector);
  (void)w;
  ASSERT_EQ(a.rows(), b.rows());
  for (std::size_t i = 0; i < a.rows(); ++i) {
    const double current = a["Current [A]"][i];
    EXPECT_NEAR(b["Voltage [V]"][i], a["Voltage [V]"][i] - current * r, 1e-8) << "row " << i;
  }
}

// Perfect foils (conductivity 1e12 S/m: the foils' own drop is below 1e-8 V)
// with tabs along a whole edge: every column sees the same potentials, as in
// the stack without collectors, on a cell whose columns are alike.
TEST(Collectors, PerfectFoilsAreTheStackWithoutCollectors) {
  ParameterSet p = parameter_sets::marquis2019();
  for (CurrentCollectorParameters* c : {&p.negative_current_collector, &p.positive_current_collector}) {
    c->conductivity = 1e12;
    c->tab_width = p.cell.electrode_width;
    c->tab_centre_y = p.cell.electrode_width / 2;
    c->tab_centre_z = p.cell.electrode_height;
  }
  const Experiment discharge({"Discharge at 1C until 3.2 V"});
  Simulation stack(p, pouch(3, 4, CurrentCollectorModel::uniform), CpuExecutor::create());
  Simulation foils(p, pouch(3, 4), CpuExecutor::create());
  const Solution a = stack.run(discharge), b = foils.run(discharge);
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(b.completed) << b.termination;
  ASSERT_EQ(a.rows(), b.rows());
  for (std::size_t i = 0; i < a.rows(); ++i) {
    // The last row is the located cut-off crossing: its time is found to the
    // event tolerance, so a 1e-7 V difference moves it by microseconds.
    EXPECT_NEAR(a["Time [s]"][i], b["Time [s]"][i], i + 1 < a.rows() ? 1e-6 : 1e-3);
    EXPECT_NEAR(a["Voltage [V]"][i], b["Voltage [V]"][i], 1e-6) << "row " << i;
  }
}

// Real foils on a pouch: the current crowds towards the tabs, the terminal
// voltage falls below the stack's by about the foils' resistance, and the
// cell's charge balance holds (the reaction current is the tab current).
TEST(Collectors, TabsMakeTheVoltageDropAndConserveCharge) {
  const ParameterSet p = parameter_sets::marquis2019();
  const Experiment discharge({"Discharge at 1C for 10 minutes"});
  Simulation stack(p, pouch(4, 6, CurrentCollectorModel::uniform), CpuExecutor::create());
  Simulation foils(p, pouch(4, 6), CpuExecutor::create());
  const Solution a = stack.run(discharge), b = foils.run(discharge);
  ASSERT_TRUE(b.completed) << b.termination;
  const double drop = a["Voltage [V]"].back() - b["Voltage [V]"].back();
  EXPECT_GT(drop, 1e-4);
  EXPECT_LT(drop, 0.05);
  EXPECT_NEAR(foils.lithium_inventory(), stack.lithium_inventory(), 1e-6 * stack.lithium_inventory());
}

// Every kind of step drives the tabs: a voltage hold holds the positive tab,
// a power step draws its power through it, a rest carries no current.
TEST(Collectors, EveryDriveModeActsOnTheTabs) {
  Simulation sim(parameter_sets::marquis2019(), pouch(3, 4), CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 1C for 10 minutes", "Hold at 3.68 V for 2 minutes",
                                         "Discharge at 2 W for 1 minute", "Rest for 1 minute"}));
  ASSERT_TRUE(s.completed) << s.termination;
  bool held = false, powered = false;
  for (std::size_t i = 0; i < s.rows(); ++i) {
    const double v = s["Voltage [V]"][i], current = s["Current [A]"][i];
    switch (static_cast<int>(s["Step"][i])) {
      case 1:
        EXPECT_NEAR(v, 3.68, 1e-12);
        EXPECT_GT(current, 0.0);
        held = true;
        break;
      case 2:
        EXPECT_NEAR(v * current, 2.0, 1e-8);
        powered = true;
        break;
      case 3: EXPECT_EQ(current, 0.0); break;
      default: break;
    }
  }
  EXPECT_TRUE(held && powered);
}

}  // namespace
}  // namespace voltaic
