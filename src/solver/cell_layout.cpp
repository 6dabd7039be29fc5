#include "voltaic/solver/cell_layout.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "solver/collector_tabs.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic {

namespace {

constexpr double kPi = 3.14159265358979323846;

void check_count(int value, int minimum, const char* key) {
  if (value < minimum) {
    throw InvalidArgument(std::string("CellGridSpec::") + key, "CellLayout",
                          "is " + std::to_string(value) + "; it must be at least " + std::to_string(minimum));
  }
}

RegionConstants electrode_constants(const ElectrodeParameters& e) {
  RegionConstants r;
  r.porosity = e.porosity;
  r.transport_factor = std::pow(e.porosity, e.bruggeman_electrolyte);
  // PyBaMM's electrode transport efficiency (1 - eps)^b_s: the whole solid
  // (active material, binder, carbon) conducts, not eps_s alone.
  r.solid_conductivity = std::pow(1.0 - e.porosity, e.bruggeman_electrode) * e.conductivity;
  r.surface_area = 3.0 * e.active_material_volume_fraction / e.particle_radius;
  r.active_fraction = e.active_material_volume_fraction;
  r.particle_radius = e.particle_radius;
  r.heat_capacity = e.density * e.specific_heat_capacity;
  r.thermal_conductivity = e.thermal_conductivity;
  return r;
}

RegionConstants separator_constants(const SeparatorParameters& s) {
  RegionConstants r;
  r.porosity = s.porosity;
  r.transport_factor = std::pow(s.porosity, s.bruggeman_electrolyte);
  r.heat_capacity = s.density * s.specific_heat_capacity;
  r.thermal_conductivity = s.thermal_conductivity;
  return r;
}

}  // namespace

void rebase_custom_functions(DfnConstants& k, const double* from, const double* to) {
  CustomFunction* handles[] = {&k.electrode[0].ocp_function,         &k.electrode[0].entropic_function,
                               &k.electrode[1].ocp_function,         &k.electrode[1].entropic_function,
                               &k.electrolyte.conductivity_function, &k.electrolyte.diffusivity_function};
  for (CustomFunction* f : handles)
    if (f->data != nullptr) f->data = to + (f->data - from);
}

const char* to_string(CurrentCollectorModel m) {
  return m == CurrentCollectorModel::potential_pair ? "potential pair" : "uniform";
}

namespace {

/// The potential pair models one electrode pair's foils: its plane is the
/// electrode's height by its width, and both tabs must sit on its edges.
void check_collectors(const ParameterSet& p, const CellGridSpec& spec) {
  if (p.cell.electrodes_in_parallel != 1.0)
    throw InvalidArgument("Number of electrodes connected in parallel to make a cell", "CellLayout",
                          "= " + format_parameter_value(p.cell.electrodes_in_parallel) +
                              " with the potential-pair current collectors; allowed: 1 (the collectors model one "
                              "electrode pair's foils)");
  for (const CurrentCollectorParameters* c : {&p.negative_current_collector, &p.positive_current_collector}) {
    const std::string side = c == &p.negative_current_collector ? "Negative" : "Positive";
    if (!(c->thickness > 0.0))
      throw InvalidArgument(side + " current collector thickness [m]", "CellLayout",
                            "= 0 with the potential-pair current collectors; allowed: > 0 (a foil that conducts)");
    (void)tab_coverage(*c, side, p.cell.electrode_height, p.cell.electrode_width, spec.nx, spec.ny);
  }
}

/// The decomposition cuts spec's plane, on the host.
void check_decomposition(const CellGridSpec& spec, const PlaneDecomposition& d, const Executor& exec) {
  if (exec.memory_space() != d.memory_space())
    throw InvalidArgument("executor", "CellLayout",
                          "is " + exec.name() + " (" + to_string(exec.memory_space()) +
                              " memory); the decomposition's arrays are in " + to_string(d.memory_space()) +
                              " memory: make it for this executor");
  if (d.plane_nx() != spec.nx || d.plane_ny() != spec.ny)
    throw InvalidArgument("CellGridSpec::nx, ny", "CellLayout",
                          "are " + std::to_string(spec.nx) + " x " + std::to_string(spec.ny) +
                              "; the decomposition cuts a plane of " + std::to_string(d.plane_nx()) + " x " +
                              std::to_string(d.plane_ny()) + " columns");
}

}  // namespace

CellLayout::CellLayout(const ParameterSet& parameters, const CellGridSpec& spec, std::shared_ptr<const Executor> exec)
    : CellLayout(parameters, spec, std::move(exec), nullptr) {}

