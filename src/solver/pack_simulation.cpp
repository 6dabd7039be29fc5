// A pack of cell-engine cells under an implicit circuit (pack.hpp): the
// pack's time steps go through the shared step control (step_control.hpp)
// with the whole pack as its "cell": an attempt of h is a Newton iteration
// on the cells' currents, each iterate every cell's own attempt of h from
// the saved state (pack_circuit.hpp updates the currents).

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "solver/cell_program_setup.hpp"
#include "solver/pack_cells.hpp"
#include "solver/pack_circuit.hpp"
#include "solver/pack_thermal.hpp"
#include "solver/step_control.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/pack.hpp"

namespace voltaic {
namespace {

constexpr const char* kWhere = "PackSimulation";
/// Newton iterations on the currents before an attempt counts as failed (cut and retried).
constexpr int kMaxCircuitIterations = 25;
/// The circuit is solved to this fraction of the voltage tolerance (rtol V + atol)
/// between a group's cells, and of the current tolerance (rtol I + atol) in
/// the pack's current under a power or a voltage.
constexpr double kCircuitTolerance = 0.01;

/// `o`, once `l`, `o` and a cell table of `rows` rows are checked.
const PackOptions& checked(const PackLayout& l, const PackOptions& o, std::size_t rows) {
  const auto fail = [](const std::string& what, const std::string& why) { throw InvalidArgument(what, kWhere, why); };
  if (!l.netlist.empty()) {  // the netlist holds the wiring
    if (l.parallel != 1 || l.series != 1 || l.connection_resistance != 0.0 || !l.connection_resistances.empty() ||
        l.busbar_resistance != 0.0)
      fail("netlist",
           "is given beside parallel, series or the grid's resistances; allowed: one of them (a netlist "
           "holds its own resistors)");
    check_netlist(l.netlist);
  }
  if (l.parallel < 1) fail("parallel", "is " + std::to_string(l.parallel) + "; allowed: an integer >= 1");
  if (l.series < 1) fail("series", "is " + std::to_string(l.series) + "; allowed: an integer >= 1");
  const auto resistance = [&](const std::string& name, double r) {
    if (!(r >= 0.0) || !std::isfinite(r)) {
      std::ostringstream m;
      m << "is " << r << " Ohm; allowed: a finite number >= 0";
      fail(name, m.str());
    }
  };
  resistance("connection_resistance", l.connection_resistance);
  resistance("busbar_resistance", l.busbar_resistance);
  if (!l.connection_resistances.empty() && l.connection_resistances.size() != l.cells())
    fail("connection_resistances", "has " + std::to_string(l.connection_resistances.size()) +
                                       " values; allowed: one per cell, " + std::to_string(l.cells()));
  for (std::size_t k = 0; k < l.connection_resistances.size(); ++k)
    resistance("connection_resistances[" + std::to_string(k) + "]", l.connection_resistances[k]);
  if (rows != 0 && rows != l.cells())
    fail("cells", "the cell table has " + std::to_string(rows) +
                      " rows; allowed: none (identical cells) or one per cell, " + std::to_string(l.cells()));
  if (!(o.record_period >= 0.0) || !std::isfinite(o.record_period)) {
    std::ostringstream m;
    m << "is " << o.record_period << " s; allowed: a finite number >= 0 (0: every accepted step)";
    fail("record_period", m.str());
  }
  if (o.cell.grid.nx != 1 || o.cell.grid.ny != 1)
    fail("grid", "is " + std::to_string(o.cell.grid.nx) + " x " + std::to_string(o.cell.grid.ny) +
                     "; allowed: 1 x 1 (a pack's cells are 1D)");
  return o;
}

}  // namespace

class PackSimulation::Impl {
 public:
  Impl(const ParameterSet& base, const CellParameters& cells, const PackLayout& layout, const PackOptions& options,
       std::shared_ptr<const Executor> exec);

  PackSolution run(const Experiment& experiment, const std::function<std::string()>& stop);
  std::vector<double> heat_capacities() const {
    std::vector<double> c;
    for (std::size_t k = 0; k < count(); ++k) c.push_back(cells_->constants(k).lumped_capacity);
    return c;
  }

