#pragma once
/// @file pack.hpp
/// @brief A pack of DFN cells: Ns groups in series, each of Np cells in
/// parallel, every cell a 1D cell of the cell engine with its own parameters
/// and state, the circuit solved implicitly with the cells each time step.
///
/// Cell k = s * Np + p is the p-th cell of series group s (group 0 at the
/// pack's negative terminal). Each cell reaches its group's busbars through
/// its connection resistance r_k (tab and interconnect); the groups are
/// joined by busbars whose resistances add up to `busbar_resistance`. With
/// V_k(I_k) the terminal voltage cell k reaches over a time step at the
/// constant current I_k, the circuit is
///
///   V_k(I_k) - r_k I_k = U_s  for every cell of group s,
///   sum of I_k over group s = I,  V = sum of U_s - R_b I,
///
/// I the pack's current (> 0 discharges) and V its terminal voltage, solved
/// by Newton on the cells' currents to a hundredth of the voltage tolerance
/// (docs/theory.md, "Packs"). The pack takes one time step size for all its
/// cells (the largest local error of any cell decides it) and locates its
/// events on the pack's limits and on every cell's own voltage cut-offs.
///
/// A netlist (PackLayout::netlist) wires the cells in any other layout:
/// liionpack's elements between numbered nodes, its cells' currents and the
/// node voltages solved together by modified nodal analysis.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic {

/// One element of a netlist, as liionpack's netlists (and LTspice's) write
/// it: `desc node1 node2 value`. Its name's first letter is its kind:
///  - V: a cell, node1 its positive terminal, node2 its negative one; the
///    cells are the V elements in the order they come (value not read);
///  - R: a resistor of `value` ohms (> 0) between the nodes, except
///  - Ri: liionpack's internal resistance of a cell, which a DFN cell has of
///    its own: it joins its two nodes (value not read);
///  - I: the pack's terminals, once: the pack's current (> 0 discharging)
///    leaves at node1 (the positive terminal) and returns at node2 (the
///    negative one, the netlist's 0 V; value not read: the experiment drives).
struct NetlistElement {
  std::string name;
  long long node1 = 0, node2 = 0;  ///< node numbers, >= 0
  double value = 0.0;
  int line = 0;  ///< where a file gave it (1-based; 0: not from a file), for messages
};

/// The wiring of a pack: Np x Ns, or a netlist.
struct PackLayout {
  int parallel = 1;                            ///< Np, cells in each group, >= 1
  int series = 1;                              ///< Ns, groups in series, >= 1
  double connection_resistance = 0.0;          ///< [Ohm] r_k of every cell, >= 0
  std::vector<double> connection_resistances;  ///< per cell (Np Ns values, k = s Np + p), overrides when given
  double busbar_resistance = 0.0;              ///< [Ohm] R_b, the series busbars and terminals together, >= 0
  /// Another layout: when given, the circuit (parallel and series stay 1,
  /// the resistances above 0: the netlist holds them).
  std::vector<NetlistElement> netlist;

  /// The pack's cells: Np Ns, or the netlist's V elements.
  std::size_t cells() const;
  /// "cell 5 (series 1, parallel 1)", or "cell 5 (V5)" in a netlist.
  std::string cell_name(std::size_t k) const;
};

/// Checks a netlist's wiring: names of a known kind, nodes >= 0, one I
/// element, at least one cell, resistances > 0 and finite, no element
/// joining a node to itself, every node reached from the terminals through
/// the elements (none floating) and joined to at least two elements (no
/// open end), both terminals joined by the circuit.
/// @throws InvalidArgument naming the element (and its line) or the node
void check_netlist(const std::vector<NetlistElement>& netlist);

/// A thermal link between two cells of a pack.
struct PackLink {
  std::size_t a = 0, b = 0;  ///< cell indices (k = s Np + p), a != b
  double conductance = 0.0;  ///< [W/K], >= 0
};

/// The pack's thermal network, beside each cell's own convection to the
/// ambient (its lumped model's heat transfer coefficient): conduction
/// between neighbouring cells and from each cell to a coolant. Needs lumped
/// cells (PackOptions::cell.thermal); all zero (the default) leaves the
/// cells thermally independent.
struct PackThermal {
  /// [W/K] between neighbours of the Np x Ns grid: cells p and p + 1 of a
  /// group, and cell p of groups s and s + 1. >= 0; 0 for a netlist (which
  /// has no grid: its links say which cells touch).
  double neighbour_conductance = 0.0;
  /// Further links, or the grid's own with another conductance (a link
  /// named twice is an error).
  std::vector<PackLink> links;
  enum class Coolant {
    none,   ///< no coolant
    plate,  ///< a plate at coolant_temperature
    flow,   ///< a coolant entering at coolant_temperature, passing the cells in index order, warming as it goes
  };
  Coolant coolant = Coolant::none;
  double coolant_conductance = 0.0;          ///< [W/K] each cell to the coolant, >= 0
  std::vector<double> coolant_conductances;  ///< per cell (Np Ns values), overrides when given
  double coolant_temperature = 298.15;       ///< [K] the plate's, or the flow's inlet, > 0
  double coolant_capacity_rate = 0.0;        ///< [W/K] flow: mass flow times specific heat, > 0
};

