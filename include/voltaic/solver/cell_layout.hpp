#pragma once
/// @file cell_layout.hpp
/// @brief CellLayout: the discretised cell. The Grid3D of one cell (z-regions
/// negative electrode | separator | positive electrode, an in-plane grid over
/// the electrode area), one particle per electrode cell, and the per-region
/// constants that the DFN kernels read.

#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/grid.hpp"
#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/plane_decomposition.hpp"
#include "voltaic/model/parameter_set.hpp"

namespace voltaic {

/// How the current collector foils are modelled.
enum class CurrentCollectorModel : int { uniform = 0, potential_pair = 1 };
/// "uniform", "potential pair" (PyBaMM's option values).
const char* to_string(CurrentCollectorModel m);

/// Resolution of the discretised cell. The defaults are PyBaMM's DFN mesh
/// (20 cells per region and per particle) on a 1D cell.
struct CellGridSpec {
  int negative_cells = 20;  ///< z-cells in the negative electrode, >= 1
  int separator_cells = 20;
  int positive_cells = 20;
  int radial_shells = 20;  ///< finite-volume shells per particle, >= 2
  int nx = 1;              ///< in-plane cells along the electrode height, >= 1
  int ny = 1;              ///< in-plane cells along the electrode width, >= 1
  /// The current collectors (PyBaMM's "current collector" option): uniform
  /// (each foil a perfect conductor: the faces are equipotential) or the
  /// potential pair (each foil a 2D conductor over the grid, tabs on edges).
  CurrentCollectorModel collectors = CurrentCollectorModel::uniform;
};

/// Regions by z: electrodes are the first and last, the separator between.
enum class CellRegion : int { negative = 0, separator = 1, positive = 2 };

/// Where each cell and particle is, as the kernels need it (trivially
/// copyable; `volume` points into the layout's executor memory). The grid's
/// regions are contiguous in z, so a cell's region follows from its index:
/// cells [0, negative_end) are the negative electrode, [positive_begin, cells)
/// the positive one. Particle p belongs to electrode cell p (negative) or
/// p + separator cells (positive).
struct CellMap {
  std::size_t cells = 0;
  std::size_t layer = 0;           ///< cells per z-layer, nx ny
  std::size_t negative_end = 0;    ///< first separator cell
  std::size_t positive_begin = 0;  ///< first positive-electrode cell
  double face_area = 0.0;          ///< dx dy, the area of a z-face [m^2]
  const double* volume = nullptr;  ///< per cell [m^3]

  VOLTAIC_HD CellRegion region_of(std::size_t c) const {
    return c < negative_end ? CellRegion::negative
                            : (c < positive_begin ? CellRegion::separator : CellRegion::positive);
  }
  /// region_of(c) as an index into DfnConstants::region.
  VOLTAIC_HD int region(std::size_t c) const { return static_cast<int>(region_of(c)); }
  VOLTAIC_HD bool in_separator(std::size_t c) const { return region_of(c) == CellRegion::separator; }
  VOLTAIC_HD std::size_t particle_of_cell(std::size_t c) const {
    return c < negative_end ? c : c - (positive_begin - negative_end);
  }
  VOLTAIC_HD std::size_t cell_of_particle(std::size_t p) const {
    return p < negative_end ? p : p + (positive_begin - negative_end);
  }
  VOLTAIC_HD std::size_t particles() const { return negative_end + (cells - positive_begin); }
};

/// Constants of one region, derived from the ParameterSet once.
struct RegionConstants {
  double porosity = 0.0;              ///< eps
  double transport_factor = 0.0;      ///< eps^b of the electrolyte (Bruggeman)
  double solid_conductivity = 0.0;    ///< eps_s^b sigma [S/m]; 0 in the separator
  double surface_area = 0.0;          ///< a = 3 eps_s / R [1/m]; 0 in the separator
  double active_fraction = 0.0;       ///< eps_s
  double particle_radius = 0.0;       ///< R [m]
  double heat_capacity = 0.0;         ///< rho c_p [J/(m^3 K)]
  double thermal_conductivity = 0.0;  ///< lambda [W/(m K)]
};

/// Everything a DFN kernel needs, by value. Its pointers (cell volumes,
/// custom material functions' data) are in one memory space: the layout's
/// executor's (CellLayout::constants()) or the host's (host_constants()).
struct DfnConstants {
  CellMap map;
  RegionConstants region[3];         ///< by CellRegion
  ElectrodeParameters electrode[2];  ///< negative, positive
  ElectrolyteParameters electrolyte;
  double reference_temperature = 0.0;  ///< of U(sto, T)
  double last_layer_dz = 0.0;          ///< [m], of the positive collector's neighbour layer
  double first_layer_dz = 0.0;         ///< [m], of the negative collector's neighbour layer