  double capacity_ = 0.0, lower_ = 0.0, upper_ = 0.0;

 private:
  struct Stepped;  ///< the pack as the shared step control sees it

  std::size_t count() const { return cells_->count(); }
  double drive_at(const program::ProgramStep& step, double t) const;
  stepping::DriveTable table(const program::ProgramStep& step) const {
    return {tables_.data() + step.table, tables_.data() + step.table + step.table_rows, step.table_rows};
  }
  /// The circuit solved with `solve(amps, again, ok)` solving every cell
  /// (a consistent start, or an attempt of h, `again` after the first
  /// iterate): the pack's voltage and current in the clock. False when a
  /// cell fails (failed_) or the currents do not settle.
  template <class Solve>
  bool circuit(const program::ProgramStep& step, double value, const Solve& solve);
  bool start(const program::ProgramStep& step);
  void first_slopes();
  double margin(const program::ProgramStep& step) const;
  stepping::Ends ends(const program::ProgramStep& step) const;
  void record();
  /// The last accepted step's row, when record_period held it back.
  void flush() {
    if (pending_) record();
  }
  std::string failure(const Experiment& e, long long index) const;

  /// Each cell's surroundings from the network and the cells' temperatures `T`.
  void surround(const std::vector<double>& T);
  double thermal_tolerance(double T) const { return kCircuitTolerance * (s_.rtol * std::fabs(T) + s_.atol); }

