#include "voltaic/core/grid.hpp"

#include <cmath>
#include <numeric>
#include <set>
#include <sstream>

#include "voltaic/core/error.hpp"

namespace voltaic {

namespace {
constexpr const char* kWhere = "Grid3D::Grid3D";

void require_positive(const std::string& what, double value) {
  if (!(value > 0.0) || !std::isfinite(value)) {
    std::ostringstream why;
    why << what << " = " << value << " must be finite and > 0";
    throw InvalidArgument(what, kWhere, why.str());
  }
}
}  // namespace

Grid3D::Grid3D(int nx, int ny, double dx, double dy, std::vector<ZRegionSpec> regions)
    : nx_(nx), ny_(ny), dx_(dx), dy_(dy) {
  require_positive("grid.nx", nx);
  require_positive("grid.ny", ny);
  require_positive("grid.dx", dx);
  require_positive("grid.dy", dy);
  if (regions.empty()) throw InvalidArgument("grid.regions", kWhere, "a grid needs at least one z-region");

  std::set<std::string> seen;
  for (const ZRegionSpec& spec : regions) {
    const std::string key = "grid.regions[" + spec.name + "]";
    if (spec.name.empty()) throw InvalidArgument("grid.regions", kWhere, "a z-region has an empty name");
    if (!seen.insert(spec.name).second) {
      throw InvalidArgument(key, kWhere, "region name '" + spec.name + "' appears twice");
    }
    require_positive(key + ".cells", spec.cells);
    require_positive(key + ".thickness", spec.thickness);
    const double dz = spec.thickness / spec.cells;
    regions_.push_back({spec.name, nz_, nz_ + spec.cells, dz});
    for (int k = 0; k < spec.cells; ++k) {
      region_of_layer_.push_back(static_cast<int>(regions_.size()) - 1);
      dz_.push_back(dz);
    }
    nz_ += spec.cells;
  }
}

const ZRegion& Grid3D::region(const std::string& name) const {
  for (const ZRegion& r : regions_) {
    if (r.name == name) return r;
  }
  std::string names;
  for (const ZRegion& r : regions_) names += (names.empty() ? "" : ", ") + r.name;
  throw InvalidArgument("grid region", "Grid3D::region", "no region '" + name + "'; the grid has: " + names);
}

std::vector<double> Grid3D::z_centres() const {
  std::vector<double> z(nz_);
  double face = 0.0;
  for (int k = 0; k < nz_; ++k) {
    z[k] = face + 0.5 * dz_[k];
    face += dz_[k];
  }
  return z;
}

double Grid3D::thickness() const { return std::accumulate(dz_.begin(), dz_.end(), 0.0); }

}  // namespace voltaic
