#pragma once
// The negative electrode's porosity as its films grow, as PyBaMM 26.10.1.1
// writes it with "SEI porosity change" or "lithium plating porosity change"
// (submodels/porosity/reaction_driven_porosity.py; either option turns on
// the same model, which counts every film; docs/theory.md "Porosity
// change"):
//
//   eps = eps_0 - a ((L_sei - L_sei,0) + L_pl + L_dead)
//       = eps_0 - V_sei (c_sei - f c_sei,0) - V_Li (c_pl + c_dead)
//
// (L_sei = c_sei V_sei / a, L_pl = c_pl V_Li / a, a = a0 f with the loss of
// active material, a0 L_sei,0 = V_sei c_sei,0). The electrolyte conserves
// eps c_e; its transport takes eps^b_e, the solid's (1 - eps)^b_s.

#include <cmath>

#include "voltaic/core/macros.hpp"

namespace voltaic::porosity {

/// The negative electrode's constants (trivially copyable, for kernels).
struct Constants {
  bool on = false;
  double eps0 = 0;    ///< initial porosity
  double v_sei = 0;   ///< SEI partial molar volume [m^3/mol] (0 without a film)
  double c_sei0 = 0;  ///< initial c_sei [mol/m^3]
  double v_li = 0;    ///< lithium metal partial molar volume [m^3/mol] (0 without plating)
  double b_e = 0;     ///< Bruggeman exponent of the electrolyte
  double b_s = 0;     ///< Bruggeman exponent of the electrode
};

/// Below it the porosity counts as closed (PyBaMM's "Zero negative electrode
/// porosity cut-off" event): the step fails, naming it.
constexpr double kLeastPorosity = 1e-6;

/// eps at a negative node from its films: c_sei, c_pl, c_dead [mol/m^3]
/// (0 where the model is off) and f = eps_s / eps_s0 (1 without a loss).
VOLTAIC_HD inline double value(const Constants& k, double c_sei, double c_pl, double c_dead, double f) {
  return k.eps0 - k.v_sei * (c_sei - f * k.c_sei0) - k.v_li * (c_pl + c_dead);
}

/// x^b, x >= 0: by sqrt and multiplications for PyBaMM's usual exponents
/// (0, 1.5, whole numbers), the same bits on a CPU and a GPU; pow otherwise.
VOLTAIC_HD inline double bruggeman(double x, double b) {
  if (b == 0.0) return 1.0;
  if (b == 1.5) return x * sqrt(x);
  if (b == floor(b) && b >= 1.0 && b <= 8.0) {
    double y = x;
    for (int i = 1; i < static_cast<int>(b); ++i) y = y * x;
    return y;
  }
  return pow(x, b);
}

}  // namespace voltaic::porosity
