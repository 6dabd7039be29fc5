// voltaic._core: the C++ library as the Python package sees it. A run is
// described by the TOML text of a run config, read by io::parse_config as
// `voltaic run` reads its file, so that a solve from Python is the CLI's run
// bit for bit. The GIL is released while the solver runs; Ctrl-C is polled
// between time steps.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/version.hpp"
#include "voltaic/io/atomic_file.hpp"
#include "voltaic/io/bpx.hpp"
#include "voltaic/io/config.hpp"
#include "voltaic/io/pack_config.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/pack.hpp"
#include "voltaic/solver/simulation.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace voltaic::python {
namespace {

using ReadOnlyArray = nb::ndarray<nb::numpy, const double, nb::ndim<1>>;
using ReadOnlyTable = nb::ndarray<nb::numpy, const double, nb::ndim<2>>;

/// A NumPy view of `values`, kept alive by `owner` (no copy).
ReadOnlyArray view_of(const std::vector<double>& values, nb::handle owner) {
  return ReadOnlyArray(values.data(), {values.size()}, owner);
}

/// A NumPy view [rows, columns] of row-major `values`, kept alive by `owner`.
ReadOnlyTable table_of(const std::vector<double>& values, std::size_t columns, nb::handle owner) {
  return ReadOnlyTable(values.data(), {columns > 0 ? values.size() / columns : 0, columns}, owner);
}

// ---- errors: each voltaic::Error as a Python exception with its one-line message

PyObject* config_error = nullptr;         // ConfigError(ValueError)
PyObject* backend_unavailable = nullptr;  // BackendUnavailable(RuntimeError)
PyObject* cuda_error = nullptr;           // CudaError(RuntimeError)

void set_error(PyObject* type, const std::exception& e) { PyErr_SetString(type, one_line(e.what()).c_str()); }

void translate_error(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const io::ConfigError& e) {
    set_error(config_error, e);
  } catch (const io::BpxError& e) {
    set_error(config_error, e);
  } catch (const ExperimentError& e) {
    set_error(config_error, e);
  } catch (const InvalidArgument& e) {  // InsufficientMemory, SizeMismatch, ...
    set_error(PyExc_ValueError, e);
  } catch (const BackendUnavailable& e) {
    set_error(backend_unavailable, e);
  } catch (const CudaError& e) {
    set_error(cuda_error, e);
  } catch (const io::FileError& e) {
    set_error(PyExc_OSError, e);
  } catch (const Error& e) {
    set_error(PyExc_RuntimeError, e);
  }
}

