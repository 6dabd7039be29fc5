// Thermal physics that a wrong sign or a wrong scale must not survive:
// - the reversible (entropic) heat: Marquis2019's lumped 1C temperature curve
//   against PyBaMM's, the heat of constant entropic coefficients exactly, and
//   the heat of Marquis2019's own coefficients at C/10 against the one the
//   bulk stoichiometries predict;
// - the 3D conduction model: with the thermal conductivity raised and the
//   cell set up so that both models describe the same body, it must be the
//   lumped model; and its heat must balance (generated = stored + removed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "solver/pybamm_curves.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/function_definition.hpp"
#include "voltaic/model/material_functions.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

constexpr const char* kTime = "Time [s]";
constexpr const char* kTemperature = "Volume-averaged cell temperature [K]";
constexpr const char* kHeat = "Total heating [W]";

SimulationOptions pybamm_options(ThermalModel thermal) {
  SimulationOptions o;
  o.thermal = thermal;
  o.potential.electrolyte_face_mean = FaceMean::arithmetic;  // PyBaMM's
  return o;
}

/// 5 / 3 / 5 cells, 10 shells: enough for the heat balances below, which
/// compare runs on the same grid.
CellGridSpec coarse_grid(int nx = 1, int ny = 1) { return CellGridSpec{5, 3, 5, 10, nx, ny}; }

ParameterSet without_entropic_terms(ParameterSet p) {
  p.negative_electrode.entropic = EntropicModel::none;
  p.positive_electrode.entropic = EntropicModel::none;
  return p;
}

Solution run(const ParameterSet& p, const SimulationOptions& o, const std::string& step) {
  Simulation sim(p, o, CpuExecutor::create());
  Solution s = sim.run(Experiment({step}));
  EXPECT_TRUE(s.completed) << s.termination;
  return s;
}

// ---------------------------------------------------------------------------
// Reversible heat
// ---------------------------------------------------------------------------

// Marquis2019's temperature rise at 1C is small (0.35 K at most) and about
// half of it is entropic: the curve dips mid-discharge where the reversible
// heat cools the cell, and rises steeply at the end where it heats it.
// Measured on PyBaMM's rows (362 of them):
//   as the model is:                          RMS 0.28 mK, max 1.0 mK
//   without the entropic terms (dU/dT = 0):   RMS 23 mK,   max 187 mK
//   the reversible heat's sign flipped:       RMS 46 mK,   max 374 mK
// The bars (2 mK RMS, 5 mK max) pass by 7x and 5x and fail the flipped sign
// by 23x and 75x.
TEST(ThermalValidation, LumpedTemperatureFollowsPybammThroughTheReversibleHeat) {
  const test::PybammCurve ref = test::read_pybamm_curve("marquis2019_discharge_lumped_1C");
  const std::string discharge = "Discharge at 1C until 3.105 V";
  const ParameterSet p = parameter_sets::marquis2019();
  const Solution ours = run(p, pybamm_options(ThermalModel::lumped), discharge);
  const test::CurveDifference d = test::voltage_difference(ours, ref, kTemperature);
  ASSERT_GT(d.points, 300u);
  EXPECT_LE(d.rms, 2e-3) << "K";
  EXPECT_LE(d.max, 5e-3) << "K";
  // The comparison does see the entropic heat: without it the curve is far off.
  const Solution none = run(without_entropic_terms(p), pybamm_options(ThermalModel::lumped), discharge);
  const test::CurveDifference n = test::voltage_difference(none, ref, kTemperature);
  EXPECT_GT(n.rms, 5 * 2e-3) << "K";
  RecordProperty("rms_mK", std::to_string(1e3 * d.rms));
  RecordProperty("max_mK", std::to_string(1e3 * d.max));
}

