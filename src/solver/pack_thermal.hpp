#pragma once
// The pack's thermal network (PackThermal, pack.hpp) as the cells see it:
// each lumped cell exchanges heat with one conductance to one temperature
// (its own convection, its neighbours, the coolant), which the circuit's
// iterations update from the cells' latest temperatures until they settle.

#include <cstddef>
#include <utility>
#include <vector>

#include "voltaic/solver/pack.hpp"

namespace voltaic::pack {

class ThermalNetwork {
 public:
  /// The links of `t` over the cells of `l`.
  /// @throws InvalidArgument naming the field: a link to itself or out of
  ///         range, named twice, a negative or non-finite conductance, a
  ///         per-cell list of the wrong length, a coolant temperature <= 0, a
  ///         flow without its capacity rate, or any of it on cells that are
  ///         not lumped (`lumped` false)
  ThermalNetwork(const PackThermal& t, const PackLayout& l, bool lumped);

  /// Whether anything links the cells or cools them beyond their own convection.
  bool active() const { return active_; }
  bool flowing() const { return kind_ == PackThermal::Coolant::flow; }

  /// Each cell's surroundings for cell temperatures `T`: `conductance[k]`
  /// = hA_k + sum_j G_kj + Gc_k and `temperature[k]` = (hA_k T_amb,k + sum_j
  /// G_kj T_j + Gc_k Tc_k) / conductance[k], Tc_k the coolant where cell k
  /// meets it (a flow warms by each cell's heat in turn). Returns the flow's
  /// outlet temperature (else the plate's, or NaN without a coolant).
  double surroundings(const double* T, const double* hA, const double* ambient, double* conductance,
                      double* temperature) const;

 private:
  std::vector<std::vector<std::pair<std::size_t, double>>> links_;  ///< per cell: (neighbour, G) [W/K]
  std::vector<double> coolant_;                                     ///< per cell: Gc [W/K]
  PackThermal::Coolant kind_ = PackThermal::Coolant::none;
  double inlet_ = 0.0, rate_ = 0.0;
  bool active_ = false;
};

}  // namespace voltaic::pack
