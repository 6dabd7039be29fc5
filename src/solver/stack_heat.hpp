#pragma once
// 3D heat conduction through the whole stack: the cell grid's electrode and
// separator layers between the two current-collector foils, each foil one
// more layer of the heat grid (left out where its thickness is 0). The foils
// carry their own heat capacity, conductivity and Joule heat; the outer faces
// are cooled per face with PyBaMM's pouch-cell coefficients.

#include <memory>

#include "column_correction.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/linalg/krylov.hpp"
#include "voltaic/linalg/solver.hpp"
#include "voltaic/solver/cell_layout.hpp"

namespace voltaic {

/// The cooling of the stack's outer faces [W/(m^2 K)], from the parameter
/// set: an unset face or edge takes the total heat transfer coefficient, an
/// unset tab its edge's.
struct StackCooling {
  double negative_face, positive_face, edge, negative_tab, positive_tab;
  static StackCooling of(const ThermalParameters& t);
};

class StackHeat {
 public:
  /// The relative residual a heat step is accepted at when CG stagnates
  /// above its tolerance. Relative to ||b|| ~ V rho c_p T / dt it stands for
  /// a temperature error of about 1e-8 T (3 uK); the stencil's rounding
  /// floor is about eps lambda dt / (rho c_p dz^2), 1e-10 to 1e-9 for steps
  /// of minutes through 25 um layers.
  static constexpr double kAcceptedResidual = 1e-8;

  StackHeat(const CellLayout& layout, const SolverOptions& options);

  /// One implicit step of rho c_p dT/dt = div(lambda grad T) + q over the
  /// stack, from the temperatures passed in: backward Euler on
  /// StencilOperator's finite volumes (as DiffusionStep), the tabs' extra
  /// cooling a sink in their foil cells, solved by CG with the two-level
  /// ColumnCorrection (one exact z-line solve on a 1 x 1 plane).
  /// @param T the cells' temperatures (num_cells), updated in place
  /// @param T_foils 2 nx ny values: the negative foil's then the positive's,
  ///        updated in place (a left-out foil's part is not touched)
  /// @param q the cells' heat [W/m^3]; q_foils each foil's, as T_foils
  SolveReport step(View<double> T, View<double> T_foils, View<const double> q, View<const double> q_foils, double dt);

  /// The stack's temperatures [negative foil | cells | positive foil], gathered.
  View<const double> gather(View<const double> T, View<const double> T_foils);
  /// The volume-averaged, lowest and highest temperature of the stack [K].
  void temperatures(View<const double> T, View<const double> T_foils, double& mean, double& lo, double& hi);
  /// Volume of each cell of the stack [m^3], in gather()'s order.
  const Array<double>& volumes() const { return volume_; }
  /// The heat grid: the cell grid with a layer per foil.
  const Grid3D& grid() const { return *grid_; }
  /// The total conductance of the outer faces to the ambient [W/K], the
  /// half-cell resistance behind each face included.
  double cooling_conductance() const { return conductance_; }

 private:
  void gather_into(Array<double>& out, View<const double> cells, View<const double> foils) const;

  std::shared_ptr<const Executor> exec_;
  std::shared_ptr<const PlaneDecomposition> cut_;  ///< the layout's (null: the whole plane)
  std::shared_ptr<const Grid3D> grid_;
  std::size_t n_, layer_, offset_;  ///< the cells' first index in the stack
  bool has_[2];                     ///< the foils in the stack
  double ambient_, conductance_ = 0.0, total_volume_ = 0.0;
  Array<double> T_, q_, rho_cp_, lambda_, sink_, sink_ambient_, volume_, mass_, rhs_;
  std::shared_ptr<StencilOperator<double>> op_;
  std::shared_ptr<ZLinePreconditioner<double>> zline_;
  std::shared_ptr<ColumnCorrection> columns_;  ///< null on a 1 x 1 plane
  std::unique_ptr<CgSolver<double>> cg_;
};

}  // namespace voltaic