// With constant entropic coefficients dU_n/dT = a, dU_p/dT = b the reversible
// heat is a T (sum over the negative electrode of a j V = I) + b T (sum over
// the positive one = -I) = I T (a - b), whatever the distribution of the
// reaction. At T = T_ref the coefficients change nothing else (U = U_ref +
// (T - T_ref) dU/dT), so two runs differ in "Total heating [W]" by exactly
// that, row by row (measured: 1e-11 relative; bar 1e-8). Away from T_ref
// each OCP is shifted by a constant, which moves the potentials but not their
// gradients or the overpotentials; the steps differ slightly, so the rows are
// compared through interpolation (measured: 7e-4 relative; bar 1e-2), which
// still tells T from T_ref (T_ref in place of T: 6.3e-2). a and b differ in
// sign and size so that a sign error in either electrode, or the electrodes
// swapped, changes the result by 67 % or more (the sign flipped: 200 %).
TEST(ThermalValidation, ReversibleHeatOfConstantCoefficientsIsCurrentTimesTemperatureTimesTheirDifference) {
  const double a = -2e-4, b = 1e-4;  // [V/K]
  for (const double temperature : {298.15, 318.15}) {
    ParameterSet none = without_entropic_terms(parameter_sets::marquis2019());
    none.thermal.ambient_temperature = temperature;  // an isothermal cell is held there
    ParameterSet with = none;
    with.set_custom_function(FunctionSlot::negative_entropic, FunctionDefinition::constant(a));
    with.set_custom_function(FunctionSlot::positive_entropic, FunctionDefinition::constant(b));
    SimulationOptions o = pybamm_options(ThermalModel::isothermal);
    o.grid = coarse_grid();
    const std::string discharge = "Discharge at 1C until 3.105 V";
    const Solution s0 = run(none, o, discharge), s1 = run(with, o, discharge);
    const bool at_reference = temperature == none.thermal.reference_temperature;
    if (at_reference) {
      ASSERT_EQ(s0.rows(), s1.rows());
    }
    double worst = 0.0, worst_time = 0.0;
    for (std::size_t i = 0; i < s1.rows(); ++i) {
      const double t = s1[kTime][i];
      if (at_reference) {
        ASSERT_EQ(s0[kTime][i], t);
      }
      const double q0 = at_reference ? s0[kHeat][i] : s0.at(kHeat, t);
      const double expected = s1["Current [A]"][i] * temperature * (a - b);
      const double error = std::fabs(s1[kHeat][i] - q0 - expected) / std::fabs(expected);
      if (error > worst) {
        worst = error;
        worst_time = t;
      }
    }
    EXPECT_LE(worst, at_reference ? 1e-8 : 1e-2) << "T = " << temperature << " K, worst at t = " << worst_time << " s";
  }
}

// Marquis2019's own coefficients at C/10: the particles are then nearly
// uniform, so the reversible heat is close to I T (dU_n/dT(x_n) -
// dU_p/dT(x_p)) at the bulk stoichiometries x that the charge passed gives.
// This does not use PyBaMM. The predicted heat changes sign over the
// discharge (heating at the start and, most, at the end; cooling in the
// middle). Measured: the RMS over the rows of (heat - prediction) is 6 % of
// the prediction's RMS (surface against bulk stoichiometry), 206 % with the
// reversible heat's sign flipped; bar 15 %.
TEST(ThermalValidation, ReversibleHeatAtLowRateIsThatOfTheBulkStoichiometries) {
  const ParameterSet p = parameter_sets::marquis2019();
  SimulationOptions o = pybamm_options(ThermalModel::isothermal);
  o.grid = coarse_grid();
  const std::string discharge = "Discharge at C/10 until 3.105 V";
  const Solution none = run(without_entropic_terms(p), o, discharge), with = run(p, o, discharge);
  const ElectrodeParameters& n = p.negative_electrode;
  const ElectrodeParameters& q = p.positive_electrode;
  const auto capacity = [&](const ElectrodeParameters& e) {  // [C] from x = 0 to 1
    return kFaraday * e.active_material_volume_fraction * e.thickness * p.electrode_area() * e.maximum_concentration;
  };
  double error2 = 0.0, expected2 = 0.0, lo = 0.0, hi = 0.0;
  for (std::size_t i = 1; i < with.rows(); ++i) {
    const double t = with[kTime][i], charge = 3600.0 * with["Discharge capacity [A.h]"][i];
    const double x_n = n.initial_concentration / n.maximum_concentration - charge / capacity(n);
    const double x_p = q.initial_concentration / q.maximum_concentration + charge / capacity(q);
    const double expected = with["Current [A]"][i] * p.thermal.initial_temperature *
                            (material::entropic_change(n, x_n) - material::entropic_change(q, x_p));
    const double got = with[kHeat][i] - none.at(kHeat, t);
    error2 += (got - expected) * (got - expected);
    expected2 += expected * expected;
    lo = std::min(lo, expected);
    hi = std::max(hi, expected);
  }
  EXPECT_LT(lo, 0.0);
  EXPECT_GT(hi, 0.0);
  EXPECT_LE(std::sqrt(error2 / expected2), 0.15);
}

