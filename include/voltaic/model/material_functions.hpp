#pragma once
/// @file material_functions.hpp
/// @brief The material functions of the parameter sets as VOLTAIC_HD point
/// functions: one formula each, called by the CPU loops and the CUDA kernels.
///
/// The named fits are written as published (coefficients and grouping as in
/// the sources and in PyBaMM's parameter sets); the dispatchers at the end pick
/// one by the enums stored in a ParameterSet, or call its CustomFunction
/// handle when the enum says `custom`. These are the formulas
/// themselves, without safeguards: a stoichiometry outside [0, 1] or a
/// concentration <= 0 is the caller's to prevent (docs/design.md, "Model
/// parameters", says what PyBaMM's DFN clips and regularises). Results cannot
/// agree bit for bit between backends unless they are computed alike: exp is
/// pmath::exp (portable_exp.hpp, the same bits everywhere), tanh is fast_tanh
/// (material_function.hpp, from it) and sech from it too; the barriers'
/// log1p is pmath::log1p (portable_log.hpp).

#include <cmath>

#include "voltaic/core/macros.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/material_function.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/model/portable_exp.hpp"
#include "voltaic/model/portable_log.hpp"

namespace voltaic::material {

/// exp(E / R (1 / 298.15 K - 1 / T)): 1 at 298.15 K, and exactly 1 for E = 0.
VOLTAIC_HD inline double arrhenius(double activation_energy, double T) {
  return pmath::exp(activation_energy / kGasConstant * (1.0 / kArrheniusReferenceTemperature - 1.0 / T));
}

/// sqrt for the functions written for double and lanes::D4 alike.
VOLTAIC_HD inline double root(double x) { return sqrt(x); }
#if VOLTAIC_HAS_LANES4
inline lanes::D4 root(lanes::D4 x) { return lanes::sqrt(x); }
#endif

/// sech^2 x, as the published entropic fits write it (cosh^-2, cosh from pmath::exp).
VOLTAIC_HD inline double sech2(double x) {
  const double e = pmath::exp(fabs(x));
  const double c = 0.5 * (e + 1.0 / e);
  return 1.0 / (c * c);
}

// ---- Open-circuit potentials U(sto) [V] ----------------------------------
// Each fit with its slope dU/dsto from the same exps (the implicit
// Butler-Volmer's Newton derivative); the value is the published formula,
// term by term in its order, and the plain functions below drop the slope.

/// LG M50 graphite-SiOx, Chen et al. (2020).
template <class D>
VOLTAIC_HD inline ValueSlopeOf<D> graphite_siox_ocp_chen2020_slope(D sto) {
  const D e = pmath::exp(-39.3631 * sto);
  const auto a = fast_tanh_slope(29.8538 * (sto - 0.1234), 29.8538);
  const auto b = fast_tanh_slope(14.9159 * (sto - 0.2769), 14.9159);
  const auto c = fast_tanh_slope(30.4444 * (sto - 0.6103), 30.4444);
  return {1.9793 * e + 0.2482 - 0.0909 * a.value - 0.04478 * b.value - 0.0205 * c.value,
          -39.3631 * 1.9793 * e - 0.0909 * a.slope - 0.04478 * b.slope - 0.0205 * c.slope};
}

/// LG M50 NMC811, Chen et al. (2020).
template <class D>
VOLTAIC_HD inline ValueSlopeOf<D> nmc811_ocp_chen2020_slope(D sto) {
  const auto a = fast_tanh_slope(18.5138 * (sto - 0.5542), 18.5138);
  const auto b = fast_tanh_slope(15.7890 * (sto - 0.3117), 15.7890);
  const auto c = fast_tanh_slope(15.9308 * (sto - 0.3120), 15.9308);
  return {-0.8090 * sto + 4.4875 - 0.0428 * a.value - 17.7326 * b.value + 17.5842 * c.value,
          -0.8090 - 0.0428 * a.slope - 17.7326 * b.slope + 17.5842 * c.slope};
}

/// MCMB 2528 graphite, Dualfoil (used by Marquis et al. 2019).
template <class D>
VOLTAIC_HD inline ValueSlopeOf<D> graphite_mcmb2528_ocp_dualfoil1998_slope(D sto) {
  const D e = pmath::exp(-120.0 * sto);
  const auto t1 = fast_tanh_slope((sto - 0.286) / 0.083, 1.0 / 0.083);
  const auto t2 = fast_tanh_slope((sto - 0.849) / 0.119, 1.0 / 0.119);
  const auto t3 = fast_tanh_slope((sto - 0.9233) / 0.05, 1.0 / 0.05);
  const auto t4 = fast_tanh_slope((sto - 0.5) / 0.034, 1.0 / 0.034);
  const auto t5 = fast_tanh_slope((sto - 0.194) / 0.142, 1.0 / 0.142);
  const auto t6 = fast_tanh_slope((sto - 0.9) / 0.0164, 1.0 / 0.0164);
  const auto t7 = fast_tanh_slope((sto - 0.124) / 0.0226, 1.0 / 0.0226);
  const auto t8 = fast_tanh_slope((sto - 0.105) / 0.029, 1.0 / 0.029);
  return {0.194 + 1.5 * e + 0.0351 * t1.value - 0.0045 * t2.value - 0.035 * t3.value - 0.0147 * t4.value -
              0.102 * t5.value - 0.022 * t6.value - 0.011 * t7.value + 0.0155 * t8.value,
          -120.0 * 1.5 * e + 0.0351 * t1.slope - 0.0045 * t2.slope - 0.035 * t3.slope - 0.0147 * t4.slope -
              0.102 * t5.slope - 0.022 * t6.slope - 0.011 * t7.slope + 0.0155 * t8.slope};
}

/// LiCoO2, Dualfoil (used by Marquis et al. 2019), with its stoichiometry stretch 1.062.
template <class D>
VOLTAIC_HD inline ValueSlopeOf<D> lico2_ocp_dualfoil1998_slope(D sto) {
  const D s = 1.062 * sto;
  const auto t1 = fast_tanh_slope(30.834 - 54.4806 * s, -54.4806 * 1.062);
  const auto t2 = fast_tanh_slope(52.294 - 50.294 * s, -50.294 * 1.062);
  const auto t3 = fast_tanh_slope(11.0923 - 19.8543 * s, -19.8543 * 1.062);
  const auto t4 = fast_tanh_slope(1.4684 - 5.4888 * s, -5.4888 * 1.062);
  const auto t5 = fast_tanh_slope((-s + 0.56478) / 0.1316, -1.062 / 0.1316);
  const auto t6 = fast_tanh_slope((s - 0.525) / 0.006, 1.062 / 0.006);
  return {2.16216 + 0.07645 * t1.value + 2.1581 * t2.value - 0.14169 * t3.value + 0.2051 * t4.value +
              0.2531 * t5.value - 0.02167 * t6.value,
          0.07645 * t1.slope + 2.1581 * t2.slope - 0.14169 * t3.slope + 0.2051 * t4.slope + 0.2531 * t5.slope -
              0.02167 * t6.slope};
}

VOLTAIC_HD inline double graphite_siox_ocp_chen2020(double sto) { return graphite_siox_ocp_chen2020_slope(sto).value; }
VOLTAIC_HD inline double nmc811_ocp_chen2020(double sto) { return nmc811_ocp_chen2020_slope(sto).value; }
VOLTAIC_HD inline double graphite_mcmb2528_ocp_dualfoil1998(double sto) {
  return graphite_mcmb2528_ocp_dualfoil1998_slope(sto).value;
}
VOLTAIC_HD inline double lico2_ocp_dualfoil1998(double sto) { return lico2_ocp_dualfoil1998_slope(sto).value; }

// ---- Entropic coefficients dU/dT(sto) [V/K] ------------------------------
// Moura's fastDFN fits, as Marquis et al. (2019) use them: each is the
// stoichiometry derivative of the matching OCP fit divided by a fixed maximum
// concentration, which is part of the fit (it does not follow c_max).

/// Graphite (fastDFN), for the MCMB 2528 OCP.
VOLTAIC_HD inline double graphite_entropic_change_moura2016(double sto) {
  const double c_max = 24983.2619938437;
  return -1.5 * (120.0 / c_max) * pmath::exp(-120.0 * sto) + (0.0351 / (0.083 * c_max)) * sech2((sto - 0.286) / 0.083) -
         (0.0045 / (0.119 * c_max)) * sech2((sto - 0.849) / 0.119) -
         (0.035 / (0.05 * c_max)) * sech2((sto - 0.9233) / 0.05) -
         (0.0147 / (0.034 * c_max)) * sech2((sto - 0.5) / 0.034) -
         (0.102 / (0.142 * c_max)) * sech2((sto - 0.194) / 0.142) -
         (0.022 / (0.0164 * c_max)) * sech2((sto - 0.9) / 0.0164) -
         (0.011 / (0.0226 * c_max)) * sech2((sto - 0.124) / 0.0226) +
         (0.0155 / (0.029 * c_max)) * sech2((sto - 0.105) / 0.029);
}

/// LiCoO2 (fastDFN), for the Dualfoil LiCoO2 OCP, with the same stretch 1.062.
/// The third term's slope is 19.854 where the OCP has 19.8543: so in the
/// published fit, and kept.
VOLTAIC_HD inline double lico2_entropic_change_moura2016(double sto) {
  const double c_max = 51217.9257309275;
  const double s = 1.062 * sto;
  return 0.07645 * (-54.4806 / c_max) * sech2(30.834 - 54.4806 * s) +
         2.1581 * (-50.294 / c_max) * sech2(52.294 - 50.294 * s) +
         0.14169 * (19.854 / c_max) * sech2(11.0923 - 19.8543 * s) -
         0.2051 * (5.4888 / c_max) * sech2(1.4684 - 5.4888 * s) -
         (0.2531 / 0.1316 / c_max) * sech2((-s + 0.56478) / 0.1316) -
         (0.02167 / 0.006 / c_max) * sech2((s - 0.525) / 0.006);
}

// ---- Electrolytes: concentration dependence at 298.15 K ------------------

/// LiPF6 in EC:EMC 3:7, Nyman et al. (2008) [S/m].
VOLTAIC_HD inline double electrolyte_conductivity_nyman2008(double c_e) {
  const double x = c_e / 1000.0;
  return 0.1297 * (x * x * x) - 2.51 * (x * sqrt(x)) + 3.329 * x;
}

/// LiPF6 in EC:EMC 3:7, Nyman et al. (2008) [m^2/s].
VOLTAIC_HD inline double electrolyte_diffusivity_nyman2008(double c_e) {
  const double x = c_e / 1000.0;
  return 8.794e-11 * (x * x) - 3.972e-10 * x + 4.862e-10;
}

/// LiPF6 in EC:DMC, Capiglia et al. (1999), Dualfoil's fit [S/m].
VOLTAIC_HD inline double electrolyte_conductivity_capiglia1999(double c_e) {
  const double x = c_e / 1000.0;
  return 0.0911 + 1.9101 * x - 1.052 * (x * x) + 0.1554 * (x * x * x);
}

/// LiPF6 in EC:DMC, Capiglia et al. (1999), Dualfoil's fit [m^2/s].
VOLTAIC_HD inline double electrolyte_diffusivity_capiglia1999(double c_e) {
  return 5.34e-10 * pmath::exp(-0.65 * c_e / 1000.0);
}

// ---- Dispatchers: what the model calls ----------------------------------
// An enum value outside its range (only possible by casting) gives NaN;
// ParameterSet::validate() rejects it before anything runs. The overloads
// taking only an enum have no handle: for `custom` they give NaN.

/// U_ref(sto) [V] of the selected fit and its slope (NaN for custom: use the electrode's overload).
VOLTAIC_HD inline ValueSlope open_circuit_potential_slope(OcpModel model, double sto) {
  switch (model) {
    case OcpModel::chen2020_graphite_siox: return graphite_siox_ocp_chen2020_slope(sto);
    case OcpModel::chen2020_nmc811: return nmc811_ocp_chen2020_slope(sto);
    case OcpModel::dualfoil1998_graphite_mcmb2528: return graphite_mcmb2528_ocp_dualfoil1998_slope(sto);
    case OcpModel::dualfoil1998_lico2: return lico2_ocp_dualfoil1998_slope(sto);
    case OcpModel::custom: break;
  }
  return {NAN, NAN};
}

/// U_ref(sto) [V] of the selected fit (NaN for custom: use the electrode's overload).
VOLTAIC_HD inline double open_circuit_potential(OcpModel model, double sto) {
  return open_circuit_potential_slope(model, sto).value;
}

/// dU/dT(sto) [V/K] of the selected fit (NaN for custom: use the electrode's overload).
VOLTAIC_HD inline double entropic_change(EntropicModel model, double sto) {
  switch (model) {
    case EntropicModel::none: return 0.0;
    case EntropicModel::moura2016_graphite: return graphite_entropic_change_moura2016(sto);
    case EntropicModel::moura2016_lico2: return lico2_entropic_change_moura2016(sto);
    case EntropicModel::custom: break;
  }
  return NAN;
}

/// U_ref(sto) [V] of the electrode: its fit or its custom function.
VOLTAIC_HD inline double reference_open_circuit_potential(const ElectrodeParameters& e, double sto) {
  return e.ocp == OcpModel::custom ? e.ocp_function(sto) : open_circuit_potential(e.ocp, sto);
}

/// dU/dT(sto) [V/K] of the electrode: its fit or its custom function.
VOLTAIC_HD inline double entropic_change(const ElectrodeParameters& e, double sto) {
  return e.entropic == EntropicModel::custom ? e.entropic_function(sto) : entropic_change(e.entropic, sto);
}

/// U(sto, T) = U_ref(sto) + (T - T_ref) dU/dT(sto) [V]; T_ref is
/// ThermalParameters::reference_temperature.
VOLTAIC_HD inline double open_circuit_potential(const ElectrodeParameters& e, double sto, double T, double T_ref) {
  return reference_open_circuit_potential(e, sto) + (T - T_ref) * entropic_change(e, sto);
}

/// U(sto, T) as above and dU/dsto: the entropic term's slope by a forward
/// difference (1e-7, towards 0.5), only away from T_ref and where a set has one.
VOLTAIC_HD inline ValueSlope open_circuit_potential_slope(const ElectrodeParameters& e, double sto, double T,
                                                          double T_ref) {
  ValueSlope u = e.ocp == OcpModel::custom ? e.ocp_function.with_slope(sto) : open_circuit_potential_slope(e.ocp, sto);
  const double entropic = entropic_change(e, sto);
  u.value = u.value + (T - T_ref) * entropic;
  if (T != T_ref && e.entropic != EntropicModel::none) {
    const double h = sto > 0.5 ? -1e-7 : 1e-7;
    u.slope += (T - T_ref) * (entropic_change(e, sto + h) - entropic) / h;
  }
  return u;
}

/// PyBaMM's OCP barrier towards sto -> 0: a softplus that adds 1 mV at
/// sto = 0.001, 1 V at 0, grows linearly below (finite everywhere) and is
/// below 1e-15 V above 0.01 (PyBaMM's U_asymptote_approaching_zero); with
/// its slope -a b sigmoid(z).
VOLTAIC_HD inline ValueSlope ocp_barrier_towards_zero_slope(double sto) {
  constexpr double a = 205.0568621937484, b = 6910.192179565431, c = -7.7e-4;
  const double z = -b * (sto - c);
  if (z < -60.0) return {0.0, 0.0};  // below 2e-24 V: every sto in [0.0095, 1]
  if (z > 36.7) {
    const double e = pmath::exp(-z);
    return {a * (z + pmath::log1p(e)), -a * b / (1.0 + e)};
  }
  const double e = pmath::exp(z);
  return {a * pmath::log1p(e), -a * b * e / (1.0 + e)};
}

VOLTAIC_HD inline double ocp_barrier_towards_zero(double sto) { return ocp_barrier_towards_zero_slope(sto).value; }

/// U as PyBaMM's DFN evaluates it: the fit at the stoichiometry clipped to
/// [1e-10, 1 - 1e-10], plus barriers that push U up as sto -> 0 and down as
/// sto -> 1, so that a particle surface cannot fill or empty past its
/// limits (the reaction reverses first). Finite for every sto.
VOLTAIC_HD VOLTAIC_CPU_CALL inline double guarded_open_circuit_potential(const ElectrodeParameters& e, double sto,
                                                                         double T, double T_ref) {
  constexpr double tol = 1e-10;
  const double clipped = fp::min(fp::max(sto, tol), 1.0 - tol);
  return open_circuit_potential(e, clipped, T, T_ref) + ocp_barrier_towards_zero(sto) -
         ocp_barrier_towards_zero(1.0 - sto);
}

/// guarded_open_circuit_potential and its slope d U / d sto (the clipped
/// fit's slope, the barriers' own).
VOLTAIC_HD VOLTAIC_CPU_CALL inline ValueSlope guarded_open_circuit_potential_slope(const ElectrodeParameters& e,
                                                                                   double sto, double T, double T_ref) {
  constexpr double tol = 1e-10;
  const double clipped = fp::min(fp::max(sto, tol), 1.0 - tol);
  const ValueSlope u = open_circuit_potential_slope(e, clipped, T, T_ref);
  const ValueSlope empty = ocp_barrier_towards_zero_slope(sto), full = ocp_barrier_towards_zero_slope(1.0 - sto);
  return {u.value + empty.value - full.value, u.slope + empty.slope + full.slope};
}

#if VOLTAIC_HAS_LANES4
/// Whether guarded_open_circuit_potential_slope has a four-lane form for e:
/// a built-in fit without an entropic term.
inline bool has_lanes_ocp(const ElectrodeParameters& e) {
  return e.ocp != OcpModel::custom && e.entropic == EntropicModel::none;
}

/// guarded_open_circuit_potential_slope of four lanes (has_lanes_ocp(e)),
/// each lane the scalar's bits; where a lane is near enough to sto = 0 or 1
/// for a barrier to count, the barriers are the scalar's, lane by lane.
inline ValueSlopeOf<lanes::D4> guarded_open_circuit_potential_slope(const ElectrodeParameters& e, lanes::D4 sto,
                                                                    lanes::D4 T, double T_ref) {
  using lanes::D4;
  constexpr double tol = 1e-10;
  const D4 clipped = lanes::min(lanes::max(sto, lanes::splat(tol)), lanes::splat(1.0 - tol));
  ValueSlopeOf<D4> u{};
  switch (e.ocp) {
    case OcpModel::chen2020_graphite_siox: u = graphite_siox_ocp_chen2020_slope(clipped); break;
    case OcpModel::chen2020_nmc811: u = nmc811_ocp_chen2020_slope(clipped); break;
    case OcpModel::dualfoil1998_graphite_mcmb2528: u = graphite_mcmb2528_ocp_dualfoil1998_slope(clipped); break;
    case OcpModel::dualfoil1998_lico2: u = lico2_ocp_dualfoil1998_slope(clipped); break;
    case OcpModel::custom: u = {lanes::splat(NAN), lanes::splat(NAN)}; break;
  }
  u.value = u.value + (T - T_ref) * 0.0;  // open_circuit_potential_slope's entropic term, none
  // ocp_barrier_towards_zero_slope's early return (z < -60) at sto and 1 - sto.
  constexpr double b = 6910.192179565431, c = -7.7e-4;
  ValueSlopeOf<D4> empty{lanes::splat(0.0), lanes::splat(0.0)}, full = empty;
  if (lanes::any(-b * (sto - c) >= -60.0 || -b * ((1.0 - sto) - c) >= -60.0 || sto != sto)) {
    for (int i = 0; i < 4; ++i) {
      const ValueSlope x = ocp_barrier_towards_zero_slope(sto[i]), y = ocp_barrier_towards_zero_slope(1.0 - sto[i]);
      empty.value[i] = x.value;
      empty.slope[i] = x.slope;
      full.value[i] = y.value;
      full.slope[i] = y.slope;
    }
  }
  return {u.value + empty.value - full.value, u.slope + empty.slope + full.slope};
}
#endif

/// kappa(c_e, T) [S/m].
VOLTAIC_HD inline double electrolyte_conductivity(const ElectrolyteParameters& p, double c_e, double T) {
  double k = NAN;
  switch (p.conductivity_model) {
    case ElectrolyteModel::nyman2008: k = electrolyte_conductivity_nyman2008(c_e); break;
    case ElectrolyteModel::capiglia1999: k = electrolyte_conductivity_capiglia1999(c_e); break;
    case ElectrolyteModel::custom: k = p.conductivity_function(c_e); break;
  }
  return k * arrhenius(p.conductivity_activation_energy, T);
}

/// D_e(c_e, T) [m^2/s].
VOLTAIC_HD inline double electrolyte_diffusivity(const ElectrolyteParameters& p, double c_e, double T) {
  double d = NAN;
  switch (p.diffusivity_model) {
    case ElectrolyteModel::nyman2008: d = electrolyte_diffusivity_nyman2008(c_e); break;
    case ElectrolyteModel::capiglia1999: d = electrolyte_diffusivity_capiglia1999(c_e); break;
    case ElectrolyteModel::custom: d = p.diffusivity_function(c_e); break;
  }
  return d * arrhenius(p.diffusivity_activation_energy, T);
}

/// j0 = m(T) sqrt(c_e) sqrt(c_s) sqrt(c_max - c_s) [A/m^2], m(T) = m Arrhenius(E_r, T).
VOLTAIC_HD inline double exchange_current_density(const ElectrodeParameters& e, double c_e, double c_s_surf, double T) {
  return e.reaction_rate_constant * arrhenius(e.reaction_activation_energy, T) * sqrt(c_e) * sqrt(c_s_surf) *
         sqrt(e.maximum_concentration - c_s_surf);
}

/// PyBaMM's regularised power x^(1/2) -> x (x^2 + delta^2)^(-1/4), delta = 1e-3:
/// sqrt(x) to 2e-6 relative above x = 0.5, linear near 0 and odd, so that
/// it is finite (and smooth) through x = 0.
/// Its slope: (1 - x^2 / (2 (x^2 + delta^2))) / (x^2 + delta^2)^(1/4).
template <class D>
VOLTAIC_HD inline ValueSlopeOf<D> regularised_sqrt_slope(D x) {
  constexpr double delta = 1e-3;
  const D s = x * x + delta * delta;
  const D q = root(root(s));
  return {x / q, (1.0 - 0.5 * (x * x) / s) / q};
}

VOLTAIC_HD inline double regularised_sqrt(double x) { return regularised_sqrt_slope(x).value; }

/// j0 as PyBaMM's DFN evaluates it: each square root of
/// exchange_current_density() as regularised_sqrt of c_e / c_e_scale,
/// c_s / c_max and (c_max - c_s) / c_max (c_e_scale the initial electrolyte
/// concentration). Finite for any c_e and c_s: it vanishes as the electrolyte
/// or the particle surface empties or fills, instead of becoming NaN past it.
/// With its slope d j0 / d c_s.
/// The factor of j0 that the particle surface does not change [A/m^2]:
/// k Arrhenius(E_r, T) sqrt(c_e_scale) c_max RegSqrt(c_e / c_e_scale). An
/// implicit reaction's solve moves only the surface, so it takes this once.
VOLTAIC_HD inline double exchange_current_factor(const ElectrodeParameters& e, double c_e, double T, double c_e_scale) {
  return e.reaction_rate_constant * arrhenius(e.reaction_activation_energy, T) * sqrt(c_e_scale) *
         e.maximum_concentration * regularised_sqrt(c_e / c_e_scale);
}

/// j0 and d j0 / d c_s from that factor (regularised_exchange_current_density_slope's bits).
template <class D>
VOLTAIC_HD inline ValueSlopeOf<D> exchange_current_density_slope(const ElectrodeParameters& e, D factor, D c_s_surf) {
  const double c_max = e.maximum_concentration;
  const auto s = regularised_sqrt_slope(c_s_surf / c_max), v = regularised_sqrt_slope((c_max - c_s_surf) / c_max);
  return {factor * s.value * v.value, factor * (s.slope * v.value - s.value * v.slope) / c_max};
}

VOLTAIC_HD inline ValueSlope regularised_exchange_current_density_slope(const ElectrodeParameters& e, double c_e,
                                                                        double c_s_surf, double T, double c_e_scale) {
  return exchange_current_density_slope(e, exchange_current_factor(e, c_e, T, c_e_scale), c_s_surf);
}

VOLTAIC_HD inline double regularised_exchange_current_density(const ElectrodeParameters& e, double c_e, double c_s_surf,
                                                              double T, double c_e_scale) {
  return regularised_exchange_current_density_slope(e, c_e, c_s_surf, T, c_e_scale).value;
}

/// D_s(sto, T) = D_s(298.15 K) Arrhenius(E_D, T) [m^2/s] (no stoichiometry
/// dependence in these sets; the argument keeps the call site general).
VOLTAIC_HD inline double particle_diffusivity(const ElectrodeParameters& e, double /*sto*/, double T) {
  return e.diffusivity * arrhenius(e.diffusivity_activation_energy, T);
}

}  // namespace voltaic::material
