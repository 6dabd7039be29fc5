#pragma once
// Where the two tabs sit on the edges of the in-plane grid: PyBaMM's tab
// parameters (a centre on an edge of the electrode plane and a width) turned
// into the fraction of each boundary face of the grid that a tab covers.

#include <string>
#include <vector>

#include "voltaic/model/parameter_set.hpp"

namespace voltaic {

/// The in-plane edges. PyBaMM's plane has y along the electrode width and z
/// along its height; ours has x along the height and y along the width, so
/// PyBaMM's bottom / top (z = 0 / z = H) are x_lo / x_hi and its left / right
/// (y = 0 / y = W) are y_lo / y_hi.
enum class TabEdge : int { x_lo = 0, x_hi = 1, y_lo = 2, y_hi = 3 };
std::string to_string(TabEdge e);

/// One tab on the nx x ny grid of an electrode of height H (along x) and
/// width W (along y).
struct TabCoverage {
  TabEdge edge = TabEdge::x_hi;
  double length = 0.0;  ///< [m], the tab's width
  /// Covered fraction of each boundary face of each edge (x edges: ny faces,
  /// y edges: nx faces); zero on the three edges without the tab.
  std::vector<double> x_lo, x_hi, y_lo, y_hi;
  /// The fractions of `e`.
  const std::vector<double>& of(TabEdge e) const;
};

/// The tab of `foil` ("Negative" or "Positive": for the error messages).
/// @throws InvalidArgument naming PyBaMM's tab parameter when the tab is
///         unset, its centre is not on an edge, or it does not fit its edge
TabCoverage tab_coverage(const CurrentCollectorParameters& foil, const std::string& side, double height, double width,
                         int nx, int ny);

}  // namespace voltaic
