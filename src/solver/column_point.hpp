#pragma once
// The column transfers of ColumnCorrection (column_correction.hpp): one
// thread per column or cell, the same VOLTAIC_HD code on both backends.

#include <cstddef>

#include "voltaic/core/macros.hpp"

namespace voltaic::column {

/// out[col] = sum over the layers k of in[k layer + col], k ascending.
struct Sum {
  std::size_t layer;
  int nz;
  const double* in;
  double* out;
  VOLTAIC_HD void operator()(std::size_t col) const {
    double s = 0.0;
    for (int k = 0; k < nz; ++k) s += in[static_cast<std::size_t>(k) * layer + col];
    out[col] = s;
  }
};

/// x[i] += c[i mod layer]: a column's value added to each of its cells.
struct Add {
  std::size_t layer;
  const double* c;
  double* x;
  VOLTAIC_HD void operator()(std::size_t i) const { x[i] += c[i % layer]; }
};

}  // namespace voltaic::column