  VOLTAIC_HD const ElectrodeParameters& electrode_of(int region_index) const { return electrode[region_index / 2]; }
  VOLTAIC_HD const RegionConstants& of(CellRegion r) const { return region[static_cast<int>(r)]; }
  VOLTAIC_HD RegionConstants& of(CellRegion r) { return region[static_cast<int>(r)]; }
};

static_assert(std::is_trivially_copyable_v<DfnConstants>, "kernels take DfnConstants by value");

/// Points the custom material functions of `k` from their data at `from` (a
/// ParameterSet's custom_function_data()) to the same data copied to `to`
/// (device memory, or another set's store).
void rebase_custom_functions(DfnConstants& k, const double* from, const double* to);

/// The discretised cell on one executor.
class CellLayout {
 public:
  /// @throws InvalidArgument naming a bad grid count or parameter (the set is validated)
  CellLayout(const ParameterSet& parameters, const CellGridSpec& spec, std::shared_ptr<const Executor> exec);
  /// One rank's block of the cell's plane cut over several processes: the
  /// grid is the ghosted block's (spec's nx x ny is the whole plane's, and the
  /// spacing its), and the reductions below cover the owned cells of every
  /// rank.
  /// @throws InvalidArgument as above, and when spec's plane is not the decomposition's
  CellLayout(const ParameterSet& parameters, const CellGridSpec& spec, std::shared_ptr<const Executor> exec,
             std::shared_ptr<const PlaneDecomposition> decomposition);

  const ParameterSet& parameters() const { return parameters_; }
  const CellGridSpec& spec() const { return spec_; }
  const std::shared_ptr<const Grid3D>& grid() const { return grid_; }
  const std::shared_ptr<const Executor>& executor() const { return exec_; }
  std::size_t num_cells() const { return grid_->num_cells(); }
  std::size_t num_particles() const { return constants_.map.particles(); }
  /// For kernels: pointers in the executor's memory.
  const DfnConstants& constants() const { return constants_; }
  /// The same constants with every pointer in host memory, for host code that
  /// evaluates material functions or reads volumes through them (on a CUDA
  /// executor constants() points into device memory). The same values as
  /// constants(); on the CPU both point into host memory.
  const DfnConstants& host_constants() const { return host_constants_; }

  /// Per cell, in the executor's memory.
  const Array<double>& volumes() const { return volume_; }                      ///< [m^3]
  const Array<double>& porosity() const { return porosity_; }                   ///< eps
  const Array<double>& solid_conductivity() const { return sigma_; }            ///< [S/m], 0 in the separator
  const Array<double>& heat_capacity() const { return rho_cp_; }                ///< rho c_p [J/(m^3 K)]
  const Array<double>& thermal_conductivity() const { return lambda_; }         ///< [W/(m K)]
  const Array<double>& electrolyte_weights() const { return eps_volume_; }      ///< eps V [m^3]: mol = w . c_e
  const Array<double>& negative_volumes() const { return negative_volume_; }    ///< V on the negative electrode, else 0
  const Array<double>& collector_weights() const { return collector_weight_; }  ///< 1/(nx ny) on the last layer
  /// Per particle.
  const Array<double>& particle_radii() const { return radius_; }  ///< [m]
  /// Particles each particle stands for (eps_s V / (4/3 pi R^3)): mol = w . (lithium per particle).
  const Array<double>& particle_counts() const { return particle_count_; }

  /// The cut of the plane this layout is a block of (null: the whole plane here).
  const std::shared_ptr<const PlaneDecomposition>& decomposition() const { return decomposition_; }
  /// Values of an array of `local` values (whole layers of cells or
  /// particles) over the whole plane: `local` itself unless the plane is cut.
  std::size_t plane_count(std::size_t local) const;
  /// x . y over the whole cell (x, y of whole layers of cells or particles):
  /// the executor's dot, or the decomposition's canonical sum of the owned cells.
  double dot(View<const double> x, View<const double> y) const;
  /// The largest |x| over the whole cell (NaN if one is NaN), as dot().
  double max_abs(View<const double> x) const;
  /// The inner products of per-cell vectors: the executor's, or the owned cells' over every rank.
  const VectorSpace<double>& space() const;

  /// Electrode area carrying the cell current [m^2] (nx ny dx dy).
  double electrode_area() const { return parameters_.electrode_area(); }
  /// Total cell thickness including both current collectors [m].
  double thickness_with_collectors() const;

 private:
  ParameterSet parameters_;
  CellGridSpec spec_;
  std::shared_ptr<const Executor> exec_;
  std::shared_ptr<const Grid3D> grid_;
  std::shared_ptr<const PlaneDecomposition> decomposition_;
  DfnConstants constants_, host_constants_;
  std::vector<double> host_volume_;
  Array<double> function_data_;  ///< the custom functions' data, on a CUDA executor only
  Array<double> volume_, porosity_, sigma_, rho_cp_, lambda_, eps_volume_, negative_volume_, collector_weight_;
  Array<double> radius_, particle_count_;
};

}  // namespace voltaic
