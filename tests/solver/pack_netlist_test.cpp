// Packs wired by a netlist (pack.hpp, NetlistElement): an Np x Ns pack
// written as a netlist is the grid's pack, Kirchhoff's laws hold at every
// node of a layout no grid has, and bad wirings are refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "pack_test_support.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/pack.hpp"

namespace voltaic {
namespace {

using test::cell_options;
using test::unlike_cells;

PackSolution run_pack(const PackLayout& l, const Experiment& e, const CellParameters& cells, double* capacity = nullptr,
                      double* lower = nullptr) {
  PackOptions o;
  o.cell = cell_options();
  PackSimulation p(parameter_sets::chen2020(), cells, l, o, CpuExecutor::create());
  if (capacity) *capacity = p.nominal_capacity();
  if (lower) *lower = p.lower_voltage_cutoff();
  return p.run(e);
}

/// The grid `g` as liionpack would write it: junction node s + 1 above group
/// s (0: the negative terminal), each cell from its own node up through its
/// connection resistor (or straight to the junction, r = 0), a busbar to the
/// positive terminal, the terminals last.
std::vector<NetlistElement> netlist_of(const PackLayout& g) {
  std::vector<NetlistElement> n;
  const auto np = static_cast<std::size_t>(g.parallel), ns = static_cast<std::size_t>(g.series);
  long long next = static_cast<long long>(ns) + 1;
  for (std::size_t k = 0; k < np * ns; ++k) {
    const auto below = static_cast<long long>(k / np), above = below + 1;
    const double r = g.connection_resistances.empty() ? g.connection_resistance : g.connection_resistances[k];
    const long long plus = r > 0.0 ? next++ : above;
    n.push_back({"V" + std::to_string(k), plus, below, 0.0, 0});
    if (r > 0.0) n.push_back({"Rc" + std::to_string(k), plus, above, r, 0});
  }
  const long long top = static_cast<long long>(ns), terminal = g.busbar_resistance > 0.0 ? next++ : top;
  if (g.busbar_resistance > 0.0) n.push_back({"Rb0", top, terminal, g.busbar_resistance, 0});
  n.push_back({"I0", terminal, 0, 0.0, 0});
  return n;
}

// A 3p2s pack of unlike cells with connection and busbar resistances, as a
// grid and as its netlist: the same capacity and limits, the same steps, the
// same currents and voltages to the circuit's tolerance (the two solve the
// same equations by other Newton iterates).
TEST(PackNetlist, AGridWrittenAsANetlistIsTheGridsPack) {
  PackLayout grid;
  grid.parallel = 3;
  grid.series = 2;
  grid.connection_resistances = {1e-3, 2e-3, 1.5e-3, 1e-3, 3e-3, 0.5e-3};
  grid.busbar_resistance = 2e-3;
  PackLayout net;
  net.netlist = netlist_of(grid);
  ASSERT_EQ(net.cells(), 6u);
  const Experiment e({"Discharge at 1C until 6.4 V", "Rest for 10 minutes", "Charge at 0.5C until 8.1 V"});
  double cap_g = 0, cap_n = 0, low_g = 0, low_n = 0;
  const PackSolution a = run_pack(grid, e, unlike_cells(6), &cap_g, &low_g);
  const PackSolution b = run_pack(net, e, unlike_cells(6), &cap_n, &low_n);
  EXPECT_NEAR(cap_n, cap_g, 1e-12 * cap_g);
  EXPECT_NEAR(low_n, low_g, 1e-12 * low_g);
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(b.completed) << b.termination;
  // Both solve the circuit to a hundredth of the voltage tolerance by other
  // iterates, so their steps may part by a step: the experiment's steps end
  // at the same times, and between rows the voltages agree.
  for (const double sign : {0.0, -1.0}) {  // the rest's start (current 0), the charge's (< 0)
    SCOPED_TRACE(sign);
    const auto start = [&](const PackSolution& p) {
      for (std::size_t r = 0; r < p.time.size(); ++r)
        if (sign == 0.0 ? p.current[r] == 0.0 : p.current[r] < 0.0) return p.time[r];
      return -1.0;
    };
    EXPECT_NEAR(start(b), start(a), 1e-2);
  }
  EXPECT_NEAR(b.time.back(), a.time.back(), 1e-2);
  EXPECT_NEAR(b.voltage.back(), a.voltage.back(), 1e-6);
  double worst = 0.0, worst_current = 0.0;
  for (std::size_t r = 1, q = 1; r + 1 < a.time.size(); ++r) {
    while (q + 1 < b.time.size() && b.time[q] < a.time[r]) ++q;
    const double t0 = b.time[q - 1], t1 = b.time[q];
    if (!(t1 > t0) || b.current[q - 1] != b.current[q] || a.current[r] != b.current[q]) continue;  // one drive only
    const double w = (a.time[r] - t0) / (t1 - t0);
    worst = std::max(worst, std::fabs((1 - w) * b.voltage[q - 1] + w * b.voltage[q] - a.voltage[r]));
    for (std::size_t k = 0; k < 6; ++k) {
      const double i = (1 - w) * b.cell_value(b.cell_current, q - 1, k) + w * b.cell_value(b.cell_current, q, k);
      worst_current = std::max(worst_current, std::fabs(i - a.cell_value(a.cell_current, r, k)));
    }
  }
  EXPECT_LT(worst, 1e-4);          // [V], mostly the interpolation's
  EXPECT_LT(worst_current, 5e-3);  // [A] of 2.5 to 5 A, where the currents redistribute fast
  std::printf("grid and netlist: %zu and %zu rows, %.3g V and %.3g A apart at most\n", a.time.size(), b.time.size(),
              worst, worst_current);
  // The grid's nodes are its groups, the netlist's its junctions: group s
  // spans junctions s and s + 1.
  ASSERT_EQ(a.node_names, (std::vector<std::string>{"group 0", "group 1"}));
  ASSERT_EQ(b.node_names.size(), 3u + 6u + 1u);  // junctions, the cells' own nodes, the terminal
  EXPECT_EQ(b.node_names[0], "N0");
  const std::size_t last_a = a.time.size() - 1, last_b = b.time.size() - 1;
  for (std::size_t s = 0; s < 2; ++s) {
    const double across = b.node_voltage[last_b * 10 + s + 1] - b.node_voltage[last_b * 10 + s];
    EXPECT_NEAR(across, a.node_voltage[last_a * 2 + s], 2e-5);
  }
}

/// Kirchhoff's laws at every row and node of netlist `n`: the currents into
/// each node (cells at their positive terminal, resistors by Ohm's law from
/// the node voltages, the pack's current) sum to zero, and each cell's
/// voltage is its terminals' difference.
void expect_kirchhoff(const PackSolution& p, const std::vector<NetlistElement>& n) {
  std::map<long long, std::size_t> column;
  for (std::size_t j = 0; j < p.node_names.size(); ++j) column[std::stoll(p.node_names[j].substr(1))] = j;
  const std::size_t nodes = p.node_names.size();
  for (std::size_t r = 0; r < p.time.size(); ++r) {
    const auto u = [&](long long node) { return p.node_voltage[r * nodes + column.at(node)]; };
    std::map<long long, double> into;
    std::size_t k = 0;
    for (const NetlistElement& e : n) {
      double i = 0.0;
      if (e.name[0] == 'V') {
        i = p.cell_value(p.cell_current, r, k);
        const double v = p.cell_value(p.cell_voltage, r, k++);  // to a hundredth of the voltage tolerance
        EXPECT_NEAR(u(e.node1) - u(e.node2), v, 0.01 * (1e-4 * v + 1e-6)) << e.name << " row " << r;
      }
      if (e.name[0] == 'R') i = (u(e.node2) - u(e.node1)) / e.value;  // into node1
      if (e.name[0] == 'I') i = -p.current[r];                        // the load draws the pack's current
      into[e.node1] += i;
      into[e.node2] -= i;
    }
    for (const auto& [node, sum] : into)
      EXPECT_NEAR(sum, 0.0, 1e-8 * (1.0 + std::fabs(p.current[r]))) << "node " << node << " row " << r;
    EXPECT_NEAR(p.voltage[r], u(n.back().node1) - u(n.back().node2), 0.02 * (1e-4 * p.voltage[r] + 1e-6));
  }
}

// Two strings of two unlike cells, their midpoints joined by an
// interconnection and each string with its own tab resistances: a layout
// no Np x Ns grid has. Kirchhoff's laws hold at every node and row, the
// interconnection carries current, and the pack's capacity is its strings'.
TEST(PackNetlist, AnInterconnectedLayoutKeepsKirchhoffsLaws) {
  PackLayout l;
  l.netlist = {{"V0", 2, 1, 0, 1},     {"V1", 4, 3, 0, 2},      {"Rt0", 2, 5, 2e-3, 3}, {"Rt1", 4, 5, 1e-3, 4},
               {"Rs0", 1, 6, 1e-3, 5}, {"V2", 6, 0, 0, 6},      {"Rs1", 3, 7, 2e-3, 7}, {"V3", 7, 0, 0, 8},
               {"Rx0", 1, 3, 5e-3, 9}, {"Rb0", 5, 8, 1e-3, 10}, {"I0", 8, 0, 0.0, 11}};
  double capacity = 0.0;
  const PackSolution p =
      run_pack(l, Experiment({"Discharge at 1C for 10 minutes", "Rest for 5 minutes"}), unlike_cells(4), &capacity);
  ASSERT_TRUE(p.completed) << p.termination;
  EXPECT_EQ(p.node_names, (std::vector<std::string>{"N0", "N1", "N2", "N3", "N4", "N5", "N6", "N7", "N8"}));
  expect_kirchhoff(p, l.netlist);
  double bridge = 0.0;
  for (std::size_t r = 0; r < p.time.size(); ++r)
    bridge = std::max(bridge, std::fabs(p.node_voltage[r * 9 + 1] - p.node_voltage[r * 9 + 3]) / 5e-3);
  EXPECT_GT(bridge, 1e-3);  // [A]: unlike cells drive current through the interconnection
  // Two strings of two cells: the capacity is the two strings' (each its weaker cell's), the limits two cells'.
  EXPECT_GT(capacity, 8.0);
  EXPECT_LT(capacity, 12.0);
}

void expect_refused(const std::vector<NetlistElement>& n, const std::string& words) {
  SCOPED_TRACE(words);
  PackLayout l;
  l.netlist = n;
  PackOptions o;
  o.cell = cell_options();
  try {
    PackSimulation(parameter_sets::chen2020(), CellParameters{}, l, o, CpuExecutor::create());
    ADD_FAILURE() << "accepted; expected an error naming " << words;
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(PackNetlist, BadWiringsAreRefusedByName) {
  const std::vector<NetlistElement> good = {{"V0", 1, 0, 0, 1}, {"Rc0", 1, 2, 1e-3, 2}, {"I0", 2, 0, 0, 3}};
  auto with = [&](std::size_t i, NetlistElement e) {
    std::vector<NetlistElement> n = good;
    n[i] = e;
    return n;
  };
  expect_refused(with(1, {"Rc0", 1, 2, 0.0, 2}), "netlist element Rc0 (line 2): is 0 Ohm; allowed: a finite");
  expect_refused(with(1, {"Rc0", 1, 2, -1e-3, 2}), "netlist element Rc0 (line 2): is -0.001 Ohm");
  expect_refused(with(1, {"Rc0", 1, 1, 1e-3, 2}), "Rc0 (line 2): joins node N1 to itself");
  expect_refused(with(1, {"Xc0", 1, 2, 1e-3, 2}), "Xc0 (line 2): is no kind of element voltaic knows");
  expect_refused(with(0, {"V0", 1, -3, 0, 1}), "V0 (line 1): joins node -3; allowed: node numbers >= 0");
  expect_refused(with(2, {"V9", 2, 0, 0, 3}), "netlist: has no terminals");
  expect_refused({{"R0", 1, 0, 1.0, 1}, {"I0", 1, 0, 0, 2}}, "netlist: has no cells");
  std::vector<NetlistElement> two = good;
  two.push_back({"I1", 2, 0, 0, 4});
  expect_refused(two, "I1 (line 4): is a second pair of terminals");
  std::vector<NetlistElement> open = good;
  open.push_back({"Rx", 2, 7, 1e-3, 4});
  expect_refused(open, "netlist node N7: joins only netlist element Rx (line 4): an open end");
  std::vector<NetlistElement> floating = good;  // a loop of its own, joined to nothing
  floating.push_back({"V1", 8, 9, 0, 4});
  floating.push_back({"R9", 9, 8, 1e-3, 5});
  expect_refused(floating, "netlist node N8: is floating: no path of elements joins it to the negative terminal N0");
  expect_refused({{"V0", 1, 0, 0, 1}, {"Rc0", 1, 2, 1e-3, 2}, {"Rs", 2, 0, 1e-3, 3}, {"I0", 2, 0, 0, 4}},
                 "through resistors alone");
  expect_refused(
      {{"V0", 1, 2, 0, 1}, {"Ri0", 1, 2, 1e-2, 2}, {"R1", 2, 0, 1.0, 3}, {"R2", 1, 0, 1.0, 4}, {"I0", 1, 2, 0, 5}},
      "through Ri elements alone");
  PackLayout both;
  both.netlist = good;
  both.parallel = 2;
  PackOptions o;
  o.cell = cell_options();
  EXPECT_THROW(PackSimulation(parameter_sets::chen2020(), CellParameters{}, both, o, CpuExecutor::create()),
               InvalidArgument);
  PackLayout l;
  l.netlist = good;
  o.cell.thermal = ThermalModel::lumped;
  o.thermal.neighbour_conductance = 1.0;
  try {
    PackSimulation(parameter_sets::chen2020(), CellParameters{}, l, o, CpuExecutor::create());
    ADD_FAILURE() << "a netlist's neighbour grid accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("thermal.neighbour_conductance"), std::string::npos) << e.what();
  }
}

// liionpack's Ri elements are the cells' own resistance, which a DFN cell
// has: they join their nodes, so a netlist with them is the one without.
TEST(PackNetlist, InternalResistancesJoinTheirNodes) {
  PackLayout with, without;
  with.netlist = {{"V0", 1, 0, 0, 1},     {"Ri0", 2, 1, 5e-2, 2}, {"V1", 3, 0, 0, 3}, {"Ri1", 4, 3, 5e-2, 4},
                  {"Rc0", 2, 5, 1e-3, 5}, {"Rc1", 4, 5, 2e-3, 6}, {"I0", 5, 0, 0, 7}};
  without.netlist = {
      {"V0", 1, 0, 0, 1}, {"V1", 3, 0, 0, 2}, {"Rc0", 1, 5, 1e-3, 3}, {"Rc1", 3, 5, 2e-3, 4}, {"I0", 5, 0, 0, 5}};
  const Experiment e({"Discharge at 1C for 5 minutes"});
  const PackSolution a = run_pack(with, e, unlike_cells(2)), b = run_pack(without, e, unlike_cells(2));
  ASSERT_TRUE(a.completed && b.completed) << a.termination << b.termination;
  EXPECT_EQ(a.voltage, b.voltage);
  EXPECT_EQ(a.cell_current, b.cell_current);
  EXPECT_EQ(a.node_names, (std::vector<std::string>{"N0", "N1", "N3", "N5"}));
}

}  // namespace
}  // namespace voltaic
