// A 1D cell's program on its executor (cell_engine.hpp): the slab, the
// constants and the clock, one call per row; on CUDA the clock crosses to
// the device and back around each call.
#include "solver/cell_engine.hpp"

#include "core/backend_dispatch.hpp"
#include "solver/cell_program.hpp"
#include "solver/cell_program_cpu.hpp"
#include "solver/cell_program_launch.hpp"
#include "solver/cell_program_setup.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic::program {

namespace {
constexpr const char* kWhere = "Simulation";
}  // namespace

CellEngine::CellEngine(const ParameterSet& parameters, const SimulationOptions& options,
                       std::shared_ptr<const Executor> exec)
    : exec_(std::move(exec)) {
  s_ = settings_for(options, 1);
  s_.pause_at_step_ends = true;
  const std::vector<double>& functions = parameters.custom_function_data();
  functions_ = Array<double>::from_host(exec_, functions);
  host_ = std::make_unique<CellLayout>(parameters, options.grid, CpuExecutor::create());
  std::vector<double> statics(constant_doubles(s_.o));
  c_ = cell_constants(*host_, options, s_.o, functions, functions_.data(), statics.data(), kWhere);
  slab_ = Array<double>(exec_, s_.o.total);
  fill(*exec_, slab_.view(), 0.0);
  write(0, statics);
  c_.k.map.volume = slab_.data() + s_.o.volume;
  ParticleOptions po;
  po.surface = options.surface;
  unit_radius_ = Array<double>::from_host(exec_, {1.0});
  shells_ = std::make_unique<ParticleDiffusion<double>>(exec_, s_.R, unit_radius_.view(), po);
  s_.mesh = shells_->mesh();
  host_particles_ =
      std::make_unique<ParticleDiffusion<double>>(host_->executor(), s_.R, host_->particle_radii().view(), po);
  if (exec_->backend() != Backend::cpu) {
    device_constants_ = Array<CellConstants>::from_host(exec_, {c_});
    device_clock_ = Array<ProgramClock>(exec_, 1);
  }
  call(true);
}

CellEngine::~CellEngine() = default;

void CellEngine::start(const Experiment& experiment, std::size_t first, bool resuming) {
  std::vector<double> tables;
  host_steps_ = compile_experiment(experiment, tables);
  steps_ = Array<ProgramStep>::from_host(exec_, host_steps_);
  tables_ = Array<double>::from_host(exec_, tables);
  s_.steps = steps_.data();
  s_.tables = tables_.data();
  s_.cycle_size = static_cast<int>(host_steps_.size());
  s_.total_steps = static_cast<long long>(experiment.total_steps());
  k_.step = static_cast<long long>(first);
  k_.step_started = resuming;
  k_.ending = Ending::running;
  k_.failure = Failure::none;
}

void CellEngine::advance() {
  k_.rows = 0;
  if (k_.ending == Ending::running) call(false);
}

void CellEngine::call(bool initialise) {
  if (exec_->backend() == Backend::cpu) {
    CellRun run(s_, c_, k_, slab_.data());
    initialise ? initialise_on_cpu(run) : advance_on_cpu(run);
    return;
  }
#if VOLTAIC_HAS_CUDA
  const CudaExecutor& cuda = detail::as_cuda(*exec_);
  const cuda::ProgramCells cell{device_constants_.data(), device_clock_.data(), slab_.data(), 1};
  if (initialise) {
    cuda::cell_program_initialise(cuda, s_, cell);
  } else {
    exec_->copy(device_clock_.data(), device_clock_.space(), &k_, MemorySpace::host(), sizeof(ProgramClock));
    cuda::cell_program_advance(cuda, s_, cell);
  }
  exec_->copy(&k_, MemorySpace::host(), device_clock_.data(), device_clock_.space(), sizeof(ProgramClock));
#endif
}

std::vector<double> CellEngine::read(std::size_t offset, std::size_t size) const {
  std::vector<double> out(size);
  exec_->copy(out.data(), MemorySpace::host(), slab_.data() + offset, slab_.space(), size * sizeof(double));
  return out;
}

