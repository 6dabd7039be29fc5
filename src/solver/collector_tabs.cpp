#include "solver/collector_tabs.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic {

std::string to_string(TabEdge e) {
  switch (e) {
    case TabEdge::x_lo: return "the bottom edge (z = 0)";
    case TabEdge::x_hi: return "the top edge (z = electrode height)";
    case TabEdge::y_lo: return "the left edge (y = 0)";
    case TabEdge::y_hi: return "the right edge (y = electrode width)";
  }
  return "?";
}

const std::vector<double>& TabCoverage::of(TabEdge e) const {
  switch (e) {
    case TabEdge::x_lo: return x_lo;
    case TabEdge::x_hi: return x_hi;
    case TabEdge::y_lo: return y_lo;
    default: return y_hi;
  }
}

namespace {

constexpr const char* kWhere = "current collector tabs";

std::string name(const std::string& side, const char* what) { return side + " tab " + what; }

bool on(double v, double edge, double scale) { return std::abs(v - edge) <= 1e-9 * scale; }

/// Fraction of each of `count` faces of size `h` along an edge covered by [lo, hi].
std::vector<double> covered(double lo, double hi, int count, double h) {
  std::vector<double> f(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const double a = std::max(lo, i * h), b = std::min(hi, (i + 1) * h);
    f[static_cast<std::size_t>(i)] = std::clamp((b - a) / h, 0.0, 1.0);
  }
  return f;
}

}  // namespace

TabCoverage tab_coverage(const CurrentCollectorParameters& foil, const std::string& side, double height, double width,
                         int nx, int ny) {
  const std::string w_name = name(side, "width [m]"), y_name = name(side, "centre y-coordinate [m]"),
                    z_name = name(side, "centre z-coordinate [m]");
  for (const auto& [value, key] : {std::pair{foil.tab_width, w_name}, std::pair{foil.tab_centre_y, y_name},
                                   std::pair{foil.tab_centre_z, z_name}}) {
    if (std::isnan(value))
      throw InvalidArgument(key, kWhere,
                            "is unset; the potential-pair current collectors need both tabs (set the tab width and "
                            "centre as parameter overrides)");
  }
  const double cy = foil.tab_centre_y, cz = foil.tab_centre_z, w = foil.tab_width;
  TabCoverage t;
  t.length = w;
  t.x_lo.assign(static_cast<std::size_t>(ny), 0.0);
  t.x_hi = t.x_lo;
  t.y_lo.assign(static_cast<std::size_t>(nx), 0.0);
  t.y_hi = t.y_lo;
  double centre, extent;  // along the edge
  if (on(cz, 0.0, height) || on(cz, height, height)) {
    t.edge = on(cz, 0.0, height) ? TabEdge::x_lo : TabEdge::x_hi;
    centre = cy;
    extent = width;
  } else if (on(cy, 0.0, width) || on(cy, width, width)) {
    t.edge = on(cy, 0.0, width) ? TabEdge::y_lo : TabEdge::y_hi;
    centre = cz;
    extent = height;
  } else {
    std::ostringstream why;
    why << "(" << format_parameter_value(cy) << ", " << format_parameter_value(cz)
        << ") is not on an edge of the electrode plane; allowed: y = 0 or " << format_parameter_value(width)
        << " (the electrode width), or z = 0 or " << format_parameter_value(height) << " (the electrode height)";
    throw InvalidArgument(y_name + " and " + z_name, kWhere, why.str());
  }
  const double lo = centre - w / 2, hi = centre + w / 2;
  if (lo < -1e-9 * extent || hi > extent * (1 + 1e-9)) {
    std::ostringstream why;
    why << "= " << format_parameter_value(w) << " with its centre at " << format_parameter_value(centre)
        << " reaches beyond " << to_string(t.edge) << ", which is " << format_parameter_value(extent)
        << " m long; allowed: the whole tab on its edge";
    throw InvalidArgument(w_name, kWhere, why.str());
  }
  const bool along_y = t.edge == TabEdge::x_lo || t.edge == TabEdge::x_hi;
  std::vector<double> f = along_y ? covered(lo, hi, ny, width / ny) : covered(lo, hi, nx, height / nx);
  switch (t.edge) {
    case TabEdge::x_lo: t.x_lo = std::move(f); break;
    case TabEdge::x_hi: t.x_hi = std::move(f); break;
    case TabEdge::y_lo: t.y_lo = std::move(f); break;
    case TabEdge::y_hi: t.y_hi = std::move(f); break;
  }
  return t;
}

}  // namespace voltaic