  PackLayout layout_;
  pack::ThermalNetwork network_;
  std::vector<double> own_cooling_, own_ambient_;             ///< each cell's hA [W/K] and ambient [K]
  std::vector<double> cooling_, surrounding_;                 ///< the network's conductance and temperature per cell
  double outlet_ = std::numeric_limits<double>::quiet_NaN();  ///< a flow's outlet [K]
  std::vector<ParameterSet> parameters_;
  std::unique_ptr<pack::PackCells> cells_;
  std::vector<char> ok_;                ///< per cell: its last solve succeeded
  mutable std::vector<double> errors_;  ///< per cell: the last attempt's local error
  std::unique_ptr<pack::Circuit> circuit_;
  std::vector<double> amps_, volts_, temps_, slope_;  ///< per cell: the last solve's current, voltage, T; dV/dI
  std::vector<double> saved_amps_;                    ///< amps_ at the step's save()
  std::vector<double> tables_;
  program::ProgramSettings s_{};  ///< the cells' common settings (tolerances, step limits)
  stepping::Clock k_;             ///< the pack's clock: its voltage, current, steps
  bool until_below_ = true;
  /// The present step's "until any cell reaches <x> V" (NaN: none), and
  /// whether it is a lower limit (the cells started above it).
  double cell_until_ = std::numeric_limits<double>::quiet_NaN();
  bool cell_until_below_ = true;
  bool ended_by_event_ = false;  ///< how the last experiment step ended
  double record_period_ = 0.0;   ///< PackOptions::record_period
  double last_row_ = -INFINITY;  ///< [s] the last recorded row's time
  bool pending_ = false;         ///< an accepted step is not recorded yet
  long long failed_ = -1;        ///< the cell whose attempt failed; -1: the circuit
  PackSolution out_;
};

PackSimulation::Impl::Impl(const ParameterSet& base, const CellParameters& cells, const PackLayout& layout,
                           const PackOptions& options, std::shared_ptr<const Executor> exec)
    : layout_(layout),
      network_(checked(layout, options, cells.num_cells()).thermal, layout,
               options.cell.thermal == ThermalModel::lumped) {
  const std::size_t n = layout.cells();
  const auto name = [&](std::size_t k) { return layout.cell_name(k); };
  for (std::size_t k = 0; k < n; ++k) {
    ParameterSet p = base;
    try {
      for (std::size_t j = 0; j < cells.names.size(); ++j) set_parameter(p, cells.names[j], cells.value(k, j));
    } catch (const Error& e) {
      throw InvalidArgument(name(k), kWhere, one_line(e.what_failed() + ": " + e.why()));
    }
    if (p.electrical.discharge_rate_factor != 1.0 || p.electrical.charge_rate_factor != 1.0) {
      throw InvalidArgument(name(k), kWhere,
                            "sets \"Discharge C-rate factor\" or \"Charge C-rate factor\"; allowed: 1 (a pack's "
                            "C-rates are of the pack's capacity, the same for every cell)");
    }
    parameters_.push_back(std::move(p));
  }
  circuit_ = pack::make_circuit(layout);
  record_period_ = options.record_period;
  cells_ = pack::make_pack_cells(parameters_, options.cell, exec, name);
  for (std::size_t k = 0; k < n; ++k) {
    own_cooling_.push_back(cells_->constants(k).lumped_cooling);
    own_ambient_.push_back(cells_->constants(k).ambient);
  }
  cooling_.assign(n, 0.0);
  surrounding_.assign(n, 0.0);
  ok_.assign(n, 1);
  errors_.assign(n, 0.0);
  s_ = cells_->settings();
  double highest_lower = -INFINITY, lowest_upper = INFINITY;
  std::vector<double> q;
  for (const ParameterSet& p : parameters_) {
    q.push_back(p.electrical.nominal_capacity);
    highest_lower = std::max(highest_lower, p.electrical.lower_voltage_cutoff);
    lowest_upper = std::min(lowest_upper, p.electrical.upper_voltage_cutoff);
  }
  const pack::PackRating rated = pack::rating(layout, q);
  capacity_ = rated.capacity;
  lower_ = std::isnan(options.lower_voltage_cutoff) ? rated.series * highest_lower : options.lower_voltage_cutoff;
  upper_ = std::isnan(options.upper_voltage_cutoff) ? rated.series * lowest_upper : options.upper_voltage_cutoff;
  if (!(lower_ < upper_))
    throw InvalidArgument(
        "voltage cut-offs", kWhere,
        "are " + std::to_string(lower_) + " V and " + std::to_string(upper_) + " V; allowed: lower < upper");
  amps_.assign(n, 0.0);
  volts_.assign(n, 0.0);
  temps_.assign(n, 0.0);
  slope_.assign(n, std::numeric_limits<double>::quiet_NaN());
}

double PackSimulation::Impl::drive_at(const program::ProgramStep& step, double t) const {
  if (step.table_rows > 0) return table(step).value_at(t);
  return step.voltage_control || !step.c_rate ? step.value : step.value * capacity_;
}

template <class Solve>
bool PackSimulation::Impl::circuit(const program::ProgramStep& step, double value, const Solve& solve) {
  const std::size_t n = count();
  // The pack current: the drive's, else (power, voltage) the last one where it has the drive's sign.
  double J = value;
  if (step.power) J = k_.current * value > 0.0 ? k_.current : value / std::max(k_.voltage, 1.0);
  if (step.voltage_control) J = k_.current;
  circuit_->share(k_.current, J, slope_.data(), amps_.data());
  std::vector<double> next(n), before_i(n), before_v(n), used_t(n);
  for (int it = 0;; ++it) {
    ++out_.circuit_iterations;
    if (network_.active()) {  // the network at the temperatures of the last iterate (or of the saved state)
      for (std::size_t k = 0; k < n; ++k) used_t[k] = it > 0 ? temps_[k] : cells_->clock(k).lumped_t;
      surround(used_t);
    }
    solve(amps_, it > 0, ok_);
    for (std::size_t k = 0; k < n; ++k) {
      if (!ok_[k]) {
        failed_ = static_cast<long long>(k);
        return false;
      }
      volts_[k] = cells_->clock(k).voltage;
      temps_[k] = cells_->clock(k).lumped_t;
      if (it > 0) slope_[k] = pack::secant_slope(before_v[k], before_i[k], volts_[k], amps_[k], slope_[k]);
    }
    const pack::CircuitStep u =
        circuit_->update(volts_.data(), amps_.data(), slope_.data(), J, s_.rtol, s_.atol, next.data());
    // The pack's drive: the change of J it asks for.
    double dJ = 0.0;
    if (step.voltage_control) dJ = -(u.voltage - value) / u.slope;
    if (step.power) dJ = -(J * u.voltage - value) / (u.voltage + J * u.slope);
    k_.voltage = u.voltage;
    k_.current = J;
    const double current_tolerance = kCircuitTolerance * (s_.rtol * std::fabs(J) + s_.atol);
    bool settled = u.mismatch <= kCircuitTolerance * u.tolerance && std::fabs(dJ) <= current_tolerance;
    for (std::size_t k = 0; network_.active() && k < n; ++k)
      settled = settled && std::fabs(temps_[k] - used_t[k]) <= thermal_tolerance(temps_[k]);
    if (settled) return true;
    if (it == kMaxCircuitIterations || !std::isfinite(dJ) || !std::isfinite(u.mismatch)) {
      failed_ = -1;
      return false;
    }
    before_i = amps_;
    before_v = volts_;
    amps_ = next;  // the new currents; a change of J shared as the circuit shares it
    circuit_->shift(dJ, amps_.data());
    J += dJ;
  }
}

void PackSimulation::Impl::surround(const std::vector<double>& T) {
  outlet_ =
      network_.surroundings(T.data(), own_cooling_.data(), own_ambient_.data(), cooling_.data(), surrounding_.data());
  cells_->set_surroundings(cooling_, surrounding_);
}

void PackSimulation::Impl::first_slopes() {
  // Each cell's instantaneous dV/dI from two consistent starts C/100 apart:
  // the circuit's first slopes (secants refine them from then on).
  if (!std::isnan(slope_[0])) return;
  const std::size_t n = count();
  std::vector<double> amps = amps_, v0(n);
  std::vector<char> ok0(n), ok1(n);
  cells_->start(amps, s_.initial_dt, ok0);
  for (std::size_t k = 0; k < n; ++k) {
    v0[k] = cells_->clock(k).voltage;
    amps[k] += 0.01 * parameters_[k].electrical.nominal_capacity;
  }
  cells_->start(amps, s_.initial_dt, ok1);
  for (std::size_t k = 0; k < n; ++k)
    slope_[k] =
        ok0[k] && ok1[k] ? pack::secant_slope(v0[k], amps_[k], cells_->clock(k).voltage, amps[k], -1e-3) : -1e-3;
}

bool PackSimulation::Impl::start(const program::ProgramStep& step) {
  first_slopes();
  const double initial_dt = s_.initial_dt;
  const bool ok = circuit(step, drive_at(step, 0.0), [&](const std::vector<double>& amps, bool, std::vector<char>& ok) {
    cells_->start(amps, initial_dt, ok);
  });
  k_.start_step(initial_dt);
  return ok;
}

stepping::Ends PackSimulation::Impl::ends(const program::ProgramStep& step) const {
  stepping::Ends e;
  e.voltage_control = step.voltage_control;
  e.lower_cutoff = lower_;
  e.upper_cutoff = upper_;
  e.has_until_voltage = step.has_until_voltage;
  e.until_voltage = step.until_voltage;
  e.has_until_current = step.has_until_current;
  e.until_current = std::fabs(step.until_c_rate ? step.until_current * capacity_ : step.until_current);
  return e;
}

double PackSimulation::Impl::margin(const program::ProgramStep& step) const {
  const stepping::Side side = stepping::side(step.table_rows > 0, drive_at(step, 0.0), k_.current, until_below_);
  double m = stepping::event_margin(ends(step), side, k_.voltage, k_.current);
  if (step.voltage_control || side.value == 0.0) return m;
  for (std::size_t k = 0; k < count(); ++k) {  // every cell's own cut-offs, on the side its current drives it
    const ElectricalParameters& e = parameters_[k].electrical;
    const program::ProgramClock& c = cells_->clock(k);
    if (c.current > 0.0) m = std::min(m, c.voltage - e.lower_voltage_cutoff);
    if (c.current < 0.0) m = std::min(m, e.upper_voltage_cutoff - c.voltage);
    if (!std::isnan(cell_until_))
      m = std::min(m, cell_until_below_ ? c.voltage - cell_until_ : cell_until_ - c.voltage);
  }
  return m;
}

struct PackSimulation::Impl::Stepped {
  Impl& p;
  const program::ProgramStep& step;