PyObject* new_exception(nb::module_& m, const char* name, PyObject* base, const char* doc) {
  const std::string qualified = std::string("voltaic._core.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!type) throw nb::python_error();
  m.attr(name) = nb::handle(type);
  return type;
}

// ---- Ctrl-C

/// A pending Python exception taken out of the interpreter (a KeyboardInterrupt
/// seen while the GIL was released), raised again once the run has returned.
class PendingPythonError {
 public:
  /// With the GIL held: runs the signal handlers; true when one raised.
  bool check_signals() {
    if (PyErr_CheckSignals() == 0) return false;
    PyErr_Fetch(&type_, &value_, &trace_);
    return true;
  }
  bool pending() const { return type_ != nullptr; }
  /// With the GIL held.
  void raise_if_pending() {
    if (!type_) return;
    PyErr_Restore(type_, value_, trace_);
    type_ = value_ = trace_ = nullptr;
    throw nb::python_error();
  }

 private:
  PyObject* type_ = nullptr;
  PyObject* value_ = nullptr;
  PyObject* trace_ = nullptr;
};

/// Ends a run at the next time step once a signal handler raised (Ctrl-C).
class InterruptibleRun : public RunObserver {
 public:
  explicit InterruptibleRun(PendingPythonError& pending) : pending_(pending) {}
  std::string stop_reason() override {
    if (pending_.pending()) return "interrupted by SIGINT";
    nb::gil_scoped_acquire gil;
    return pending_.check_signals() ? "interrupted by SIGINT" : std::string();
  }

 private:
  PendingPythonError& pending_;
};

// ---- a run

/// The CLI's choice of executor (apps/voltaic/command_support.cpp).
std::shared_ptr<const Executor> make_executor(io::BackendChoice choice, const char* where = "voltaic.Simulation") {
  const bool gpu = CudaExecutor::device_count() > 0;
  if (choice == io::BackendChoice::cuda && !gpu)
    throw BackendUnavailable("backend cuda", where,
                             cuda_backend_built() ? "no CUDA device is visible" : "this build has no CUDA backend");
  if (choice == io::BackendChoice::cpu || !gpu) return CpuExecutor::create();
  return CudaExecutor::create(0, 3);  // the CLI's streams: numbers do not depend on them, but stay alike
}

/// What solve() returns: the Solution and where it ran.
struct RunResult {
  Solution solution;
  std::string executor;
};

/// The run `voltaic run` makes of the same config (run_command.cpp), without the files.
RunResult solve(const io::RunConfig& config) {
  PendingPythonError interrupt;
  RunResult result;
  {
    nb::gil_scoped_release release;
    const std::shared_ptr<const Executor> exec = make_executor(config.backend);
    SimulationOptions options = config.simulation;
    options.field_times = config.output.field_times;
    options.field_period = config.output.field_period;
    Simulation sim(config.parameters, options, exec);
    const Experiment experiment = config.experiment();
    InterruptibleRun observer(interrupt);
    result.solution = sim.run(experiment, &observer);
    result.executor = exec->name();
  }
  interrupt.raise_if_pending();
  return result;
}

// ---- a sweep

/// Stops a batch once the thread waiting on it has seen a signal handler raise.
class StoppableBatch : public BatchObserver {
 public:
  std::atomic<bool> stop{false};
  std::string stop_reason() override { return stop ? "interrupted by SIGINT" : std::string(); }
};

/// Cycle summaries as columns by PyBaMM's names (cycles.csv's).
std::map<std::string, std::vector<double>> cycle_columns(const std::vector<CycleSummary>& cycles) {
  std::map<std::string, std::vector<double>> out;
  const std::vector<std::string>& names = CycleSummary::names();
  for (const CycleSummary& c : cycles) {
    const std::vector<double> v = c.values();
    for (std::size_t i = 0; i < names.size(); ++i) out[names[i]].push_back(v[i]);
  }
  return out;
}

/// A sweep's results and where it ran.
struct SweepResult {
  std::vector<BatchCellResult> cells;
  std::string executor;
};

/// The cells of `names` x `values` (cell-major) over the config's cell, grid,
/// thermal model and experiment, on the config's backend (`threads` CPU
/// threads). The batch runs on a thread of its own while this one, GIL
/// released, polls for Ctrl-C (signal handlers run on Python's main thread only).
SweepResult sweep(const io::RunConfig& config, std::vector<std::string> names, std::vector<double> values,
                  int threads) {
  PendingPythonError interrupt;
  SweepResult out;
  std::vector<BatchCellResult>& results = out.cells;
  {
    nb::gil_scoped_release release;
    CellParameters cells{std::move(names), std::move(values)};
    const Experiment experiment = config.experiment();
    const std::shared_ptr<const Executor> exec = make_executor(config.backend, "voltaic.sweep");
    out.executor = exec->name();
    BatchSimulation batch(config.parameters, std::move(cells), config.simulation, exec, BatchOptions{threads, true});
    StoppableBatch observer;
    auto running = std::async(std::launch::async, [&] { return batch.run(experiment, &observer); });
    while (running.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      nb::gil_scoped_acquire gil;
      if (!observer.stop && interrupt.check_signals()) observer.stop = true;
    }
    results = running.get();
  }
  interrupt.raise_if_pending();
  return out;
}

// ---- a pack

/// A pack's run and where it ran.
struct PackResult {
  PackSolution solution;
  std::string executor;
};

/// The PackSimulation `voltaic pack` makes of a pack config (pack_command.cpp),
/// on the config's backend. A PackSimulation's cells go on from where its last
/// run left them, so each run after the first starts from one built afresh.
class PackRunner {
 public:
  explicit PackRunner(io::PackRunConfig config) : config_(std::move(config)) { build(); }

  const io::PackRunConfig& config() const { return config_; }
  double nominal_capacity() const { return sim_->nominal_capacity(); }
  double lower_voltage_cutoff() const { return sim_->lower_voltage_cutoff(); }
  double upper_voltage_cutoff() const { return sim_->upper_voltage_cutoff(); }
  std::vector<double> heat_capacities() const { return sim_->heat_capacities(); }

  /// Runs the experiment of `with_experiment` (the rest of that config is
  /// not read: the pack is this runner's). Ctrl-C ends the run at the next
  /// time step and raises KeyboardInterrupt.
  PackResult run(const io::PackRunConfig& with_experiment) {
    PendingPythonError interrupt;
    PackResult result;
    {
      nb::gil_scoped_release release;
      const Experiment experiment = with_experiment.run.experiment();
      if (used_) build();
      used_ = true;
      InterruptibleRun observer(interrupt);
      result.solution = sim_->run(experiment, [&observer] { return observer.stop_reason(); });
      result.executor = exec_->name();
    }
    interrupt.raise_if_pending();
    return result;
  }

 private:
  void build() {
    exec_ = make_executor(config_.run.backend, "voltaic.Pack");
    sim_ =
        std::make_unique<PackSimulation>(config_.run.parameters, config_.cells, config_.layout, config_.options, exec_);
  }

  io::PackRunConfig config_;
  std::shared_ptr<const Executor> exec_;
  std::unique_ptr<PackSimulation> sim_;
  bool used_ = false;
};

// ---- bindings

/// A PackResult's per-cell values as a read-only NumPy view [rows, cells].
template <std::vector<double> PackSolution::*Values>
ReadOnlyTable cell_table(nb::handle self) {
  const PackSolution& s = nb::cast<const PackResult&>(self).solution;
  return table_of(s.*Values, s.cells, self);
}

nb::list field_snapshots(nb::handle self) {
  const RunResult& r = nb::cast<const RunResult&>(self);
  nb::list out;
  for (const FieldSnapshot& snapshot : r.solution.fields) {
    nb::dict fields;
    for (const auto& [name, values] : snapshot.fields) fields[name.c_str()] = view_of(values, self);
    out.append(nb::make_tuple(snapshot.time, fields));
  }
  return out;
}

void bind_config(nb::module_& m) {
  nb::class_<io::RunConfig>(m, "RunConfig", "A run config as `voltaic run` reads it (io::parse_config).")
      .def_ro("cell_source", &io::RunConfig::cell_source)
      .def_ro("experiment_steps", &io::RunConfig::experiment_steps)
      .def_ro("cycles", &io::RunConfig::cycles)
      .def_prop_ro(
          "grid",
          [](const io::RunConfig& c) {
            const CellGridSpec& g = c.simulation.grid;
            return std::vector<int>{g.negative_cells, g.separator_cells, g.positive_cells, g.radial_shells, g.nx, g.ny};
          },
          "negative_cells, separator_cells, positive_cells, radial_shells, nx, ny")
      .def(
          "parameter",
          [](const io::RunConfig& c, const std::string& name) { return parameter_value(c.parameters, name); }, "name"_a,
          "A parameter of the cell by PyBaMM name, overrides applied.");
  m.def("parse_config", &io::parse_config, "toml_text"_a, "origin"_a, "base_dir"_a = ".",
        "Reads and checks a run config's TOML text; raises ConfigError naming the key.");
}

void bind_solution(nb::module_& m) {
  nb::class_<RunResult>(m, "RunResult", "A Simulation run's Solution and the executor it ran on.")
      .def(
          "column",
          [](nb::handle self, const std::string& name) {
            return view_of(nb::cast<const RunResult&>(self).solution[name], self);
          },
          "name"_a, "A time-series column as a read-only NumPy view (no copy).")
      .def_prop_ro("rows", [](const RunResult& r) { return r.solution.rows(); })
      .def_prop_ro("completed", [](const RunResult& r) { return r.solution.completed; })
      .def_prop_ro("termination", [](const RunResult& r) { return r.solution.termination; })
      .def_prop_ro("notes", [](const RunResult& r) { return r.solution.notes; })
      .def_prop_ro(
          "cycles", [](const RunResult& r) { return cycle_columns(r.solution.cycles); },
          "One value per finished cycle, by PyBaMM's summary-variable names (cycles.csv's columns).")
      .def_prop_ro("steps_taken", [](const RunResult& r) { return r.solution.steps_taken; })
      .def_prop_ro("steps_rejected", [](const RunResult& r) { return r.solution.steps_rejected; })
      .def_ro("executor", &RunResult::executor)
      .def_prop_ro("fields", &field_snapshots,
                   "(time, {name: values per cell, per particle or per in-plane column}) at each field time, "
                   "read-only NumPy views (no copy).");
  m.def("variable_names", &Solution::variable_names, "The time-series columns of a Solution, in order.");
  m.def("solve", &solve, "config"_a, "Runs the config as `voltaic run` does, without writing files.");
}

void bind_sweep(nb::module_& m) {
  nb::class_<BatchCellResult>(m, "BatchCellResult", "What one cell of a sweep did.")
      .def_prop_ro("status", [](const BatchCellResult& r) { return std::string(to_string(r.status)); })
      .def_ro("termination", &BatchCellResult::termination)
      .def_ro("discharge_capacity_ah", &BatchCellResult::discharge_capacity_ah)
      .def_ro("discharge_energy_wh", &BatchCellResult::discharge_energy_wh)
      .def_ro("final_voltage", &BatchCellResult::final_voltage)
      .def_ro("max_temperature", &BatchCellResult::max_temperature)
      .def_ro("simulated_time", &BatchCellResult::simulated_time)
      .def_ro("steps_taken", &BatchCellResult::steps_taken)
      .def_ro("steps_rejected", &BatchCellResult::steps_rejected)
      .def_prop_ro(
          "cycles", [](const BatchCellResult& r) { return cycle_columns(r.cycles); },
          "One value per cycle the cell ended, by PyBaMM's summary-variable names (the sweep's cycles.csv).")
      .def_prop_ro("time", [](nb::handle self) { return view_of(nb::cast<const BatchCellResult&>(self).time, self); })
      .def_prop_ro("voltage",
                   [](nb::handle self) { return view_of(nb::cast<const BatchCellResult&>(self).voltage, self); })
      .def_prop_ro("current",
                   [](nb::handle self) { return view_of(nb::cast<const BatchCellResult&>(self).current, self); })
      .def_prop_ro("temperature",
                   [](nb::handle self) { return view_of(nb::cast<const BatchCellResult&>(self).temperature, self); });
  nb::class_<SweepResult>(m, "SweepResult", "Every cell's result of a sweep, and where it ran.")
      .def_ro("cells", &SweepResult::cells)
      .def_ro("executor", &SweepResult::executor);
  m.def("sweep", &sweep, "config"_a, "names"_a, "values"_a, "threads"_a = 0,
        "Runs one cell per row of values (cell-major, one value per name) through BatchSimulation on the config's "
        "backend: the CPU's threads, or the GPU's cell program.");
}

void bind_pack(nb::module_& m) {
  nb::class_<io::PackRunConfig>(m, "PackConfig", "A pack config as `voltaic pack` reads it (io::parse_pack_config).")
      .def_prop_ro("parallel", [](const io::PackRunConfig& c) { return c.layout.parallel; })
      .def_prop_ro("series", [](const io::PackRunConfig& c) { return c.layout.series; })
      .def_prop_ro("cells", [](const io::PackRunConfig& c) { return c.layout.cells(); })
      .def_prop_ro(
          "netlist", [](const io::PackRunConfig& c) { return !c.layout.netlist.empty(); },
          "Whether a netlist wires the cells (else Np x Ns).")
      .def_prop_ro("cell_source", [](const io::PackRunConfig& c) { return c.run.cell_source; })
      .def_prop_ro("experiment_steps", [](const io::PackRunConfig& c) { return c.run.experiment_steps; })
      .def_prop_ro(
          "cell_parameters", [](const io::PackRunConfig& c) { return c.cells.names; },
          "The names of the parameters each cell has its own value of ([sweep]'s).")
      .def_prop_ro(
          "cell_values", [](const io::PackRunConfig& c) { return c.cells.values; },
          "Each cell's own values, cell-major (cell k = s Np + p), one per name of cell_parameters.");
  m.def("parse_pack_config", &io::parse_pack_config, "toml_text"_a, "origin"_a, "base_dir"_a = ".",
        "Reads and checks a pack config's TOML text ([pack], [pack.thermal], [sweep]); raises ConfigError naming "
        "the key.");

  nb::class_<PackResult>(m, "PackResult", "What a pack did (PackSolution) and the executor it ran on.")
      .def_prop_ro("cells", [](const PackResult& r) { return r.solution.cells; })
      .def_prop_ro("rows", [](const PackResult& r) { return r.solution.time.size(); })
      .def_prop_ro("time",
                   [](nb::handle self) { return view_of(nb::cast<const PackResult&>(self).solution.time, self); })
      .def_prop_ro("voltage",
                   [](nb::handle self) { return view_of(nb::cast<const PackResult&>(self).solution.voltage, self); })
      .def_prop_ro("current",
                   [](nb::handle self) { return view_of(nb::cast<const PackResult&>(self).solution.current, self); })
      .def_prop_ro(
          "coolant_outlet",
          [](nb::handle self) { return view_of(nb::cast<const PackResult&>(self).solution.coolant_outlet, self); },
          "A flowing coolant's outlet temperature per row (empty without a flow).")
      .def_prop_ro("cell_current", &cell_table<&PackSolution::cell_current>, "[A] [rows, cells], > 0 discharging.")
      .def_prop_ro("cell_voltage", &cell_table<&PackSolution::cell_voltage>, "[V] [rows, cells], each cell's own.")
      .def_prop_ro("cell_temperature", &cell_table<&PackSolution::cell_temperature>, "[K] [rows, cells].")
      .def_prop_ro("cell_heat", &cell_table<&PackSolution::cell_heat>, "[W] [rows, cells], each cell's generation.")
      .def_prop_ro("node_names", [](const PackResult& r) { return r.solution.node_names; })
      .def_prop_ro(
          "node_voltage",
          [](nb::handle self) {
            const PackSolution& s = nb::cast<const PackResult&>(self).solution;
            return table_of(s.node_voltage, s.node_names.size(), self);
          },
          "[V] [rows, nodes]: across each group of an Np x Ns pack, each node of a netlist against its negative "
          "terminal.")
      .def_prop_ro("completed", [](const PackResult& r) { return r.solution.completed; })
      .def_prop_ro("interrupted", [](const PackResult& r) { return r.solution.interrupted; })
      .def_prop_ro("termination", [](const PackResult& r) { return r.solution.termination; })
      .def_prop_ro("steps_taken", [](const PackResult& r) { return r.solution.steps_taken; })
      .def_prop_ro("steps_rejected", [](const PackResult& r) { return r.solution.steps_rejected; })
      .def_prop_ro("circuit_iterations", [](const PackResult& r) { return r.solution.circuit_iterations; })
      .def_ro("executor", &PackResult::executor);

  nb::class_<PackRunner>(m, "PackSimulation", "A PackSimulation built from a pack config, on the config's backend.")
      .def(
          "__init__",
          [](PackRunner* self, const io::PackRunConfig& config) {
            nb::gil_scoped_release release;
            new (self) PackRunner(config);
          },
          "config"_a)
      .def_prop_ro("config", &PackRunner::config)
      .def_prop_ro("nominal_capacity", &PackRunner::nominal_capacity,
                   "[A h] the smallest over the groups of the sum of the group's cells' capacities.")
      .def_prop_ro("lower_voltage_cutoff", &PackRunner::lower_voltage_cutoff)
      .def_prop_ro("upper_voltage_cutoff", &PackRunner::upper_voltage_cutoff)
      .def_prop_ro("heat_capacities", &PackRunner::heat_capacities, "[J/K] each cell's lumped heat capacity.")
      .def("run", &PackRunner::run, "with_experiment"_a,
           "Runs the experiment of a config (its [experiment]; the pack is this one's), from the start.");
}

void bind_library(nb::module_& m) {
  m.def("version", &version);
  m.def("cuda_backend_built", &cuda_backend_built);
  m.def("cuda_device_count", &CudaExecutor::device_count);
  m.def("parameter_names", [] {
    std::vector<std::string> names;
    for (const ParameterInfo& p : parameter_table()) names.push_back(p.name);
    return names;
  });
  m.def("function_names", [] {
    std::vector<std::string> names;
    for (const FunctionInfo& f : function_table()) names.push_back(f.name);
    return names;
  });
}

}  // namespace
}  // namespace voltaic::python

NB_MODULE(_core, m) {
  using namespace voltaic::python;
  m.doc() = "voltaic's C++ library; the voltaic package is its Python API.";
  config_error =
      new_exception(m, "ConfigError", PyExc_ValueError, "A config, parameter or experiment step voltaic refuses.");
  backend_unavailable =
      new_exception(m, "BackendUnavailable", PyExc_RuntimeError, "A backend that is not built or has no device.");
  cuda_error = new_exception(m, "CudaError", PyExc_RuntimeError, "A CUDA call failed.");
  nb::register_exception_translator(&translate_error);
  bind_config(m);
  bind_solution(m);
  bind_sweep(m);
  bind_pack(m);
  bind_library(m);
}