/// How a pack runs: its cells' grid, thermal model and tolerances (a 1D
/// SimulationOptions: nx = ny = 1), the pack's own voltage limits and its
/// thermal network.
struct PackOptions {
  SimulationOptions cell;
  PackThermal thermal;
  /// [V] the pack's limits; NaN (the default): Ns times the highest lower
  /// cut-off of its cells, Ns times the lowest upper one.
  double lower_voltage_cutoff = BatchCellResult::kNaN;
  double upper_voltage_cutoff = BatchCellResult::kNaN;
  /// [s] of simulated time between the rows a run keeps (its memory: rows x
  /// cells x 4 values): 0 (the default) keeps every accepted step; more
  /// keeps a step's row once that long has passed since the last row kept,
  /// and always each experiment step's first and last rows. The steps are
  /// the same either way: the rows kept are the full run's, bit for bit.
  double record_period = 0.0;
};

/// What a pack did. Rows are the consistent start of each experiment step
/// and every accepted time step (or, with PackOptions::record_period, those
/// that far apart, and each step's last); cell values are row-major (row r, cell k
/// at r * cells + k).
struct PackSolution {
  std::size_t cells = 0;
  std::vector<double> time;              ///< [s]
  std::vector<double> voltage;           ///< [V] the pack's terminal voltage
  std::vector<double> current;           ///< [A] the pack's current, > 0 discharging
  std::vector<double> cell_current;      ///< [A] I_k
  std::vector<double> cell_voltage;      ///< [V] V_k, each cell's own terminal voltage
  std::vector<double> cell_temperature;  ///< [K] each cell's (lumped) temperature
  std::vector<double> cell_heat;         ///< [W] each cell's heat generation
  std::vector<double> coolant_outlet;    ///< [K] a flowing coolant's outlet temperature (else empty)
  /// The circuit's nodes: an Np x Ns pack's groups ("group s", the voltage
  /// across group s), a netlist's nodes ("N<number>", each node's voltage
  /// against the negative terminal).
  std::vector<std::string> node_names;
  std::vector<double> node_voltage;  ///< [V] row-major, node j of row r at r * node_names.size() + j
  bool completed = false;
  bool interrupted = false;  ///< run()'s `stop` asked it to stop (completed false, the rows up to then kept)
  std::string termination;   ///< what ended the run, in Simulation's words, naming the cell where one did
  int steps_taken = 0, steps_rejected = 0;
  /// Newton iterations of the circuit (each one solve of every cell), over every attempt and step start.
  long long circuit_iterations = 0;

  double cell_value(const std::vector<double>& values, std::size_t row, std::size_t cell) const {
    return values[row * cells + cell];
  }
};

class PackSimulation {
 public:
  /// Every cell is `base` with its row of `cells` (CellParameters; none: the
  /// cells are identical, else one row per cell, Np Ns rows).
  /// @throws InvalidArgument naming the field for Np or Ns < 1, a negative
  ///         or non-finite resistance, a per-cell table of the wrong length,
  ///         a netlist that check_netlist() refuses or given beside Np, Ns
  ///         or the grid's resistances,
  ///         a grid that is not 1D, a non-CPU executor, a thermal network
  ///         on isothermal cells or with a bad link or conductance; what a
  ///         cell's parameters throw, naming the cell
  PackSimulation(const ParameterSet& base, const CellParameters& cells, const PackLayout& layout,
                 const PackOptions& options, std::shared_ptr<const Executor> exec);
  ~PackSimulation();
  PackSimulation(const PackSimulation&) = delete;
  PackSimulation& operator=(const PackSimulation&) = delete;

  /// The pack's nominal capacity [A h]: the smallest over its groups of the
  /// sum of the group's cells' (what a C-rate of the pack refers to).
  double nominal_capacity() const;
  /// Each cell's lumped heat capacity [J/K] (its thermal network's masses).
  std::vector<double> heat_capacities() const;
  double lower_voltage_cutoff() const;
  double upper_voltage_cutoff() const;

  /// Runs `experiment` on the pack (its currents, powers and voltages are the
  /// pack's; C-rates of nominal_capacity()).
  /// `stop`, asked after every accepted time step, stops the run there when
  /// it gives a reason (a signal: the CLI keeps what ran).
  PackSolution run(const Experiment& experiment, const std::function<std::string()>& stop = {});

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace voltaic