CellLayout::CellLayout(const ParameterSet& parameters, const CellGridSpec& spec, std::shared_ptr<const Executor> exec,
                       std::shared_ptr<const PlaneDecomposition> decomposition)
    : parameters_(parameters), spec_(spec), exec_(std::move(exec)), decomposition_(std::move(decomposition)) {
  if (!exec_) throw InvalidArgument("executor", "CellLayout", "must not be null");
  parameters_.validate();
  check_count(spec.negative_cells, 1, "negative_cells");
  check_count(spec.separator_cells, 1, "separator_cells");
  check_count(spec.positive_cells, 1, "positive_cells");
  check_count(spec.radial_shells, 2, "radial_shells");
  check_count(spec.nx, 1, "nx");
  check_count(spec.ny, 1, "ny");
  const ParameterSet& p = parameters_;
  if (decomposition_) check_decomposition(spec, *decomposition_, *exec_);
  if (spec.collectors == CurrentCollectorModel::potential_pair) check_collectors(p, spec);
  // In-plane: the electrode height along x, the width (times the electrodes
  // in parallel) along y, so nx ny dx dy is the electrode area.
  const double dx = p.cell.electrode_height / spec.nx;
  const double dy = p.cell.electrode_width * p.cell.electrodes_in_parallel / spec.ny;
  const int nx = decomposition_ ? decomposition_->ghosted_nx() : spec.nx;
  const int ny = decomposition_ ? decomposition_->ghosted_ny() : spec.ny;
  grid_ = std::make_shared<const Grid3D>(
      nx, ny, dx, dy,
      std::vector<ZRegionSpec>{{"negative electrode", spec.negative_cells, p.negative_electrode.thickness},
                               {"separator", spec.separator_cells, p.separator.thickness},
                               {"positive electrode", spec.positive_cells, p.positive_electrode.thickness}});
  const Grid3D& g = *grid_;
  const std::size_t n = g.num_cells(), layer = g.cells_per_layer();

  DfnConstants& k = constants_;
  k.of(CellRegion::negative) = electrode_constants(p.negative_electrode);
  k.of(CellRegion::separator) = separator_constants(p.separator);
  k.of(CellRegion::positive) = electrode_constants(p.positive_electrode);
  k.electrode[0] = p.negative_electrode;
  k.electrode[1] = p.positive_electrode;
  k.electrolyte = p.electrolyte;
  k.reference_temperature = p.thermal.reference_temperature;
  k.first_layer_dz = g.dz().front();
  k.last_layer_dz = g.dz().back();
  k.map.cells = n;
  k.map.layer = layer;
  k.map.negative_end = static_cast<std::size_t>(spec.negative_cells) * layer;
  k.map.positive_begin = static_cast<std::size_t>(spec.negative_cells + spec.separator_cells) * layer;
  k.map.face_area = dx * dy;

  std::vector<double> volume(n), eps(n), sigma(n), rho_cp(n), lambda(n), eps_volume(n), negative(n, 0.0),
      collector(n, 0.0);
  for (std::size_t c = 0; c < n; ++c) {
    const RegionConstants& r = k.region[k.map.region(c)];
    volume[c] = dx * dy * g.dz()[c / layer];
    eps[c] = r.porosity;
    sigma[c] = r.solid_conductivity;
    rho_cp[c] = r.heat_capacity;
    lambda[c] = r.thermal_conductivity;
    eps_volume[c] = r.porosity * volume[c];
    if (k.map.region_of(c) == CellRegion::negative) negative[c] = volume[c];
    if (c >= n - layer) collector[c] = 1.0 / (static_cast<double>(spec.nx) * spec.ny);
  }
  const std::size_t particles = k.map.particles();
  std::vector<double> radius(particles), count(particles);
  for (std::size_t q = 0; q < particles; ++q) {
    const std::size_t c = k.map.cell_of_particle(q);
    const RegionConstants& r = k.region[k.map.region(c)];
    radius[q] = r.particle_radius;
    count[q] = r.active_fraction * volume[c] / (4.0 / 3.0 * kPi * std::pow(r.particle_radius, 3));
  }
  volume_ = Array<double>::from_host(exec_, volume);
  porosity_ = Array<double>::from_host(exec_, eps);
  sigma_ = Array<double>::from_host(exec_, sigma);
  rho_cp_ = Array<double>::from_host(exec_, rho_cp);
  lambda_ = Array<double>::from_host(exec_, lambda);
  eps_volume_ = Array<double>::from_host(exec_, eps_volume);
  negative_volume_ = Array<double>::from_host(exec_, negative);
  collector_weight_ = Array<double>::from_host(exec_, collector);
  radius_ = Array<double>::from_host(exec_, radius);
  particle_count_ = Array<double>::from_host(exec_, count);
  k.map.volume = volume_.data();

  // The handles point into parameters_' function store, which this layout
  // keeps alive; kernels on a GPU need the data there.
  host_volume_ = std::move(volume);
  host_constants_ = k;
  host_constants_.map.volume = host_volume_.data();
  const std::vector<double>& functions = p.custom_function_data();
  if (exec_->memory_space() != MemorySpace::host() && !functions.empty()) {
    function_data_ = Array<double>::from_host(exec_, functions);
    rebase_custom_functions(k, functions.data(), function_data_.data());
  }
}

std::size_t CellLayout::plane_count(std::size_t local) const {
  if (!decomposition_) return local;
  const std::size_t layer = grid_->cells_per_layer();
  return local / layer * static_cast<std::size_t>(spec_.nx) * static_cast<std::size_t>(spec_.ny);
}

double CellLayout::dot(View<const double> x, View<const double> y) const {
  if (!decomposition_) return voltaic::dot(*exec_, x, y);
  return decomposition_->dot(x.data(), y.data(), static_cast<int>(x.size() / grid_->cells_per_layer()));
}

double CellLayout::max_abs(View<const double> x) const {
  if (!decomposition_) return voltaic::max_abs(*exec_, x);
  return decomposition_->max_abs(x.data(), static_cast<int>(x.size() / grid_->cells_per_layer()));
}

const VectorSpace<double>& CellLayout::space() const {
  return decomposition_ ? decomposition_->space<double>(grid_->nz()) : VectorSpace<double>::local();
}

double CellLayout::thickness_with_collectors() const {
  return parameters_.negative_current_collector.thickness + grid_->thickness() +
         parameters_.positive_current_collector.thickness;
}

}  // namespace voltaic
