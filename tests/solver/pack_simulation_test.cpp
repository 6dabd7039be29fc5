// Packs of cell-engine cells (pack.hpp): the limits a circuit must keep
// (identical cells in parallel are one cell at their share of the current,
// cells in series add their voltages), Kirchhoff's laws at every row for
// unlike cells, the pack's power and voltage drives, and bad descriptions
// refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "pack_test_support.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/pack.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

using test::cell_options;

PackSolution run_pack(const PackLayout& l, const Experiment& e, const CellParameters& cells = {}) {
  PackOptions o;
  o.cell = cell_options();
  return PackSimulation(parameter_sets::chen2020(), cells, l, o, CpuExecutor::create()).run(e);
}

Solution run_cell(const Experiment& e) {
  return Simulation(parameter_sets::chen2020(), cell_options(), CpuExecutor::create()).run(e);
}

// Three identical cells in parallel (no resistance) carry a third of the
// pack's current each, and the pack is the lone cell at that current: the
// same steps, the same voltages to 1e-8 V.
TEST(PackSimulation, IdenticalParallelCellsAreOneCellAtTheirShare) {
  PackLayout l;
  l.parallel = 3;
  const PackSolution pack = run_pack(l, Experiment({"Discharge at 15 A until 3.0 V", "Rest for 10 minutes"}));
  const Solution cell = run_cell(Experiment({"Discharge at 5 A until 3.0 V", "Rest for 10 minutes"}));
  ASSERT_TRUE(pack.completed) << pack.termination;
  ASSERT_EQ(pack.time.size(), cell.rows());
  for (std::size_t r = 0; r < cell.rows(); ++r) {
    SCOPED_TRACE("row " + std::to_string(r));
    EXPECT_NEAR(pack.time[r], cell["Time [s]"][r], 1e-9 * (1.0 + cell["Time [s]"][r]));
    EXPECT_NEAR(pack.voltage[r], cell["Voltage [V]"][r], 1e-8);
    for (std::size_t k = 0; k < 3; ++k)
      EXPECT_NEAR(pack.cell_value(pack.cell_current, r, k), cell["Current [A]"][r], 1e-12);
  }
  EXPECT_EQ(pack.steps_taken, cell.steps_taken);
}

// Three identical cells in series: three times the lone cell's voltage.
TEST(PackSimulation, SeriesCellsAddTheirVoltages) {
  PackLayout l;
  l.series = 3;
  const PackSolution pack = run_pack(l, Experiment({"Discharge at 5 A until 9.6 V"}));
  const Solution cell = run_cell(Experiment({"Discharge at 5 A until 3.2 V"}));
  ASSERT_TRUE(pack.completed) << pack.termination;
  ASSERT_EQ(pack.time.size(), cell.rows());
  for (std::size_t r = 0; r < cell.rows(); ++r) {
    SCOPED_TRACE("row " + std::to_string(r));
    EXPECT_NEAR(pack.voltage[r], 3.0 * cell["Voltage [V]"][r], 3e-8);
    EXPECT_NEAR(pack.time[r], cell["Time [s]"][r], 1e-6);
  }
  EXPECT_NEAR(pack.voltage.back(), 9.6, 1e-9);
}

using test::unlike_cells;

/// At every row: each group's currents add up to the pack's, its cells
/// share one busbar voltage through their resistances, and the groups'
/// voltages less the busbars' drop are the pack's.
void expect_kirchhoff(const PackSolution& p, const PackLayout& l, const std::vector<double>& r) {
  const auto m = static_cast<std::size_t>(l.parallel);
  for (std::size_t row = 0; row < p.time.size(); ++row) {
    SCOPED_TRACE("row " + std::to_string(row) + ", t = " + std::to_string(p.time[row]) + " s");
    double pack_voltage = -l.busbar_resistance * p.current[row];
    for (std::size_t g = 0; g < static_cast<std::size_t>(l.series); ++g) {
      double sum = 0.0, u0 = 0.0;
      for (std::size_t q = 0; q < m; ++q) {
        const std::size_t k = g * m + q;
        const double i = p.cell_value(p.cell_current, row, k), u = p.cell_value(p.cell_voltage, row, k) - r[k] * i;
        sum += i;
        if (q == 0) u0 = u;
        // Each within a hundredth of the voltage tolerance of the group's voltage, so two within twice that.
        EXPECT_NEAR(u, u0, 0.02 * (1e-4 * u0 + 1e-6)) << "cell " << k;
      }
      EXPECT_NEAR(sum, p.current[row], 1e-10 * (1.0 + std::fabs(p.current[row])));
      pack_voltage += u0;
    }
    EXPECT_NEAR(pack_voltage, p.voltage[row], 0.02 * l.series * (1e-4 * p.voltage[row] + 1e-6));
  }
}