void CellEngine::write(std::size_t offset, const std::vector<double>& values) {
  exec_->copy(slab_.data() + offset, slab_.space(), values.data(), MemorySpace::host(), values.size() * sizeof(double));
}

std::vector<CellEngine::Level> CellEngine::levels() const {
  const SlabOffsets& o = s_.o;
  const auto n = static_cast<std::size_t>(s_.n), P = static_cast<std::size_t>(s_.P);
  const std::size_t R = static_cast<std::size_t>(s_.R);
  std::vector<Level> out = {{"c_s", o.c_s, o.c_s_levels, R * P, 2},
                            {"c_e", o.c_e, o.c_e_levels, n, 3},
                            {"c_surf", o.c_surf, o.c_surf_levels, P, 3},
                            {"phi", o.phi, o.phi_levels, 2 * n, 3},
                            {"aj", o.aj, o.aj_levels, n, 3}};
  if (s_.sei) {
    out.push_back({"c_sei", o.c_sei, o.c_sei_levels, n, 3});
    out.push_back({"aj_sei", o.aj_sei, o.aj_sei_levels, n, 3});
  }
  if (s_.plating) {
    out.push_back({"c_pl", o.c_pl, o.c_pl_levels, n, 3});
    out.push_back({"c_dead", o.c_dead, o.c_dead_levels, n, 3});
    out.push_back({"aj_pl", o.aj_pl, o.aj_pl_levels, n, 3});
  }
  if (s_.lam) {
    out.push_back({"active", o.active, o.active_levels, n, 3});
    out.push_back({"lam_li", o.lam_li, o.lam_li_levels, n, 3});
  }
  return out;
}

CellEngine::SeiFilm CellEngine::sei_film() const {
  SeiFilm f;
  if (!s_.sei) return f;
  // One read of the film's state; the volumes are the host layout's.
  const std::vector<double> c = read(s_.o.c_sei, static_cast<std::size_t>(s_.n));
  const std::vector<double> volume = host_->volumes().to_host();
  const std::vector<double> active_left = active();
  const CellMap& m = host_->host_constants().map;
  double moles = 0.0, film = 0.0, negative = 0.0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (m.region_of(i) != CellRegion::negative) continue;
    moles += (c[i] - c_.sei.c0) * volume[i];
    film += c[i] * c_.sei.c_to_l / active_left[i] * volume[i];  // L_sei = c_sei V_bar / a, a = a0 f
    negative += volume[i];
  }
  f.lithium_lost = c_.sei.z * moles;
  f.thickness = film / negative;
  return f;
}

double CellEngine::negative_porosity() const {
  const auto n = static_cast<std::size_t>(s_.n);
  const std::vector<double> volume = host_->volumes().to_host();
  const std::vector<double> none(n, 0.0);
  const std::vector<double> c_sei = s_.sei ? read(s_.o.c_sei, n) : none;
  const std::vector<double> c_pl = s_.plating ? read(s_.o.c_pl, n) : none;
  const std::vector<double> c_dead = s_.plating ? read(s_.o.c_dead, n) : none;
  const std::vector<double> f = active();
  const CellMap& m = host_->host_constants().map;
  const double eps0 = host_->parameters().negative_electrode.porosity;
  double sum = 0.0, negative = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (m.region_of(i) != CellRegion::negative) continue;
    const double eps = s_.porosity_change ? porosity::value(c_.porosity, c_sei[i], c_pl[i], c_dead[i], f[i]) : eps0;
    sum += eps * volume[i];
    negative += volume[i];
  }
  return sum / negative;
}

CellEngine::PlatedLithium CellEngine::plated_lithium() const {
  PlatedLithium f;
  if (!s_.plating) return f;
  const auto n = static_cast<std::size_t>(s_.n);
  const std::vector<double> plated = read(s_.o.c_pl, n), dead = read(s_.o.c_dead, n);
  const std::vector<double> volume = host_->volumes().to_host();
  const CellMap& m = host_->host_constants().map;
  double moles = 0.0, negative = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (m.region_of(i) != CellRegion::negative) continue;
    moles += (plated[i] + dead[i]) * volume[i];
    f.plated += plated[i] * volume[i];
    f.dead += dead[i] * volume[i];
    negative += volume[i];
  }
  f.lithium_lost = moles;
  f.plated /= negative;
  f.dead /= negative;
  return f;
}

