#pragma once
// What the pack tests share: small lumped cells and a table of unlike ones.

#include <cstddef>

#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic::test {

/// A pack's cells: a coarse 1D grid, lumped, events located to 1e-10.
inline SimulationOptions cell_options() {
  SimulationOptions o;
  o.grid = {10, 6, 10, 10, 1, 1};
  o.thermal = ThermalModel::lumped;
  o.steps.event_tolerance = 1e-10;
  return o;
}

/// Unlike cells: thicker and thinner negatives, larger and smaller positive particles.
inline CellParameters unlike_cells(std::size_t count) {
  CellParameters c{{"Negative electrode thickness [m]", "Positive particle radius [m]"}, {}};
  for (std::size_t i = 0; i < count; ++i) {
    c.values.push_back(85.2e-6 * (0.85 + 0.3 * double(i) / double(count - 1)));
    c.values.push_back(5.22e-6 * (1.15 - 0.3 * double((i * 5) % count) / double(count - 1)));
  }
  return c;
}

}  // namespace voltaic::test
