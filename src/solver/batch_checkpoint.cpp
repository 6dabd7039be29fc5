// A cell-program batch as a Checkpoint and back. The per-cell values lie in
// arrays of doubles, one entry (or a run of entries) a cell in cell order;
// the program's own structs (ProgramClock, CycleTally, CycleSummary) go as
// their bytes, which the "layout" text ties to this build's sizes.
#include "solver/batch_checkpoint.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <type_traits>

#include "solver/setup_fingerprint.hpp"
#include "voltaic/core/digest.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/version.hpp"

namespace voltaic::program {

namespace {

constexpr const char* kFormat = "voltaic batch state 1";
constexpr const char* kWhere = "BatchSimulation::run (resuming a checkpoint)";
constexpr char kSeparator = '\x1e';  // between the cells' texts

enum class Held : int { not_started = 0, finished = 1, running = 2 };

[[noreturn]] void refuse(const std::string& why) { throw InvalidArgument("checkpoint", kWhere, why); }

template <class T>
constexpr std::size_t doubles_of() {
  static_assert(std::is_trivially_copyable<T>::value, "kept as its bytes");
  return (sizeof(T) + sizeof(double) - 1) / sizeof(double);
}

/// Appends v's bytes to `out` (doubles_of<T>() doubles).
template <class T>
void put(std::vector<double>& out, const T& v) {
  const std::size_t at = out.size();
  out.resize(at + doubles_of<T>(), 0.0);
  std::memcpy(out.data() + at, &v, sizeof(T));
}

/// Reads a T from `in` at `at` (advanced past it).
template <class T>
T take(const std::vector<double>& in, std::size_t& at) {
  T v;
  std::memcpy(static_cast<void*>(&v), in.data() + at, sizeof(T));  // trivially copyable, not trivial
  at += doubles_of<T>();
  return v;
}

std::string layout(const ProgramSettings& s) {
  std::ostringstream f;
  f << "voltaic " << version() << ", clock " << sizeof(ProgramClock) << " B, tally " << sizeof(CycleTally)
    << " B, cycle summary " << sizeof(CycleSummary) << " B, state " << flight_state_doubles(s.o) << " doubles a cell";
  return f.str();
}

const std::vector<double>& array(const Checkpoint& c, const std::string& key, std::size_t size) {
  const auto it = c.arrays.find(key);
  if (it == c.arrays.end()) refuse("has no '" + key + "'");
  if (it->second.size() != size)
    refuse("'" + key + "' holds " + std::to_string(it->second.size()) + " values, not " + std::to_string(size));
  return it->second;
}

const std::string& text(const Checkpoint& c, const std::string& key) {
  const auto it = c.texts.find(key);
  if (it == c.texts.end()) refuse("has no '" + key + "'");
  return it->second;
}

using Records = std::vector<const CellRecord*>;
using Four = std::array<const std::vector<double>*, kRowValues>;
using FourOut = std::array<std::vector<double>*, kRowValues>;

std::string join(const Records& records, const std::string& (*of)(const CellRecord&)) {
  std::string out;
  for (const CellRecord* r : records) out += of(*r) + kSeparator;
  return out;
}

std::vector<std::string> split(const std::string& joined, std::size_t cells, const char* key) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t at = joined.find(kSeparator); at != std::string::npos; at = joined.find(kSeparator, from)) {
    out.push_back(joined.substr(from, at - from));
    from = at + 1;
  }
  if (out.size() != cells || from != joined.size())
    refuse("'" + std::string(key) + "' holds " + std::to_string(out.size()) + " texts, not " + std::to_string(cells));
  return out;
}

/// A count kept as a double: a whole number in [0, most].
std::size_t count(double v, double most, const char* key) {
  if (!(v >= 0.0 && v <= most && v == double(static_cast<std::int64_t>(v))))
    refuse("'" + std::string(key) + "' has " + std::to_string(v) + "; allowed: a whole number in [0, " +
           std::to_string(static_cast<std::int64_t>(most)) + "]");
  return static_cast<std::size_t>(v);
}

constexpr const char* kCurveNames[kRowValues] = {"time", "voltage", "current", "temperature"};

/// The four curves of each record that `pick` names, concatenated, and their lengths.
void put_curves(Checkpoint& c, const std::string& prefix, const Records& records, Four (*pick)(const CellRecord&)) {
  std::vector<double>& lengths = c.arrays[prefix + " rows"];
  for (int v = 0; v < kRowValues; ++v) c.arrays[prefix + " " + kCurveNames[v]];
  for (const CellRecord* r : records) {
    const Four curves = pick(*r);
    lengths.push_back(double(curves[0]->size()));
    for (int v = 0; v < kRowValues; ++v) {
      std::vector<double>& all = c.arrays[prefix + " " + kCurveNames[v]];
      all.insert(all.end(), curves[v]->begin(), curves[v]->end());
    }
  }
}