  bool attempt(double h) {
    const double value = p.drive_at(step, p.k_.elapsed + h);
    const bool ok = p.circuit(step, value, [&](const std::vector<double>& amps, bool again, std::vector<char>& ok) {
      p.cells_->attempt(h, amps, again, ok);
    });
    p.k_.last_order = last_order();
    return ok;
  }
  void restore() {
    p.cells_->restore();
    p.k_.restore();
    p.circuit_->restore();
    p.amps_ = p.saved_amps_;
  }
  void reject() { ++p.out_.steps_rejected; }
  double local_error(double h) const {
    double e = -1.0;
    p.cells_->errors(h, p.errors_);
    for (double x : p.errors_) e = std::max(e, x);
    return e;
  }
  int last_order() const {
    int o = 1;
    for (std::size_t k = 0; k < p.count(); ++k) o = std::max(o, p.cells_->clock(k).last_order);
    return o;
  }
  double event_margin() const { return p.margin(step); }
  void save() {
    p.cells_->save();
    p.k_.save();
    p.circuit_->save();
    p.saved_amps_ = p.amps_;
  }
  void accept(double h) {
    p.cells_->accept(h);
    p.k_.accept(h);
  }
};

void PackSimulation::Impl::record() {
  pending_ = false;
  last_row_ = k_.time;
  out_.time.push_back(k_.time);
  out_.voltage.push_back(k_.voltage);
  out_.current.push_back(k_.current);
  for (std::size_t k = 0; k < count(); ++k) {
    const program::ProgramClock& c = cells_->clock(k);
    out_.cell_current.push_back(c.current);
    out_.cell_voltage.push_back(c.voltage);
    out_.cell_temperature.push_back(c.lumped_t);
    out_.cell_heat.push_back(c.heat_w);
  }
  if (network_.flowing()) out_.coolant_outlet.push_back(outlet_);
  circuit_->node_voltages(out_.node_voltage);
}

std::string PackSimulation::Impl::failure(const Experiment& e, long long index) const {
  std::ostringstream m;
  m << describe_step(e.cycle()[std::size_t(index) % e.cycle().size()], std::size_t(index))
    << " failed at t = " << k_.time << " s: ";
  if (failed_ < 0) {
    m << "the pack's circuit did not settle in " << kMaxCircuitIterations << " iterations";
  } else {
    const auto k = static_cast<std::size_t>(failed_);
    m << layout_.cell_name(k) << ": " << program::failure_text(cells_->clock(k), s_);
  }
  return m.str();
}

PackSolution PackSimulation::Impl::run(const Experiment& experiment, const std::function<std::string()>& stop) {
  std::vector<program::ProgramStep> steps = program::compile_experiment(experiment, tables_);
  for (std::size_t i = 0; i < steps.size(); ++i)  // the pack's own "until": its voltage's, not its cells'
    steps[i].has_until_voltage = experiment.cycle()[i].until_voltage_v.has_value();
  out_ = PackSolution{};
  pending_ = false;
  last_row_ = -INFINITY;
  out_.cells = count();
  out_.node_names = circuit_->node_names();
  const auto total = static_cast<long long>(experiment.total_steps());
  for (long long i = 0; i < total; ++i) {
    const program::ProgramStep& step = steps[std::size_t(i) % steps.size()];
    if (!start(step)) {
      out_.termination = failure(experiment, i);
      return std::move(out_);
    }
    record();
    until_below_ = step.has_until_voltage && k_.voltage > step.until_voltage;
    cell_until_ = experiment.cycle()[std::size_t(i) % steps.size()].until_cell_voltage_v.value_or(
        std::numeric_limits<double>::quiet_NaN());
    if (!std::isnan(cell_until_)) {  // a lower limit where it discharges (a drive cycle: where the cells start above)
      cell_until_below_ = drive_at(step, 0.0) > 0.0;
      if (step.table_rows > 0) {
        cell_until_below_ = true;
        for (std::size_t k = 0; k < count(); ++k)
          cell_until_below_ = cell_until_below_ && cells_->clock(k).voltage > cell_until_;
      }
    }
    const stepping::Start feasible = stepping::start_check(ends(step), drive_at(step, 0.0), k_.voltage, margin(step));
    if (feasible != stepping::Start::feasible) {
      std::ostringstream m;
      m << describe_step(experiment.cycle()[std::size_t(i) % steps.size()], std::size_t(i)) << " is infeasible: "
        << (feasible == stepping::Start::until_voltage_behind
                ? "its \"until\" voltage is already behind the pack's"
                : "a cut-off of the pack or of a cell, or its \"until\", is already reached at its start")
        << " (pack voltage " << k_.voltage << " V, current " << k_.current << " A; the pack's limits " << lower_
        << " V and " << upper_ << " V)";
      out_.termination = m.str();
      return std::move(out_);
    }
    const stepping::DriveTable rows = table(step);
    Stepped pack{*this, step};
    for (bool ended = false; !ended;) {
      const stepping::Advanced a = stepping::advance(pack, k_, s_.limits, step.has_duration ? step.duration : INFINITY,
                                                     INFINITY, step.table_rows > 0 ? &rows : nullptr);
      if (a.outcome == stepping::Advance::duration) {
        ended_by_event_ = false;
        flush();  // the step's last row
        break;
      }
      if (a.outcome == stepping::Advance::solver_failed || a.outcome == stepping::Advance::error_stuck) {
        out_.termination = a.outcome == stepping::Advance::error_stuck
                               ? describe_step(experiment.cycle()[std::size_t(i) % steps.size()], std::size_t(i)) +
                                     " failed: the local error stayed above the tolerance"
                               : failure(experiment, i);
        flush();
        return std::move(out_);
      }
      ++out_.steps_taken;
      pending_ = true;
      if (a.outcome == stepping::Advance::event || k_.time - last_row_ >= record_period_) record();
      if (const std::string why = stop ? stop() : std::string(); !why.empty()) {
        out_.interrupted = true;
        out_.termination = describe_step(experiment.cycle()[std::size_t(i) % steps.size()], std::size_t(i)) +
                           " was interrupted at t = " + std::to_string(k_.time) + " s: " + why;
        flush();
        return std::move(out_);
      }
      ended = a.outcome == stepping::Advance::event;
      ended_by_event_ = ended;
      if (!ended &&
          stepping::stalled(k_, a.h, a.at_boundary, s_.limits.min_dt, s_.limits.max_dt, s_.limits.max_steps)) {
        out_.termination = describe_step(experiment.cycle()[std::size_t(i) % steps.size()], std::size_t(i)) +
                           " failed: the pack stopped making progress";
        flush();
        return std::move(out_);
      }
    }
  }
  out_.completed = true;
  const long long last = total - 1;
  out_.termination = describe_step(experiment.cycle()[std::size_t(last) % steps.size()], std::size_t(last)) +
                     (ended_by_event_ ? " ended by a cut-off event" : " ended after its duration");
  return std::move(out_);
}

PackSimulation::PackSimulation(const ParameterSet& base, const CellParameters& cells, const PackLayout& layout,
                               const PackOptions& options, std::shared_ptr<const Executor> exec)
    : impl_(std::make_unique<Impl>(base, cells, layout, options, std::move(exec))) {}

PackSimulation::~PackSimulation() = default;

double PackSimulation::nominal_capacity() const { return impl_->capacity_; }
double PackSimulation::lower_voltage_cutoff() const { return impl_->lower_; }
std::vector<double> PackSimulation::heat_capacities() const { return impl_->heat_capacities(); }
double PackSimulation::upper_voltage_cutoff() const { return impl_->upper_; }

PackSolution PackSimulation::run(const Experiment& experiment, const std::function<std::string()>& stop) {
  return impl_->run(experiment, stop);
}

}  // namespace voltaic
