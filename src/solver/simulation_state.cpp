// The two places a Simulation's state lives, as its RunRecorder reads them
// (recorded_state.hpp): the field solvers' arrays, and the cell engine's
// slab of a 1D cell.
#include <iterator>

#include "solver/cell_engine.hpp"
#include "solver/dfn_launch.hpp"
#include "solver/dfn_point.hpp"
#include "solver/simulation_run.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/solver/potential_step.hpp"

namespace voltaic {

namespace {

[[noreturn]] void no_source(const std::string& key) {
  throw InvalidArgument("field \"" + key + "\"", "Simulation", "is in field_catalog() but has no source");
}

}  // namespace

// ---- The field solvers' state -------------------------------------------------

std::map<std::string, std::vector<double>> Simulation::FieldState::arrays() const { return w_.history->to_host(); }

void Simulation::FieldState::load_arrays(const std::map<std::string, std::vector<double>>& arrays, const char* where) {
  w_.history->from_host(arrays, where);
}

double Simulation::FieldState::newton_constant() const { return w_.potential->newton_constant(); }

void Simulation::FieldState::set_newton_constant(double c) { w_.potential->set_newton_constant(c); }

void Simulation::FieldState::temperatures(double lumped, double& mean, double& lo, double& hi) const {
  RecordedState::temperatures(lumped, mean, lo, hi);
  if (w_.heat) w_.heat->temperatures(w_.T.view(), w_.T_foils.view(), mean, lo, hi);  // the whole stack, foils too
}

double Simulation::FieldState::lithium() const {
  w_.particles->lithium(w_.c_s.view(), w_.lithium.view());
  return l_.dot(w_.lithium.view(), l_.particle_counts().view()) +
         l_.dot(w_.c_e.view(), l_.electrolyte_weights().view());
}

View<const double> Simulation::FieldState::source(const std::string& key) const {
  const std::size_t n = l_.num_cells(), layer = l_.grid()->cells_per_layer();
  if (key == "solid_potential") return w_.phi.const_view().subview(0, n);
  if (key == "electrolyte_potential") return w_.phi.const_view().subview(n, n);
  if (key == "electrolyte_concentration") return w_.c_e.const_view();
  if (key == "temperature") return w_.T.const_view();
  if (key == "interfacial_current") return w_.aj.const_view();
  if (key == "heating") return w_.q.const_view();
  if (key == "particle_surface_concentration") return w_.c_surf.const_view();
  const std::string columns[] = {"negative_collector_potential", "positive_collector_potential",
                                 "collector_current_density", "negative_stoichiometry", "column_temperature"};
  for (std::size_t f = 0; f < std::size(columns); ++f)
    if (key == columns[f]) return w_.columns.const_view().subview(f * layer, layer);
  no_source(key);
}

void Simulation::FieldState::column_fields() const {
  const Executor& e = *l_.executor();
  const std::size_t layer = l_.grid()->cells_per_layer();
  const View<double> out = w_.columns.view();
  w_.potential->collector_fields(w_.drive, w_.phi.const_view(), out.subview(0, 3 * layer));
  w_.particles->lithium(w_.c_s.view(), w_.lithium.view());
  dfn::for_each_index(
      e, 0, layer,
      dfn::ColumnStoichiometry{l_.constants(), w_.lithium.data(), l_.particle_counts().data(), out.data() + 3 * layer});
  dfn::for_each_index(e, 0, layer, dfn::ColumnMean{l_.constants().map, w_.T.data(), out.data() + 4 * layer});
}

std::map<std::string, std::vector<double>> Simulation::FieldState::fields() const {
  const Executor& e = *l_.executor();
  column_fields();
  std::map<std::string, std::vector<double>> fields;
  const auto& cut = l_.decomposition();
  for (const FieldInfo& info : field_catalog()) {
    const View<const double> v = source(info.key);
    std::vector<double>& out = fields[info.name];
    out.resize(l_.plane_count(v.size()));
    if (cut) {  // the whole plane's, gathered on every rank
      Array<double> whole(l_.executor(), out.size());
      cut->gather(v.data(), static_cast<int>(v.size() / l_.grid()->cells_per_layer()), whole.data());
      out = whole.to_host();
      continue;
    }
    e.copy(out.data(), MemorySpace::host(), v.data(), v.space(), v.size() * sizeof(double));
  }
  return fields;
}

void Simulation::FieldState::fill(const std::vector<const FieldInfo*>& streamed, const std::vector<View<double>>& frame,
                                  bool blocks) {
  const Executor& e = *l_.executor();
  const std::size_t n = l_.num_cells();
  for (const FieldInfo* info : streamed) {
    if (info->kind == FieldKind::column) {
      column_fields();
      break;
    }
  }
  const auto& cut = l_.decomposition();
  for (std::size_t f = 0; f < streamed.size(); ++f) {
    const FieldInfo& info = *streamed[f];
    const View<const double> from = source(info.key);
    // On a cut plane the block's values go to w.work, then the whole plane's
    // (or this rank's owned cells) into the frame.
    const std::size_t layer = l_.grid()->cells_per_layer(), layers = frame[f].size() / frame_count(l_, blocks, layer);
    const View<double> block = cut ? w_.work.view().subview(0, layers * layer) : frame[f];
    if (info.kind == FieldKind::particle) {  // on the cell grid, NaN in the separator
      dfn::for_each_index(e, 0, n, dfn::ParticlesToCells{l_.constants().map, from.data(), block.data()});
    } else {
      copy(e, from, block);
    }
    if (cut && blocks) cut->owned(block.data(), static_cast<int>(layers), frame[f].data());
    if (cut && !blocks) cut->gather(block.data(), static_cast<int>(layers), frame[f].data());
  }
}

// ---- The cell engine's slab ---------------------------------------------------

std::map<std::string, std::vector<double>> Simulation::EngineState::arrays() const { return e_.state(); }

void Simulation::EngineState::load_arrays(const std::map<std::string, std::vector<double>>& arrays, const char* where) {
  e_.load_state(arrays, where);
}

double Simulation::EngineState::newton_constant() const { return e_.clock().newton_constant; }

void Simulation::EngineState::set_newton_constant(double c) { e_.clock().newton_constant = c; }

double Simulation::EngineState::lithium() const {
  const CellLayout& host = e_.host_layout();
  const program::SlabOffsets& o = e_.settings().o;
  const std::vector<double> lithium = e_.particle_lithium(), c_e = e_.read(o.c_e, host.num_cells());
  const auto view = [](const std::vector<double>& v) {
    return View<const double>(v.data(), v.size(), MemorySpace::host());
  };
  return host.dot(view(lithium), host.particle_counts().view()) +
         host.dot(view(c_e), host.electrolyte_weights().view());
}

std::map<std::string, std::vector<double>> Simulation::EngineState::fields() const {
  std::map<std::string, std::vector<double>> fields;
  for (const FieldInfo& info : field_catalog()) fields[info.name] = field(info, false);
  return fields;
}

void Simulation::EngineState::fill(const std::vector<const FieldInfo*>& streamed,
                                   const std::vector<View<double>>& frame, bool) {
  for (std::size_t f = 0; f < streamed.size(); ++f) {
    const std::vector<double> values = field(*streamed[f], true);
    exec_.copy(frame[f].data(), frame[f].space(), values.data(), MemorySpace::host(), values.size() * sizeof(double));
  }
}

std::vector<double> Simulation::EngineState::field(const FieldInfo& info, bool on_cells) const {
  const program::SlabOffsets& o = e_.settings().o;
  const CellLayout& host = e_.host_layout();
  const DfnConstants& constants = host.constants();
  const std::size_t n = host.num_cells(), P = host.num_particles();
  const std::string& key = info.key;
  if (key == "solid_potential") return e_.read(o.phi, n);
  if (key == "electrolyte_potential") return e_.read(o.phi + n, n);
  if (key == "electrolyte_concentration") return e_.read(o.c_e, n);
  if (key == "temperature") return e_.read(o.T, n);
  if (key == "interfacial_current") return e_.read(o.aj, n);
  if (key == "heating") return e_.read(o.q, n);
  if (key == "particle_surface_concentration") {
    const std::vector<double> surface = e_.read(o.c_surf, P);
    if (!on_cells) return surface;
    std::vector<double> cells(n);
    for (std::size_t c = 0; c < n; ++c) dfn::ParticlesToCells{constants.map, surface.data(), cells.data()}(c);
    return cells;
  }
  // The one column's fields (FieldState::column_fields()). The step is the
  // Simulation's (the engine's may have moved on to the next).
  const program::ProgramClock& k = e_.clock();
  const bool held =
      e_.settings().cycle_size > 0 && e_.host_steps()[step_index_ % e_.host_steps().size()].voltage_control;
  if (key == "negative_collector_potential" || key == "positive_collector_potential" ||
      key == "collector_current_density") {
    dfn::Drive d;
    d.voltage_control = held;
    d.current_density = held ? 0.0 : k.current / host.electrode_area();
    d.voltage = held ? k.voltage : 0.0;
    const std::vector<double> phi = e_.read(o.phi, n);
    double out[3];
    dfn::CollectorFields{constants, d, k.voltage, phi.data(), out}(0);
    const int f = key == "negative_collector_potential" ? 0 : key == "positive_collector_potential" ? 1 : 2;
    return {out[f]};
  }
  if (key == "negative_stoichiometry") {
    const std::vector<double> lithium = e_.particle_lithium();
    double out = 0.0;
    dfn::ColumnStoichiometry{constants, lithium.data(), host.particle_counts().data(), &out}(0);
    return {out};
  }
  if (key == "column_temperature") {
    const std::vector<double> T = e_.read(o.T, n);
    double out = 0.0;
    dfn::ColumnMean{constants.map, T.data(), &out}(0);
    return {out};
  }
  no_source(key);
}

}  // namespace voltaic