// ---------------------------------------------------------------------------
// 3D conduction against the lumped model
// ---------------------------------------------------------------------------

// What the two models hold (docs/theory.md §2.8):
//   lumped:     C dT/dt = Q - h A_cool (T - T_amb),
//               C = sum_k rho_k c_k L_k / sum_k L_k * V_cell over the two
//               collectors, the electrodes and the separator; Q includes the
//               foils' Ohmic heat I^2 (L_cn/sigma_cn + L_cp/sigma_cp) / A;
//   conduction: rho c dT/dt = div(lambda grad T) + q over the whole stack,
//               each foil a layer with its own rho c, lambda and Joule heat,
//               -lambda dT/dn = h_f (T - T_amb) on each outer face f: the
//               foils' faces of area A = H W (h_cn, h_cp), the four edges of
//               the stack, 2 (H + W) L_total (h_edge), and under each tab
//               its foil's edge, w_tab L_cc, with h_tab instead of h_edge.
// With lambda large the 3D temperature is uniform and its mean obeys
//   A sum_k rho c L dT/dt = Q - G (T - T_amb),  G = sum_f h_f A_f,
// the lumped model when V_cell = A L_total and h A_cool = G. Marquis2019
// with one coefficient for every face is that cell to 1e-4 (its A_cool,
// 0.0569 m^2, against the stack's 0.056907 m^2); its own pouch coefficients
// (faces 0, edges 0.3, tabs 10 W/(m^2 K)) cool it through G = 7.6e-5 W/K,
// which a lumped model with A_cool = G / h matches; the tabs are a quarter
// of G.
struct LumpableCell {
  ParameterSet parameters;
  double heat_capacity = 0.0;  ///< of the whole stack [J/K]
  double conductance = 0.0;    ///< of its outer faces to the ambient [W/K]
};

enum class Cooling { uniform, pouch };

