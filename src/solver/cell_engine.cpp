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
  auto host = std::make_unique<CellLayout>(parameters, options.grid, CpuExecutor::create());
  std::vector<double> statics(constant_doubles(s_.o));
  c_ = cell_constants(*host, options, s_.o, functions, functions_.data(), statics.data(), kWhere);
  totals_ = std::make_unique<CellTotals>(std::move(host), options, s_, c_);
  slab_ = Array<double>(exec_, s_.o.total);
  fill(*exec_, slab_.view(), 0.0);
  write(0, statics);
  c_.k.map.volume = slab_.data() + s_.o.volume;
  ParticleOptions po;
  po.surface = options.surface;
  unit_radius_ = Array<double>::from_host(exec_, {1.0});
  shells_ = std::make_unique<ParticleDiffusion<double>>(exec_, s_.R, unit_radius_.view(), po);
  s_.mesh = shells_->mesh();
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

CellRun CellEngine::run_here() {
  if (exec_->backend() != Backend::cpu)
    throw InvalidArgument("run_here", kWhere, "the engine runs on " + exec_->name() + "; allowed: a CPU engine");
  return CellRun(s_, c_, k_, slab_.data());
}

void CellEngine::set_surroundings(double conductance, double temperature) {
  if (exec_->backend() != Backend::cpu)
    throw InvalidArgument("set_surroundings", kWhere,
                          "the engine runs on " + exec_->name() + "; allowed: a CPU engine");
  c_.lumped_cooling = conductance;
  c_.ambient = temperature;
}

SlabRead CellEngine::reader() const {
  return [this](std::size_t offset, std::size_t size) { return read(offset, size); };
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

}  // namespace voltaic::program
