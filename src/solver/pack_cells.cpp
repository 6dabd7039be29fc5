#include "solver/pack_cells.hpp"

#include <algorithm>
#include <utility>

#include "core/backend_dispatch.hpp"
#include "solver/cell_engine.hpp"
#include "solver/cell_program.hpp"
#include "solver/cell_program_cpu.hpp"
#include "solver/cell_program_setup.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/particle_step.hpp"
#if VOLTAIC_HAS_CUDA
#include "solver/pack_cells_launch.hpp"
#endif

namespace voltaic::pack {
namespace {

constexpr const char* kWhere = "PackSimulation";

/// A cell's error, naming it.
[[noreturn]] void refuse_cell(const std::string& name, const Error& e) {
  throw InvalidArgument(name, kWhere, one_line(e.what_failed() + ": " + e.why()));
}

/// The cells as CPU engines, one after another on the calling thread.
class CpuCells final : public PackCells {
 public:
  CpuCells(const std::vector<ParameterSet>& cells, const SimulationOptions& options,
           const std::shared_ptr<const Executor>& exec, const std::function<std::string(std::size_t)>& name) {
    for (std::size_t k = 0; k < cells.size(); ++k) {
      try {
        engines_.push_back(std::make_unique<program::CellEngine>(cells[k], options, exec));
      } catch (const Error& e) {
        refuse_cell(name(k), e);
      }
    }
    for (auto& e : engines_) {
      runs_.push_back(e->run_here());
      constants_.push_back(e->constants());
    }
    settings_ = engines_.front()->settings();
  }

  const program::ProgramClock& clock(std::size_t k) const override { return engines_[k]->clock(); }
  void start(const std::vector<double>& amps, double initial_dt, std::vector<char>& ok) override {
    for (std::size_t k = 0; k < count(); ++k) ok[k] = program::circuit_start_on_cpu(runs_[k], amps[k], initial_dt);
  }
  void attempt(double h, const std::vector<double>& amps, bool restore_first, std::vector<char>& ok) override {
    for (std::size_t k = 0; k < count(); ++k) {
      if (restore_first) program::circuit_restore_on_cpu(runs_[k]);
      ok[k] = program::circuit_attempt_on_cpu(runs_[k], h, amps[k]);
    }
  }
  void save() override {
    for (auto& r : runs_) program::circuit_save_on_cpu(r);
  }
  void restore() override {
    for (auto& r : runs_) program::circuit_restore_on_cpu(r);
  }
  void accept(double h) override {
    for (auto& r : runs_) program::circuit_accept_on_cpu(r, h);
  }
  void errors(double h, std::vector<double>& out) override {
    for (std::size_t k = 0; k < count(); ++k) out[k] = program::circuit_error_on_cpu(runs_[k], h);
  }
  void set_surroundings(const std::vector<double>& conductance, const std::vector<double>& temperature) override {
    for (std::size_t k = 0; k < count(); ++k) engines_[k]->set_surroundings(conductance[k], temperature[k]);
  }

 private:
  std::vector<std::unique_ptr<program::CellEngine>> engines_;
  std::vector<program::CellRun> runs_;
};

#if VOLTAIC_HAS_CUDA
/// The cells on a GPU: their slabs, constants and clocks in one array
/// each; every call a launch over all of them, the clocks copied back.
class CudaCells final : public PackCells {
 public:
  CudaCells(const std::vector<ParameterSet>& cells, const SimulationOptions& options,
            const std::shared_ptr<const Executor>& exec, const std::function<std::string(std::size_t)>& name)
      : exec_(exec), cuda_(detail::as_cuda(*exec)) {
    settings_ = program::settings_for(options, 1);
    if (settings_.ages())
      throw InvalidArgument("degradation", kWhere,
                            "ages the cells; allowed: none on a GPU (packs of ageing cells run on the CPU backend)");
    const std::size_t n = cells.size(), total = settings_.o.total, statics = program::constant_doubles(settings_.o);
    ParticleOptions po;
    po.surface = options.surface;
    unit_radius_ = Array<double>::from_host(exec_, {1.0});
    shells_ = std::make_unique<ParticleDiffusion<double>>(exec_, settings_.R, unit_radius_.view(), po);
    settings_.mesh = shells_->mesh();
    const std::vector<double>& functions = cells.front().custom_function_data();
    functions_ = Array<double>::from_host(exec_, functions);
    slabs_ = Array<double>(exec_, n * total);
    std::vector<double> host_statics(n * statics);
    for (std::size_t k = 0; k < n; ++k) {
      try {
        const CellLayout layout(cells[k], options.grid, CpuExecutor::create());
        constants_.push_back(program::cell_constants(layout, options, settings_.o, functions, functions_.data(),
                                                     host_statics.data() + k * statics, kWhere));
      } catch (const Error& e) {
        refuse_cell(name(k), e);
      }
      constants_.back().k.map.volume = slabs_.data() + k * total + settings_.o.volume;
    }
    device_constants_ = Array<program::CellConstants>::from_host(exec_, constants_);
    clocks_ = Array<program::ProgramClock>(exec_, n);
    host_clocks_.resize(n);
    amps_ = Array<double>(exec_, n);
    ok_ = Array<char>(exec_, n);
    errors_ = Array<double>(exec_, n);
    conductance_ = Array<double>(exec_, n);
    temperature_ = Array<double>(exec_, n);
    cuda::cell_program_upload(cuda_, host_statics.data(), statics, cells_view(), total);
    cuda::cell_program_initialise(cuda_, settings_, cells_view());
    pull_clocks();
  }