LumpableCell lumpable_marquis2019(double conductivity_factor, Cooling cooling = Cooling::uniform) {
  LumpableCell cell;
  ParameterSet& p = cell.parameters;
  p = parameter_sets::marquis2019();
  ThermalParameters& th = p.thermal;
  if (cooling == Cooling::uniform) {
    for (double* h : {&th.negative_collector_heat_transfer_coefficient,
                      &th.positive_collector_heat_transfer_coefficient, &th.negative_tab_heat_transfer_coefficient,
                      &th.positive_tab_heat_transfer_coefficient, &th.edge_heat_transfer_coefficient})
      *h = kUnsetParameter;
  }
  p.negative_electrode.thermal_conductivity *= conductivity_factor;
  p.separator.thermal_conductivity *= conductivity_factor;
  p.positive_electrode.thermal_conductivity *= conductivity_factor;
  const ElectrodeParameters& n = p.negative_electrode;
  const SeparatorParameters& s = p.separator;
  const ElectrodeParameters& q = p.positive_electrode;
  const CurrentCollectorParameters& cn = p.negative_current_collector;
  const CurrentCollectorParameters& cp = p.positive_current_collector;
  const double area = p.electrode_area(),
               length = cn.thickness + n.thickness + s.thickness + q.thickness + cp.thickness;
  const double edges = 2.0 * (p.cell.electrode_height + p.cell.electrode_width * p.cell.electrodes_in_parallel);
  const auto rc = [](double rho, double c, double l) { return rho * c * l; };
  cell.heat_capacity =
      area *
      (rc(cn.density, cn.specific_heat_capacity, cn.thickness) + rc(n.density, n.specific_heat_capacity, n.thickness) +
       rc(s.density, s.specific_heat_capacity, s.thickness) + rc(q.density, q.specific_heat_capacity, q.thickness) +
       rc(cp.density, cp.specific_heat_capacity, cp.thickness));
  if (cooling == Cooling::uniform) {
    cell.conductance = th.heat_transfer_coefficient * (2.0 * area + edges * length);
  } else {
    const double h_edge = th.edge_heat_transfer_coefficient;
    cell.conductance =
        area * (th.negative_collector_heat_transfer_coefficient + th.positive_collector_heat_transfer_coefficient) +
        h_edge * edges * length + (th.negative_tab_heat_transfer_coefficient - h_edge) * cn.tab_width * cn.thickness +
        (th.positive_tab_heat_transfer_coefficient - h_edge) * cp.tab_width * cp.thickness;
  }
  th.cooling_surface_area = cell.conductance / th.heat_transfer_coefficient;
  th.cell_volume = area * length;
  p.validate();
  return cell;
}

/// Largest |T_conduction - T_lumped| [K] at the lumped run's rows, and the lumped rise.
struct Agreement {
  double worst = 0.0, rise = 0.0;
};

Agreement compare(const Solution& lumped, const Solution& conduction) {
  Agreement a;
  for (std::size_t i = 0; i < lumped.rows(); ++i) {
    const double t = lumped[kTime][i];
    a.worst = std::max(a.worst, std::fabs(conduction.at(kTemperature, t) - lumped[kTemperature][i]));
    a.rise = std::max(a.rise, lumped[kTemperature][i] - lumped[kTemperature].front());
  }
  return a;
}

/// (generated - stored - removed) / generated over a run of the 3D model,
/// its heat capacity and outer conductance as `cell` gives them, the removed heat
/// from the mean temperature (uniform: lambda large), integrated by the
/// trapezoidal rule over the rows.
double energy_imbalance(const LumpableCell& cell, const Solution& s) {
  const ThermalParameters& th = cell.parameters.thermal;
  double generated = 0.0, removed = 0.0;
  for (std::size_t i = 1; i < s.rows(); ++i) {
    const double dt = s[kTime][i] - s[kTime][i - 1];
    generated += 0.5 * dt * (s[kHeat][i] + s[kHeat][i - 1]);
    removed +=
        0.5 * dt * cell.conductance * (s[kTemperature][i] + s[kTemperature][i - 1] - 2.0 * th.ambient_temperature);
  }
  const double stored = cell.heat_capacity * (s[kTemperature].back() - s[kTemperature].front());
  return (generated - stored - removed) / generated;
}

struct LumpedCase {
  double conductivity_factor;
  int nx, ny;
  Cooling cooling;
  double temperature_bar;  ///< [K]
  double balance_bar;      ///< relative
};