// A 3p2s pack of unlike cells through a discharge, a rest and a charge:
// Kirchhoff's laws hold at every row, the cells share the current unevenly
// and, at rest, currents circulate in each group (summing to zero).
TEST(PackSimulation, UnlikeCellsKeepKirchhoffsLaws) {
  PackLayout l;
  l.parallel = 3;
  l.series = 2;
  l.connection_resistances = {1e-3, 2e-3, 1.5e-3, 1e-3, 3e-3, 0.5e-3};
  l.busbar_resistance = 2e-3;
  const PackSolution p =
      run_pack(l, Experiment({"Discharge at 1C until 6.4 V", "Rest for 10 minutes", "Charge at 0.5C until 8.1 V"}),
               unlike_cells(6));
  ASSERT_TRUE(p.completed) << p.termination;
  expect_kirchhoff(p, l, l.connection_resistances);
  double spread = 0.0, circulating = 0.0;
  for (std::size_t row = 0; row < p.time.size(); ++row) {
    for (std::size_t k = 0; k < 6; ++k) {
      const double i = p.cell_value(p.cell_current, row, k);
      if (p.current[row] > 0.0) spread = std::max(spread, std::fabs(i - p.current[row] / 3.0));
      if (p.current[row] == 0.0) circulating = std::max(circulating, std::fabs(i));
    }
  }
  EXPECT_GT(spread, 0.05);       // [A]: unlike cells share a 15 A discharge unevenly
  EXPECT_GT(circulating, 1e-3);  // [A]: and balance at rest
}

// The pack's power and voltage drives: I V = P, and the hold keeps the
// pack's voltage, until the pack's current falls to its limit.
TEST(PackSimulation, PowerAndVoltageDrivesAreThePacks) {
  PackLayout l;
  l.parallel = 2;
  l.series = 2;
  l.connection_resistance = 1e-3;
  const PackSolution p =
      run_pack(l, Experiment({"Discharge at 60 W until 6.8 V", "Charge at 1C until 8.2 V", "Hold at 8.2 V until C/5"}),
               unlike_cells(4));
  ASSERT_TRUE(p.completed) << p.termination;
  expect_kirchhoff(p, l, std::vector<double>(4, 1e-3));
  std::size_t held = 0;
  for (std::size_t row = 0; row < p.time.size(); ++row) {
    if (p.current[row] > 0.0) {
      EXPECT_NEAR(p.current[row] * p.voltage[row], 60.0, 60.0 * 2e-6) << "row " << row;
    }
    if (p.current[row] < -1.0 && std::fabs(p.voltage[row] - 8.2) < 1e-3) ++held;
  }
  EXPECT_GT(held, 5u);
  EXPECT_NEAR(p.voltage.back(), 8.2, 1e-5);
  EXPECT_NEAR(-p.current.back(), 0.2 * 10.0, 1e-3);  // C/5 of the pack's 10 A h, located
}

