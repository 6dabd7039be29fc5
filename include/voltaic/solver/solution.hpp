#pragma once
/// @file solution.hpp
/// @brief Solution: what a Simulation run produced: the time series, named as
/// PyBaMM names the same variables, and the fields at chosen times.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace voltaic {

/// Every field of the cell at one time (field_catalog()), per cell of the
/// grid (x fastest, z slowest), per particle surface, or per in-plane column.
struct FieldSnapshot {
  double time = 0.0;  ///< [s]
  /// "Electrolyte concentration [mol.m-3]", "Electrolyte potential [V]",
  /// "Solid potential [V]" (0 in the separator), "Cell temperature [K]",
  /// "Volumetric interfacial current density [A.m-3]", "Total heating [W.m-3]"
  /// (per cell), "Particle surface concentration [mol.m-3]" (per particle:
  /// negative electrode cells first, then positive); and per column
  /// c = i + nx j (nx ny values, maps over the electrode plane):
  /// "Negative current collector potential [V]", "Positive current collector
  /// potential [V]", "Current collector current density [A.m-2]" (through
  /// the column, > 0 on discharge), "Negative electrode stoichiometry" (the
  /// lithium of the column's negative particles over their capacity) and
  /// "Column-averaged cell temperature [K]" (thickness-weighted).
  std::map<std::string, std::vector<double>> fields;
};

/// What one cycle of the experiment did to the cell, taken at its end
/// (PyBaMM's summary variables where it has the same one).
struct CycleSummary {
  int cycle = 0;                    ///< "Cycle number", from 1
  double time = 0.0;                ///< [s] at the cycle's end
  double discharge_capacity = 0.0;  ///< [A.h] discharged during the cycle (current > 0)
  double charge_capacity = 0.0;     ///< [A.h] charged during the cycle
  double discharge_energy = 0.0;    ///< [W.h] delivered during the cycle (power > 0)
  double particle_lithium = 0.0;    ///< "Total lithium in particles [mol]"
  double sei_lithium_lost = 0.0;    ///< "Loss of lithium to negative SEI [mol]" since t = 0
  double sei_thickness = 0.0;       ///< "X-averaged negative SEI thickness [m]"
  /// "Loss of lithium to negative lithium plating [mol]": plated and dead lithium.
  double plating_lithium_lost = 0.0;
  double plated_concentration = 0.0;  ///< "X-averaged negative lithium plating concentration [mol.m-3]"
  double dead_concentration = 0.0;    ///< "X-averaged negative dead lithium concentration [mol.m-3]"
  double capacity = 0.0;              ///< "Capacity [A.h]": the electrode SOH's (electrode_soh.hpp) at the cycle's end
  double lithium_inventory_lost_percent = 0.0;  ///< "Loss of lithium inventory [%]" since t = 0
  double min_voltage = 0.0;                     ///< "Minimum voltage [V]" of the cycle's rows
  /// "Loss of active material in negative electrode [%]", then positive, since t = 0.
  double lam_percent[2] = {0.0, 0.0};
  /// "Loss of lithium due to loss of active material in negative electrode [mol]", then positive.
  double lam_lithium_lost[2] = {0.0, 0.0};
  /// "Negative electrode capacity [A.h]", then positive: eps_s L A c_max F at the cycle's end.
  double electrode_capacity[2] = {0.0, 0.0};
  /// "X-averaged negative electrode porosity" at the cycle's end (changing
  /// with the films under "SEI porosity change" / "lithium plating porosity change").
  double negative_porosity = 0.0;
  /// "Loss of capacity to negative SEI [A.h]": the SEI's lithium times F.
  double sei_capacity_lost() const;
  /// "Loss of capacity to negative lithium plating [A.h]".
  double plating_capacity_lost() const;
  /// The summary's columns by PyBaMM's names ("Cycle number", "Time [s]",
  /// ...), and this cycle's values in that order (cycles.csv, Python's
  /// summary_variables).
  static const std::vector<std::string>& names();
  std::vector<double> values() const;
};

/// One row per accepted time step (and one at the start of every experiment step).
class Solution {
 public:
  /// The time-series columns, in order: "Time [s]", "Voltage [V]",
  /// "Current [A]", "Discharge capacity [A.h]", "Discharge energy [W.h]",
  /// "Volume-averaged cell temperature [K]", "Minimum cell temperature [K]",
  /// "Maximum cell temperature [K]", "Total heating [W]", "Step".
  static const std::vector<std::string>& variable_names();

  /// A column by its name.
  /// @throws InvalidArgument naming the unknown variable and listing the known ones
  const std::vector<double>& operator[](const std::string& name) const;

  /// Appends one row (values in variable_names() order).
  void append(const std::vector<double>& row);
  /// Appends every row of `other`, then empties its rows.
  void take_rows(Solution& other);
  std::size_t rows() const { return columns_.empty() ? 0 : columns_.front().size(); }

  /// Linear interpolation of a column at time t (clamped to the time range).
  double at(const std::string& name, double t) const;

  std::vector<FieldSnapshot> fields;
  /// One per cycle of the experiment the run finished (1D cells: the cell engine).
  std::vector<CycleSummary> cycles;
  bool completed = true;    ///< false when a step failed and the run stopped early
  std::string termination;  ///< why the run (or its last step) ended
  /// What a user should know that did not stop the run, one line each: a
  /// step that ended at the cell's own voltage cut-off before its end.
  std::vector<std::string> notes;
  int steps_taken = 0;     ///< accepted time steps
  int steps_rejected = 0;  ///< attempts cut and retried (solver failures, event location)

 private:
  std::vector<std::vector<double>> columns_ = std::vector<std::vector<double>>(variable_names().size());
};

}  // namespace voltaic