/// put_curves' arrays back into the records' curves that `pick` names.
void take_curves(const Checkpoint& c, const std::string& prefix, std::vector<CellRecord>& records,
                 FourOut (*pick)(CellRecord&)) {
  const std::vector<double>& lengths = array(c, prefix + " rows", records.size());
  std::vector<std::size_t> rows(records.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    rows[i] = count(lengths[i], 1e15, (prefix + " rows").c_str());
    total += rows[i];
  }
  for (int v = 0; v < kRowValues; ++v) {
    const std::vector<double>& all = array(c, prefix + " " + kCurveNames[v], total);
    std::size_t at = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
      std::vector<double>& to = *pick(records[i])[static_cast<std::size_t>(v)];
      to.assign(all.begin() + static_cast<std::ptrdiff_t>(at), all.begin() + static_cast<std::ptrdiff_t>(at + rows[i]));
      at += rows[i];
    }
  }
}

Four result_curves(const CellRecord& r) {
  return {&r.result.time, &r.result.voltage, &r.result.current, &r.result.temperature};
}
Four held_curves(const CellRecord& r) {
  return {&r.held.values[0], &r.held.values[1], &r.held.values[2], &r.held.values[3]};
}
FourOut result_curves_of(CellRecord& r) {
  return {&r.result.time, &r.result.voltage, &r.result.current, &r.result.temperature};
}
FourOut held_curves_of(CellRecord& r) {
  return {&r.held.values[0], &r.held.values[1], &r.held.values[2], &r.held.values[3]};
}

}  // namespace

std::string batch_setup(const ParameterSet& base, const CellParameters& cells, const SimulationOptions& options,
                        const Experiment& experiment) {
  std::ostringstream f;
  f << setup_fingerprint(base, options);
  f << "custom function data: digest " << values_digest(base.custom_function_data()) << "\n";
  f << "sweep cells: " << cells.num_cells() << " of";
  for (const std::string& name : cells.names) f << " '" << name << "'";
  f << ", values digest " << values_digest(cells.values) << "\n";
  f << "experiment " << experiment.fingerprint() << "\n";
  return f.str();
}

Checkpoint batch_checkpoint(const std::string& setup, const ProgramSettings& s, const std::vector<CellRecord>& records,
                            const std::vector<std::unique_ptr<CellInFlight>>& flight) {
  // Each cell's record: the running ones' from their flight.
  Records kept(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) kept[i] = flight[i] ? &flight[i]->record : &records[i];
  Checkpoint c;
  c.texts["format"] = kFormat;
  c.texts["layout"] = layout(s);
  c.texts["setup"] = setup;
  c.integers["cells"] = static_cast<std::int64_t>(records.size());
  std::vector<double>& held = c.arrays["cell"];
  std::vector<double>& status = c.arrays["status"];
  std::vector<double>& values = c.arrays["result values"];
  std::vector<double>& counts = c.arrays["result counts"];
  std::vector<double>& cycle_counts = c.arrays["cycle count"];
  std::vector<double>& cycles = c.arrays["cycles"];
  std::vector<double>& cursor = c.arrays["rows and step"];
  std::vector<double>& tallies = c.arrays["tallies"];
  std::vector<double>& clocks = c.arrays["clocks"];
  std::vector<double>& states = c.arrays["states"];
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const CellRecord& r = *kept[i];
    const BatchCellResult& out = r.result;
    const bool finished = r.reported && out.status != BatchCellResult::Status::not_run;
    const Held h = flight[i] ? Held::running : finished ? Held::finished : Held::not_started;
    held.push_back(double(static_cast<int>(h)));
    status.push_back(double(static_cast<int>(out.status)));
    values.insert(values.end(), {out.discharge_capacity_ah, out.discharge_energy_wh, out.final_voltage,
                                 out.max_temperature, out.simulated_time});
    counts.insert(counts.end(), {double(out.steps_taken), double(out.steps_rejected), double(out.concentration_passes),
                                 double(out.newton_iterations)});
    cycle_counts.push_back(double(out.cycles.size()));
    for (const CycleSummary& y : out.cycles) put(cycles, y);
    cursor.insert(cursor.end(), {double(r.rows), double(r.step)});
    put(tallies, r.tally);
    if (!flight[i]) continue;
    put(clocks, flight[i]->clock);
    states.insert(states.end(), flight[i]->state.begin(), flight[i]->state.end());
  }
  c.texts["terminations"] = join(kept, [](const CellRecord& r) -> const std::string& { return r.result.termination; });
  c.texts["errors"] = join(kept, [](const CellRecord& r) -> const std::string& { return r.error; });
  c.texts["cycling ends"] = join(kept, [](const CellRecord& r) -> const std::string& { return r.cycling_end; });
  put_curves(c, "curves", kept, result_curves);
  put_curves(c, "held", kept, held_curves);
  return c;
}

