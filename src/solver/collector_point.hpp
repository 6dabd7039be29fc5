#pragma once
// Per-column functors of the potential-pair current collectors
// (collector_system.hpp): the couplings between each column's two face cells
// and the foil potentials over it. Columns are the in-plane cells: column
// `col` has its negative face cell `col` and its positive face cell
// `n - layer + col` (n cells, `layer` = nx ny). Unknowns are laid out as
// [phi_s (n); phi_e (n); foil_negative (layer); foil_positive (layer)].
// One VOLTAIC_HD call per index, run by dfn::for_each_index.

#include <cstddef>

#include "voltaic/core/macros.hpp"

namespace voltaic::collector {

/// y += the off-diagonal blocks of the Jacobian: each face cell and its foil
/// node are coupled by -G (G the face's half-cell conductance).
template <class T>
struct FaceCoupling {
  std::size_t n, layer;
  T g_negative, g_positive;
  const T* x;
  T* y;

  VOLTAIC_HD void operator()(std::size_t col) const {
    const std::size_t lo = col, hi = n - layer + col, fn = 2 * n + col, fp = 2 * n + layer + col;
    y[lo] -= g_negative * x[fn];
    y[hi] -= g_positive * x[fp];
    y[fn] -= g_negative * x[lo];
    y[fp] -= g_positive * x[hi];
  }
};

/// The foils' residual rows, from A_foil phi_foil (the plane operator's
/// product, in `plane`): minus the face cells' coupling, plus what the
/// positive tab takes out (current control: the column's share of I) or
/// minus the Dirichlet value's term (voltage control: d V).
struct FoilResidual {
  std::size_t n, layer;
  double g_negative, g_positive;
  double current;  ///< [A], > 0 discharge (current control; else 0)
  double voltage;  ///< [V] (voltage control; else 0)
  const double *phi, *plane, *tab_share, *tab_dirichlet;
  double* residual;

  VOLTAIC_HD void operator()(std::size_t col) const {
    const std::size_t lo = col, hi = n - layer + col;
    residual[2 * n + col] = plane[col] - g_negative * phi[lo];
    residual[2 * n + layer + col] =
        plane[layer + col] - g_positive * phi[hi] + current * tab_share[col] - voltage * tab_dirichlet[col];
  }
};

/// The Schur complement's 2x2 block of each column: the foil nodes' own
/// conductance to their face cells, minus what the column passes on,
/// G - G Z^{-1} G with Z the column's block-tridiagonal matrix (zb, zt: Z^{-1}
/// of the unit vectors at the negative and positive face cells' phi_s).
struct SchurBlocks {
  std::size_t n, layer;
  double g_negative, g_positive;
  const double *zb, *zt;
  double *b00, *b01, *b10, *b11;

  VOLTAIC_HD void operator()(std::size_t col) const {
    const std::size_t lo = col, hi = n - layer + col;
    b00[col] = g_negative - g_negative * g_negative * zb[lo];
    b01[col] = -g_negative * g_positive * zt[lo];
    b10[col] = -g_positive * g_negative * zb[hi];
    b11[col] = g_positive - g_positive * g_positive * zt[hi];
  }
};

/// Block elimination, forward: t = r_foil - C y with y = Z^{-1} r_cells
/// (C holds -G at each column's two face cells).
template <class T>
struct SchurForward {
  std::size_t n, layer;
  T g_negative, g_positive;
  const T *r, *y;
  T* t;

  VOLTAIC_HD void operator()(std::size_t col) const {
    t[col] = r[2 * n + col] + g_negative * y[col];
    t[layer + col] = r[2 * n + layer + col] + g_positive * y[n - layer + col];
  }
};

/// Block elimination, back: z_cells = y + Z^{-1} (G w at the face cells),
/// with Z^{-1} of the unit face vectors kept from the update (zb, zt).
template <class T>
struct SchurBack {
  std::size_t n, layer;
  T g_negative, g_positive;
  const T *w, *zb, *zt;
  T* z;

  VOLTAIC_HD void operator()(std::size_t e) const {
    const std::size_t col = (e % n) % layer;
    z[e] += g_negative * w[col] * zb[e] + g_positive * w[layer + col] * zt[e];
  }
};

}  // namespace voltaic::collector

namespace voltaic::collector {

/// The foils' Joule heat per column [W]: heat[col] the negative foil's,
/// heat[L + col] the positive foil's. Each in-plane face's dissipation
/// G (u_a - u_b)^2 is shared half and half by its two columns; the tab
/// faces' dissipation goes to the column they touch.
struct FoilJoule {
  int nx, ny;
  double gx[2], gy[2];  ///< face conductances of each foil along x and y [S]
  bool voltage_control;
  double current, voltage;
  const double *foil, *negative_dirichlet, *tab_dirichlet, *tab_share;
  double* heat;

  VOLTAIC_HD void operator()(std::size_t col) const {
    const std::size_t layer = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
    const std::size_t i = col % static_cast<std::size_t>(nx), j = col / static_cast<std::size_t>(nx);
    for (int f = 0; f < 2; ++f) {
      const double* u = foil + f * layer;
      const auto face = [&](double g, std::size_t other) {
        return 0.5 * g * (u[other] - u[col]) * (u[other] - u[col]);
      };
      double w = 0.0;
      if (i > 0) w += face(gx[f], col - 1);
      if (i + 1 < static_cast<std::size_t>(nx)) w += face(gx[f], col + 1);
      if (j > 0) w += face(gy[f], col - nx);
      if (j + 1 < static_cast<std::size_t>(ny)) w += face(gy[f], col + nx);
      heat[f * layer + col] = w;
    }
    heat[col] += negative_dirichlet[col] * foil[col] * foil[col];
    if (voltage_control) {
      const double drop = foil[layer + col] - voltage;
      heat[layer + col] += tab_dirichlet[col] * drop * drop;
    } else if (tab_dirichlet[col] > 0.0) {
      const double i_tab = current * tab_share[col];
      heat[layer + col] += i_tab * i_tab / tab_dirichlet[col];
    }
  }
};

}  // namespace voltaic::collector