std::size_t CellEngine::level_offset(const Level& l, int i) const {
  const int rotation = l.count == 3 ? k_.rotation3 : k_.rotation2;
  return l.levels + static_cast<std::size_t>((i + rotation) % l.count) * l.size;
}

std::map<std::string, std::vector<double>> CellEngine::state() const {
  std::map<std::string, std::vector<double>> out;
  for (const Level& l : levels()) {
    out[l.name] = read(l.live, l.size);
    for (int i = 0; i < l.count; ++i)
      out[std::string(l.name) + "@" + std::to_string(i)] = read(level_offset(l, i), l.size);
  }
  // The cells' temperature is the lumped one everywhere, at every level.
  const auto n = static_cast<std::size_t>(s_.n);
  out["T"] = read(s_.o.T, n);
  for (int i = 0; i < 3; ++i) out["T@" + std::to_string(i)] = std::vector<double>(n, k_.lumped_history[i]);
  return out;
}

void CellEngine::load_state(const std::map<std::string, std::vector<double>>& arrays, const char* where) {
  const auto get = [&](const std::string& name, std::size_t size) -> const std::vector<double>& {
    const auto it = arrays.find(name);
    if (it == arrays.end()) throw InvalidArgument("checkpoint", where, "has no array '" + name + "'");
    if (it->second.size() != size)
      throw InvalidArgument("checkpoint", where, "array '" + name + "' has the wrong size");
    return it->second;
  };
  k_.rotation3 = k_.rotation2 = 0;
  for (const Level& l : levels()) {
    write(l.live, get(l.name, l.size));
    for (int i = 0; i < l.count; ++i)
      write(level_offset(l, i), get(std::string(l.name) + "@" + std::to_string(i), l.size));
  }
  const auto n = static_cast<std::size_t>(s_.n);
  write(s_.o.T, get("T", n));
  for (int i = 0; i < 3; ++i) get("T@" + std::to_string(i), n);  // implied by the lumped history; checked
}

std::vector<double> CellEngine::particle_lithium() const {
  const auto P = static_cast<std::size_t>(s_.P);
  const std::vector<double> c_s = read(s_.o.c_s, P * static_cast<std::size_t>(s_.R));
  std::vector<double> out(P);
  host_particles_->lithium(View<const double>(c_s.data(), c_s.size(), MemorySpace::host()),
                           View<double>(out.data(), out.size(), MemorySpace::host()));
  if (s_.lam) {  // a node's particles hold its active material: eps_s = eps_s0 f of them
    const std::vector<double> f = active();
    const CellMap& m = host_->host_constants().map;
    for (std::size_t q = 0; q < P; ++q) out[q] *= f[m.cell_of_particle(q)];
  }
  return out;
}

std::vector<double> CellEngine::active() const {
  const auto n = static_cast<std::size_t>(s_.n);
  return s_.lam ? read(s_.o.active, n) : std::vector<double>(n, 1.0);
}

CellEngine::ActiveMaterial CellEngine::active_material() const {
  ActiveMaterial a;
  if (!s_.lam) return a;
  const auto n = static_cast<std::size_t>(s_.n);
  const std::vector<double> f = active(), li = read(s_.o.lam_li, n);
  const std::vector<double> volume = host_->volumes().to_host();
  const CellMap& m = host_->host_constants().map;
  double electrode_volume[2] = {0.0, 0.0}, lost[2] = {0.0, 0.0};
  for (std::size_t i = 0; i < n; ++i) {
    if (m.in_separator(i)) continue;
    const int e = m.region(i) / 2;
    lost[e] += (1.0 - f[i]) * volume[i];  // exactly 0 where nothing is lost
    a.lithium_lost[e] += li[i] * volume[i];
    electrode_volume[e] += volume[i];
  }
  for (int e = 0; e < 2; ++e) a.fraction[e] = 1.0 - lost[e] / electrode_volume[e];
  return a;
}

}  // namespace voltaic::program