ResumedBatch resume_batch(const Checkpoint& c, const std::string& setup, const ProgramSettings& s, std::size_t cells) {
  if (text(c, "format") != kFormat)
    refuse("has format '" + text(c, "format") + "', expected '" + kFormat + "' (a batch's checkpoint)");
  if (text(c, "layout") != layout(s))
    refuse("was written by another build or grid: '" + text(c, "layout") + "', here '" + layout(s) + "'");
  const std::string difference = first_difference(text(c, "setup"), setup);
  if (!difference.empty()) refuse("was written by another batch: " + difference);
  const auto stored = c.integers.find("cells");
  if (stored == c.integers.end() || stored->second != static_cast<std::int64_t>(cells))
    refuse("is of another number of cells");
  ResumedBatch b;
  b.records.resize(cells);
  b.flight.resize(cells);
  const std::vector<double>& held = array(c, "cell", cells);
  const std::vector<double>& status = array(c, "status", cells);
  const std::vector<double>& values = array(c, "result values", 5 * cells);
  const std::vector<double>& counts = array(c, "result counts", 4 * cells);
  const std::vector<double>& cycle_counts = array(c, "cycle count", cells);
  const std::vector<double>& cursor = array(c, "rows and step", 2 * cells);
  const std::vector<double>& tallies = array(c, "tallies", cells * doubles_of<CycleTally>());
  std::size_t running = 0, summaries = 0;
  for (std::size_t i = 0; i < cells; ++i) {
    running += count(held[i], 2.0, "cell") == static_cast<std::size_t>(Held::running);
    summaries += count(cycle_counts[i], 1e9, "cycle count");
  }
  const std::vector<double>& cycles = array(c, "cycles", summaries * doubles_of<CycleSummary>());
  const std::vector<double>& clocks = array(c, "clocks", running * doubles_of<ProgramClock>());
  const std::size_t span = flight_state_doubles(s.o);
  const std::vector<double>& states = array(c, "states", running * span);
  const std::vector<std::string> terminations = split(text(c, "terminations"), cells, "terminations");
  const std::vector<std::string> errors = split(text(c, "errors"), cells, "errors");
  const std::vector<std::string> ends = split(text(c, "cycling ends"), cells, "cycling ends");
  std::size_t at_cycle = 0, at_tally = 0, at_clock = 0, at_state = 0;
  for (std::size_t i = 0; i < cells; ++i) {
    CellRecord& r = b.records[i];
    BatchCellResult& out = r.result;
    const auto h = static_cast<Held>(static_cast<int>(held[i]));
    out.status = static_cast<BatchCellResult::Status>(count(status[i], 4.0, "status"));
    const double* v = values.data() + 5 * i;
    out.discharge_capacity_ah = v[0];
    out.discharge_energy_wh = v[1];
    out.final_voltage = v[2];
    out.max_temperature = v[3];
    out.simulated_time = v[4];
    const double* n = counts.data() + 4 * i;
    out.steps_taken = static_cast<int>(count(n[0], 2147483647.0, "result counts"));
    out.steps_rejected = static_cast<int>(count(n[1], 2147483647.0, "result counts"));
    out.concentration_passes = static_cast<long long>(count(n[2], 9e15, "result counts"));
    out.newton_iterations = static_cast<long long>(count(n[3], 9e15, "result counts"));
    out.cycles.resize(static_cast<std::size_t>(cycle_counts[i]));
    for (CycleSummary& y : out.cycles) y = take<CycleSummary>(cycles, at_cycle);
    out.termination = terminations[i];
    r.error = errors[i];
    r.cycling_end = ends[i];
    r.rows = count(cursor[2 * i], 9e15, "rows and step");
    r.step = static_cast<long long>(count(cursor[2 * i + 1], 9e15, "rows and step"));
    r.tally = take<CycleTally>(tallies, at_tally);
    r.reported = h == Held::finished;
    if (h != Held::running) continue;
    auto f = std::make_unique<CellInFlight>();
    f->clock = take<ProgramClock>(clocks, at_clock);
    if (f->clock.ending != Ending::running) refuse("holds a running cell whose clock has ended");
    f->state.assign(states.begin() + static_cast<std::ptrdiff_t>(at_state),
                    states.begin() + static_cast<std::ptrdiff_t>(at_state + span));
    at_state += span;
    b.flight[i] = std::move(f);
  }
  take_curves(c, "curves", b.records, result_curves_of);
  take_curves(c, "held", b.records, held_curves_of);
  return b;
}

}  // namespace voltaic::program
