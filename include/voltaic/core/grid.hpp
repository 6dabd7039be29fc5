#pragma once
/// @file grid.hpp
/// @brief Grid3D: the cell-centred tensor grid, x fastest, z through the cell thickness.

#include <cstddef>
#include <string>
#include <vector>

namespace voltaic {

/// How a z-region is asked for: a name, a number of cells and a thickness.
struct ZRegionSpec {
  std::string name;
  int cells = 0;
  double thickness = 0.0;  ///< [m]
};

/// A named z-region with its half-open cell range [k_begin, k_end) and its uniform spacing.
struct ZRegion {
  std::string name;
  int k_begin = 0;
  int k_end = 0;
  double dz = 0.0;  ///< [m]
  int cells() const { return k_end - k_begin; }
};

/// nx * ny * nz cells; linear index i + nx * (j + ny * k). x and y are the
/// in-plane directions with uniform spacing; z is the through-thickness
/// direction, made of named regions, each with its own uniform spacing.
/// A 1D cell is nx = ny = 1.
class Grid3D {
 public:
  /// @throws InvalidArgument naming the first non-positive size or spacing,
  ///         an empty region list, or a repeated region name
  Grid3D(int nx, int ny, double dx, double dy, std::vector<ZRegionSpec> regions);

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  int nz() const { return nz_; }
  double dx() const { return dx_; }
  double dy() const { return dy_; }
  std::size_t num_cells() const { return static_cast<std::size_t>(nx_) * ny_ * nz_; }
  std::size_t cells_per_layer() const { return static_cast<std::size_t>(nx_) * ny_; }

  std::size_t index(int i, int j, int k) const {
    return static_cast<std::size_t>(i) + static_cast<std::size_t>(nx_) * (j + static_cast<std::size_t>(ny_) * k);
  }

  const std::vector<ZRegion>& regions() const { return regions_; }
  /// The region called `name`; throws InvalidArgument listing the names there are.
  const ZRegion& region(const std::string& name) const;
  /// Index into regions() of the region holding layer k (the per-z table kernels use).
  const std::vector<int>& region_of_layer() const { return region_of_layer_; }
  /// Spacing of each z-layer [m].
  const std::vector<double>& dz() const { return dz_; }
  /// z of each layer's centre [m], from 0 at the first region's outer face.
  std::vector<double> z_centres() const;
  /// Total thickness [m].
  double thickness() const;

 private:
  int nx_, ny_, nz_ = 0;
  double dx_, dy_;
  std::vector<ZRegion> regions_;
  std::vector<int> region_of_layer_;
  std::vector<double> dz_;
};

}  // namespace voltaic