void expect_refused(const PackLayout& l, const CellParameters& cells, const std::string& words) {
  PackOptions o;
  o.cell = cell_options();
  try {
    PackSimulation(parameter_sets::chen2020(), cells, l, o, CpuExecutor::create());
    ADD_FAILURE() << "accepted; expected an error naming " << words;
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

// A record period keeps rows at least that far apart (and each step's first
// and last): the same steps, and every row kept is the full run's, bitwise.
TEST(PackSimulation, ARecordPeriodKeepsSomeOfTheFullRunsRows) {
  PackLayout l;
  l.parallel = 2;
  l.series = 2;
  l.connection_resistance = 1e-3;
  PackOptions o;
  o.cell = cell_options();
  const Experiment e({"Discharge at 1C for 20 minutes", "Rest for 10 minutes"});
  const PackSolution all =
      PackSimulation(parameter_sets::chen2020(), unlike_cells(4), l, o, CpuExecutor::create()).run(e);
  o.record_period = 120.0;
  const PackSolution some =
      PackSimulation(parameter_sets::chen2020(), unlike_cells(4), l, o, CpuExecutor::create()).run(e);
  ASSERT_TRUE(all.completed && some.completed) << all.termination << some.termination;
  EXPECT_EQ(some.steps_taken, all.steps_taken);
  EXPECT_EQ(some.circuit_iterations, all.circuit_iterations);
  ASSERT_LT(some.time.size(), all.time.size() / 4);
  EXPECT_EQ(some.time.back(), all.time.back());
  std::size_t r = 0, starts = 0;
  for (std::size_t q = 0; q < some.time.size(); ++q) {
    while (r < all.time.size() && !(all.time[r] == some.time[q] && all.current[r] == some.current[q])) ++r;
    ASSERT_LT(r, all.time.size()) << "row " << q << " (t = " << some.time[q] << " s) is not the full run's";
    EXPECT_EQ(some.voltage[q], all.voltage[r]);
    for (std::size_t k = 0; k < 4; ++k)
      EXPECT_EQ(some.cell_value(some.cell_temperature, q, k), all.cell_value(all.cell_temperature, r, k));
    const bool start = q == 0 || some.time[q] == some.time[q - 1];
    starts += start;
    const bool last_of_step = q + 1 == some.time.size() || some.time[q + 1] == some.time[q];
    if (!start && !last_of_step) {
      EXPECT_GE(some.time[q] - some.time[q - 1], 120.0) << "row " << q;
    }
  }
  EXPECT_EQ(starts, 2u);  // each step's first row (the rest's at the discharge's last time)
}

TEST(PackSimulation, BadDescriptionsAreRefusedByName) {
  PackLayout l;
  l.parallel = 0;
  expect_refused(l, {}, "parallel: is 0");
  l = PackLayout{};
  l.series = -2;
  expect_refused(l, {}, "series: is -2");
  l = PackLayout{};
  l.busbar_resistance = -1e-3;
  expect_refused(l, {}, "busbar_resistance: is -0.001");
  l = PackLayout{};
  l.connection_resistance = NAN;
  expect_refused(l, {}, "connection_resistance: is nan");
  l = PackLayout{};
  l.parallel = 2;
  l.connection_resistances = {1e-3};
  expect_refused(l, {}, "connection_resistances: has 1 values");
  l = PackLayout{};
  l.parallel = 2;
  expect_refused(l, unlike_cells(3), "the cell table has 3 rows");
  PackOptions o;
  o.cell = cell_options();
  o.record_period = -1.0;
  try {
    PackSimulation(parameter_sets::chen2020(), {}, l, o, CpuExecutor::create());
    ADD_FAILURE() << "a negative record period accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("record_period: is -1 s"), std::string::npos) << e.what();
  }
  CellParameters bad{{"Negative electrode thickness [m]"}, {85e-6, -1.0}};
  expect_refused(l, bad, "cell 1 (series 0, parallel 1)");
  // A lone cell's protocol factor has no meaning in a pack (its C-rates are the pack's).
  expect_refused(l, CellParameters{{"Charge C-rate factor"}, {1.0, 2.0}}, "allowed: 1 (a pack's C-rates");
}

/// A 2p2s pack of unlike cells with no convection of their own, so that
/// only the network moves heat.
struct ThermalPack {
  PackLayout layout;
  PackOptions options;
  ParameterSet cell = parameter_sets::chen2020();
  ThermalPack() {
    layout.parallel = 2;
    layout.series = 2;
    options.cell = cell_options();
    cell.thermal.heat_transfer_coefficient = 0.0;
  }
  PackSolution run(const Experiment& e, std::vector<double>* capacities = nullptr) const {
    PackSimulation p(cell, unlike_cells(4), layout, options, CpuExecutor::create());
    if (capacities) *capacities = p.heat_capacities();
    return p.run(e);
  }
};

/// The trapezoidal integral of `rate(row)` over the rows.
template <class Rate>
double integral(const PackSolution& p, const Rate& rate) {
  double sum = 0.0;
  for (std::size_t r = 1; r < p.time.size(); ++r) sum += 0.5 * (rate(r - 1) + rate(r)) * (p.time[r] - p.time[r - 1]);
  return sum;
}

// The network's energy balance: what the cells store is what they generate
// less what the flowing coolant carries away (its capacity rate times its
// warming), to the time discretisation's accuracy; links between the cells
// only move heat among them.
TEST(PackSimulation, ThermalNetworkKeepsTheEnergyBalance) {
  ThermalPack t;
  t.options.thermal.neighbour_conductance = 0.5;
  t.options.thermal.coolant = PackThermal::Coolant::flow;
  t.options.thermal.coolant_conductance = 1.0;
  t.options.thermal.coolant_temperature = 293.15;
  t.options.thermal.coolant_capacity_rate = 2.0;
  std::vector<double> c;
  const PackSolution p = t.run(Experiment({"Discharge at 1C until 6.4 V"}), &c);
  ASSERT_TRUE(p.completed) << p.termination;
  ASSERT_EQ(p.coolant_outlet.size(), p.time.size());
  const std::size_t last = p.time.size() - 1;
  double stored = 0.0;
  for (std::size_t k = 0; k < 4; ++k)
    stored += c[k] * (p.cell_value(p.cell_temperature, last, k) - p.cell_value(p.cell_temperature, 0, k));
  const double generated = integral(p, [&](std::size_t r) {
    double q = 0.0;
    for (std::size_t k = 0; k < 4; ++k) q += p.cell_value(p.cell_heat, r, k);
    return q;
  });
  const double carried = integral(p, [&](std::size_t r) { return 2.0 * (p.coolant_outlet[r] - 293.15); });
  EXPECT_GT(carried, 0.2 * generated);  // the coolant matters
  EXPECT_NEAR(stored, generated - carried, 2e-3 * generated);
  EXPECT_GT(p.coolant_outlet.back(), 293.15);
}

// A plate holding the cells strongly ends them near its temperature; links
// between unlike cells narrow their temperature spread.
TEST(PackSimulation, PlateAndLinksShapeTheTemperatures) {
  ThermalPack t;
  t.options.thermal.coolant = PackThermal::Coolant::plate;
  t.options.thermal.coolant_conductance = 50.0;
  t.options.thermal.coolant_temperature = 288.15;
  const PackSolution plate = t.run(Experiment({"Discharge at 1C for 20 minutes"}));
  ASSERT_TRUE(plate.completed) << plate.termination;
  for (std::size_t k = 0; k < 4; ++k)
    EXPECT_NEAR(plate.cell_value(plate.cell_temperature, plate.time.size() - 1, k), 288.15, 0.2) << "cell " << k;
  const auto spread = [](const PackSolution& p) {
    const std::size_t r = p.time.size() - 1;
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t k = 0; k < 4; ++k) {
      lo = std::min(lo, p.cell_value(p.cell_temperature, r, k));
      hi = std::max(hi, p.cell_value(p.cell_temperature, r, k));
    }
    return hi - lo;
  };
  ThermalPack apart, linked;
  linked.options.thermal.neighbour_conductance = 2.0;
  const PackSolution a = apart.run(Experiment({"Discharge at 2C for 15 minutes"}));
  const PackSolution b = linked.run(Experiment({"Discharge at 2C for 15 minutes"}));
  ASSERT_TRUE(a.completed && b.completed) << a.termination << b.termination;
  EXPECT_GT(spread(a), 0.05);  // [K]: unlike cells heat unlike
  EXPECT_LT(spread(b), 0.5 * spread(a));
}

TEST(PackSimulation, BadThermalNetworksAreRefusedByName) {
  const auto refused = [](const PackThermal& th, ThermalModel model, const std::string& words) {
    PackLayout l;
    l.parallel = 2;
    PackOptions o;
    o.cell = cell_options();
    o.cell.thermal = model;
    o.thermal = th;
    try {
      PackSimulation(parameter_sets::chen2020(), {}, l, o, CpuExecutor::create());
      ADD_FAILURE() << "accepted; expected an error naming " << words;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  PackThermal th;
  th.links = {{0, 0, 1.0}};
  refused(th, ThermalModel::lumped, "thermal.links[0]: joins cells 0 and 0");
  th.links = {{0, 2, 1.0}};
  refused(th, ThermalModel::lumped, "allowed: two different cells in [0, 2)");
  th.links = {{0, 1, 1.0}, {1, 0, 2.0}};
  refused(th, ThermalModel::lumped, "thermal.links[1]: joins cells 1 and 0 again");
  th = PackThermal{};
  th.neighbour_conductance = -1.0;
  refused(th, ThermalModel::lumped, "thermal.neighbour_conductance: is -1 W/K");
  th = PackThermal{};
  th.coolant = PackThermal::Coolant::flow;
  th.coolant_conductance = 1.0;
  refused(th, ThermalModel::lumped, "thermal.coolant_capacity_rate: is 0 W/K");
  th.coolant = PackThermal::Coolant::plate;
  refused(th, ThermalModel::isothermal, "but they are isothermal");
}

// "until any cell reaches <x> V": the first cell of an unlike pack to get
// there ends the step, located on its voltage; the pack's own "until" the
// pack's voltage. A lone cell is the only cell of its pack.
TEST(PackSimulation, UntilAnyCellReachesEndsOnTheFirstCell) {
  PackLayout l;
  l.parallel = 2;
  l.series = 2;
  l.connection_resistance = 1e-3;
  const PackSolution p = run_pack(l, Experiment({"Discharge at 1C until any cell reaches 3.5 V"}), unlike_cells(4));
  ASSERT_TRUE(p.completed) << p.termination;
  const std::size_t last = p.time.size() - 1;
  double lowest = INFINITY;
  for (std::size_t k = 0; k < 4; ++k) {
    lowest = std::min(lowest, p.cell_value(p.cell_voltage, last, k));
    for (std::size_t r = 0; r < last; ++r) EXPECT_GT(p.cell_value(p.cell_voltage, r, k), 3.5);
  }
  // Located to the circuit's own accuracy (a hundredth of the voltage
  // tolerance: the cells' voltages as functions of the step are that noisy).
  EXPECT_NEAR(lowest, 3.5, 0.01 * (1e-4 * 3.5 + 1e-6));
  EXPECT_GT(p.voltage[last], 7.0 + 1e-3);  // the pack's voltage is above twice the cells' limit
  const Solution alone = run_cell(Experiment({"Discharge at 1C until any cell reaches 3.5 V"}));
  EXPECT_NEAR(alone["Voltage [V]"].back(), 3.5, 1e-9);
}

// A stop asked for ends the run after the present step, its rows kept.
TEST(PackSimulation, AStopEndsTheRunAndKeepsItsRows) {
  PackLayout l;
  l.parallel = 2;
  PackOptions o;
  o.cell = cell_options();
  int asked = 0;
  const PackSolution p = PackSimulation(parameter_sets::chen2020(), {}, l, o, CpuExecutor::create())
                             .run(Experiment({"Discharge at 1C until 3.0 V"}),
                                  [&] { return ++asked == 5 ? std::string("interrupted by SIGINT") : std::string(); });
  EXPECT_FALSE(p.completed);
  EXPECT_TRUE(p.interrupted);
  EXPECT_EQ(p.steps_taken, 5);
  EXPECT_EQ(p.time.size(), 6u);  // the start's row and five steps'
  EXPECT_NE(p.termination.find("was interrupted at t = "), std::string::npos) << p.termination;
  EXPECT_NE(p.termination.find("interrupted by SIGINT"), std::string::npos) << p.termination;
}

}  // namespace
}  // namespace voltaic