void expect_conduction_is_lumped(const LumpedCase& c) {
  const LumpableCell cell = lumpable_marquis2019(c.conductivity_factor, c.cooling);
  SimulationOptions o = pybamm_options(ThermalModel::lumped);
  o.grid = coarse_grid(c.nx, c.ny);
  const std::string discharge = "Discharge at 1C until 3.105 V";
  const Solution lumped = run(cell.parameters, o, discharge);
  o.thermal = ThermalModel::conduction;
  const Solution conduction = run(cell.parameters, o, discharge);
  const Agreement a = compare(lumped, conduction);
  EXPECT_GT(a.rise, 0.3);  // K
  EXPECT_LE(a.worst, c.temperature_bar) << "K, out of a rise of " << a.rise << " K";
  const double imbalance = energy_imbalance(cell, conduction);
  EXPECT_LE(std::fabs(imbalance), c.balance_bar);
}

// lambda x 1000 on a 1 x 1 in-plane grid: the limit itself. Measured: max
// |T_3D - T_lumped| 2.0e-6 K of a 0.363 K rise; energy imbalance 1.3e-4 (the
// trapezoidal rule on the rows against BDF2).
TEST(ThermalValidation, ConductionModelWithLargeConductivityIsTheLumpedModel) {
  expect_conduction_is_lumped({1e3, 1, 1, Cooling::uniform, 1e-5, 5e-4});
}

// The same through in-plane conduction (2 x 2 cells, the four edges cooled
// separately). lambda x 10 only: at x 100 the heat step's CG, its condition
// growing with lambda dt / (rho c dz^2), stalls (rounding) above the 1e-10
// relative residual that Simulation accepts. Measured: 4.2e-5 K, imbalance 2.5e-4.
TEST(ThermalValidation, ConductionModelOnAnInPlaneGridIsTheLumpedModel) {
  expect_conduction_is_lumped({10.0, 2, 2, Cooling::uniform, 2e-4, 1e-3});
}

// Marquis2019's own pouch coefficients: no cooling through the faces, the
// edges at 0.3 and the tabs at 10 W/(m^2 K) (a quarter of the conductance).
// The same limit with the lumped model of the same conductance. Measured:
// 8.0e-5 K of a 15.2 K rise, imbalance 6.0e-4.
TEST(ThermalValidation, ConductionModelWithPouchCoolingIsTheLumpedModelOfItsConductance) {
  expect_conduction_is_lumped({1e3, 1, 1, Cooling::pouch, 1e-4, 1e-3});
}

// The same with the tabs on a 3 x 2 grid's x_hi edge, lambda x 10: the heat
// flows in-plane to the tabs and edges, so the temperature is not uniform
// (0.034 K from the lumped model), but the heat balances: 3.7e-4.
TEST(ThermalValidation, ConductionModelWithTabCoolingOnAnInPlaneGridBalancesItsHeat) {
  expect_conduction_is_lumped({10.0, 3, 2, Cooling::pouch, 0.05, 1e-3});
}

// Marquis2019 with one coefficient for every face, its conductivities as
// they are: the stack's outer area and volume are the lumped cell's to 1e-4.
// Measured: 0.33 mK at most, of a 0.36 K rise.
TEST(ThermalValidation, ConductionModelOfMarquis2019IsNearTheLumpedModel) {
  const ParameterSet p = lumpable_marquis2019(1.0).parameters;
  ParameterSet as_it_is = parameter_sets::marquis2019();
  as_it_is.thermal = p.thermal;
  as_it_is.thermal.cooling_surface_area = 0.0569;
  as_it_is.thermal.cell_volume = 7.8e-6;
  SimulationOptions o = pybamm_options(ThermalModel::lumped);
  o.grid = coarse_grid();
  const std::string discharge = "Discharge at 1C until 3.105 V";
  const Solution lumped = run(as_it_is, o, discharge);
  o.thermal = ThermalModel::conduction;
  const Solution conduction = run(as_it_is, o, discharge);
  const Agreement a = compare(lumped, conduction);
  EXPECT_GT(a.rise, 0.3);  // K
  EXPECT_LE(a.worst, 1e-3) << "K";
}

}  // namespace
}  // namespace voltaic