  const program::ProgramClock& clock(std::size_t k) const override { return host_clocks_[k]; }
  void start(const std::vector<double>& amps, double initial_dt, std::vector<char>& ok) override {
    cuda::CircuitCall c;
    c.op = cuda::CircuitOp::start;
    c.initial_dt = initial_dt;
    call_with(c, amps, ok);
  }
  void attempt(double h, const std::vector<double>& amps, bool restore_first, std::vector<char>& ok) override {
    cuda::CircuitCall c;
    c.op = cuda::CircuitOp::attempt;
    c.h = h;
    c.restore_first = restore_first;
    call_with(c, amps, ok);
  }
  void save() override { plain(cuda::CircuitOp::save, 0.0); }
  void restore() override { plain(cuda::CircuitOp::restore, 0.0); }
  void accept(double h) override { plain(cuda::CircuitOp::accept, h); }
  void errors(double h, std::vector<double>& out) override {
    cuda::CircuitCall c;
    c.op = cuda::CircuitOp::error;
    c.h = h;
    c.error = errors_.data();
    cuda::pack_cells_call(cuda_, settings_, cells_view(), c);
    exec_->copy(out.data(), MemorySpace::host(), errors_.data(), errors_.space(), count() * sizeof(double));
  }
  void set_surroundings(const std::vector<double>& conductance, const std::vector<double>& temperature) override {
    exec_->copy(conductance_.data(), conductance_.space(), conductance.data(), MemorySpace::host(),
                count() * sizeof(double));
    exec_->copy(temperature_.data(), temperature_.space(), temperature.data(), MemorySpace::host(),
                count() * sizeof(double));
    cuda::pack_cells_surroundings(cuda_, device_constants_.data(), conductance_.data(), temperature_.data(), count());
  }

 private:
  cuda::ProgramCells cells_view() { return {device_constants_.data(), clocks_.data(), slabs_.data(), count()}; }
  void pull_clocks() {
    exec_->copy(host_clocks_.data(), MemorySpace::host(), clocks_.data(), clocks_.space(),
                count() * sizeof(program::ProgramClock));
  }
  void plain(cuda::CircuitOp op, double h) {
    cuda::CircuitCall c;
    c.op = op;
    c.h = h;
    cuda::pack_cells_call(cuda_, settings_, cells_view(), c);
    pull_clocks();
  }
  void call_with(cuda::CircuitCall& c, const std::vector<double>& amps, std::vector<char>& ok) {
    exec_->copy(amps_.data(), amps_.space(), amps.data(), MemorySpace::host(), count() * sizeof(double));
    c.amps = amps_.data();
    c.ok = ok_.data();
    cuda::pack_cells_call(cuda_, settings_, cells_view(), c);
    pull_clocks();
    exec_->copy(ok.data(), MemorySpace::host(), ok_.data(), ok_.space(), count());
  }

  std::shared_ptr<const Executor> exec_;
  const CudaExecutor& cuda_;
  Array<double> unit_radius_, functions_, slabs_, amps_, errors_, conductance_, temperature_;
  std::unique_ptr<ParticleDiffusion<double>> shells_;
  Array<program::CellConstants> device_constants_;
  Array<program::ProgramClock> clocks_;
  Array<char> ok_;
  std::vector<program::ProgramClock> host_clocks_;
};
#endif

}  // namespace

std::unique_ptr<PackCells> make_pack_cells(const std::vector<ParameterSet>& cells, const SimulationOptions& options,
                                           const std::shared_ptr<const Executor>& exec,
                                           const std::function<std::string(std::size_t)>& name) {
  if (exec->backend() == Backend::cpu) return std::make_unique<CpuCells>(cells, options, exec, name);
#if VOLTAIC_HAS_CUDA
  return std::make_unique<CudaCells>(cells, options, exec, name);
#else
  throw BackendUnavailable("executor", kWhere, exec->name() + " is not built in; allowed: cpu");
#endif
}

}  // namespace voltaic::pack
