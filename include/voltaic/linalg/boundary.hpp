#pragma once
/// @file boundary.hpp
/// @brief Boundary conditions on the six outer faces of a Grid3D.

#include <array>
#include <string>

namespace voltaic {

/// The six outer faces, in the order BoundaryConditions stores them.
enum class Face { x_lo = 0, x_hi = 1, y_lo = 2, y_hi = 3, z_lo = 4, z_hi = 5 };

enum class BoundaryKind { dirichlet, neumann, robin };

/// One face's condition for -div(k grad u) (u the unknown, n the outward normal):
/// - dirichlet: u = value on the face;
/// - neumann: outward flux -k du/dn = value (0: insulated / no flux);
/// - robin: outward flux -k du/dn = coefficient * (u - value)
///   (convective cooling: coefficient = h, value = ambient temperature).
struct BoundaryCondition {
  BoundaryKind kind = BoundaryKind::neumann;
  double value = 0.0;
  double coefficient = 0.0;

  static BoundaryCondition dirichlet(double u) { return {BoundaryKind::dirichlet, u, 0.0}; }
  static BoundaryCondition neumann(double outward_flux) { return {BoundaryKind::neumann, outward_flux, 0.0}; }
  static BoundaryCondition robin(double h, double ambient) { return {BoundaryKind::robin, ambient, h}; }
  static BoundaryCondition insulated() { return neumann(0.0); }
};

/// Indexed by Face; all insulated by default.
using BoundaryConditions = std::array<BoundaryCondition, 6>;

std::string to_string(Face face);

}  // namespace voltaic
