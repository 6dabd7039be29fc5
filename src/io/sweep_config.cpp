// load_sweep_config: the run config as load_config reads it, then [sweep]:
// its method, the keys that method reads (a key of another method is an error
// naming the methods that read it), each parameter's values or distribution,
// then the cells, enumerated or drawn (sweep_sampling.hpp) or read from a
// table (sweep_table.hpp).
#include "voltaic/io/sweep_config.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/config_readers.hpp"
#include "io/config_schema.hpp"
#include "io/config_text.hpp"
#include "io/sweep_reader.hpp"
#include "io/sweep_sampling.hpp"
#include "io/sweep_table.hpp"
#include "voltaic/io/atomic_file.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/memory_estimate.hpp"

namespace voltaic::io {

namespace {

using detail::ConfigSection;
using detail::Distribution;
using Method = SweepConfig::Method;

constexpr double kInf = std::numeric_limits<double>::infinity();
const Interval kFinite{-kInf, kInf, false, false};
const Interval kPositive{0.0, kInf, false, false};
const Interval kBelowOne{0.0, 1.0, false, false};

constexpr Method kMethods[] = {Method::list, Method::grid, Method::random, Method::latin_hypercube, Method::table};
constexpr Method kSampled[] = {Method::random, Method::latin_hypercube};

/// The keys of [sweep] and of a parameter's table, with the methods that read them.
struct KeyUse {
  const char* key;
  std::vector<Method> methods;
};

const std::vector<KeyUse>& section_keys() {
  static const std::vector<KeyUse> uses = {
      {"samples", {Method::random, Method::latin_hypercube}},
      {"seed", {Method::random, Method::latin_hypercube}},
      {"table", {Method::table}},
      {"parameters", {Method::list, Method::grid, Method::random, Method::latin_hypercube}},
  };
  return uses;
}

const std::vector<KeyUse>& parameter_keys() {
  static const std::vector<KeyUse> uses = {
      {"values", {Method::list, Method::grid}},
      {"distribution", {Method::random, Method::latin_hypercube}},
      {"low", {Method::random, Method::latin_hypercube}},
      {"high", {Method::random, Method::latin_hypercube}},
      {"mean", {Method::random, Method::latin_hypercube}},
      {"std", {Method::random, Method::latin_hypercube}},
      {"spread", {Method::random, Method::latin_hypercube}},
  };
  return uses;
}

bool is_sampled(Method m) { return std::find(std::begin(kSampled), std::end(kSampled), m) != std::end(kSampled); }

/// "\"random\" and \"latin_hypercube\"".
std::string method_list(const std::vector<Method>& methods) {
  std::string s;
  for (std::size_t i = 0; i < methods.size(); ++i) {
    s += (i == 0 ? "" : i + 1 == methods.size() ? " and " : ", ") + std::string("\"") + to_string(methods[i]) + "\"";
  }
  return s;
}

std::string show(double v) { return format_parameter_value(v); }

/// The first key of `s` (in the file) that `m` does not read, reported with the methods that do.
void refuse_other_methods_keys(const ConfigSection& s, const std::vector<KeyUse>& uses, Method m) {
  const KeyUse* first = nullptr;
  for (const KeyUse& u : uses) {
    const bool foreign = s.has(u.key) && std::find(u.methods.begin(), u.methods.end(), m) == u.methods.end();
    if (foreign && (!first || s.line(u.key) < s.line(first->key))) first = &u;
  }
  if (!first) return;
  s.fail(first->key, std::string("is read by ") + (first->methods.size() == 1 ? "method " : "methods ") +
                         method_list(first->methods) + ", not by method = \"" + to_string(m) +
                         "\"; allowed: remove it, or choose one of those methods");
}

Method read_method(const ConfigSection& s) {
  std::vector<std::string> names;
  for (const Method m : kMethods) names.emplace_back(to_string(m));
  const std::optional<std::string> name = s.choice("method", names);
  if (!name) s.fail("method", "is missing; allowed: method = one of " + detail::quoted_list(names));
  for (const Method m : kMethods)
    if (*name == to_string(m)) return m;
  return Method::list;
}

/// A whole number of `key` that fits an int64 (TOML's integers), if given.
std::optional<std::int64_t> whole_number(const ConfigSection& s, const std::string& key, const std::string& allowed) {
  const toml::node* n = s.node(key);
  if (!n) return std::nullopt;
  if (const auto* f = n->as_floating_point(); f && std::isfinite(f->get()) && f->get() == std::floor(f->get())) {
    s.fail(key, "is " + detail::describe(*n) + "; allowed: " + allowed + " (write it without a decimal point)");
  }
  const auto* i = n->as_integer();
  if (!i) s.fail(key, "is " + detail::describe(*n) + "; allowed: " + allowed);
  return i->get();
}

/// Host memory a cell of a sweep takes through `voltaic sweep`: its sampled
/// values, its result and the row the output keeps until the summary.
/// Measured: 1.56 KiB a cell (peak RSS of 20,000 against 100,000 cells of a
/// two-parameter Latin hypercube, CPU backend); 2 KiB with headroom.
constexpr double kSweepBytesPerCell = 2048.0;

/// Refuses, at `key`, a sweep of `cells` cells whose estimate exceeds the
/// host memory this process can still allocate (ulimit and cgroup limits
/// included): an error up front, not bad_alloc half-way through sampling.
void require_sweep_memory(const ConfigSection& s, const std::string& key, std::uint64_t cells) {
  const double need = double(cells) * kSweepBytesPerCell, have = host_memory_bytes_available();
  if (need <= have) return;
  s.fail(key, "asks for " + std::to_string(cells) + " cells, which need about " + human_bytes(need) +
                  " of host memory (" + std::to_string(static_cast<int>(kSweepBytesPerCell)) + " bytes a cell), but " +
                  human_bytes(have) + " is available; allowed: at most about " +
                  std::to_string(static_cast<std::uint64_t>(have / kSweepBytesPerCell)) +
                  " cells here, or a sweep split into several");
}

std::uint64_t read_samples(const ConfigSection& s) {
  const std::string allowed = "an integer in [1, " + std::to_string(kMaxSweepCells) + "], the number of cells";
  const std::optional<std::int64_t> n = whole_number(s, "samples", allowed);
  if (!n) s.fail("samples", "is missing; allowed: samples = " + allowed);
  if (*n < 1) s.fail("samples", "is " + std::to_string(*n) + "; allowed: " + allowed);
  if (static_cast<std::uint64_t>(*n) > kMaxSweepCells) {
    s.fail("samples", "is " + std::to_string(*n) + ", more cells than a sweep may have; allowed: " + allowed);
  }
  return static_cast<std::uint64_t>(*n);
}

std::uint64_t read_seed(const ConfigSection& s) {
  const std::string allowed = "an integer >= 0 (default 1)";
  const std::optional<std::int64_t> seed = whole_number(s, "seed", allowed);
  if (!seed) return 1;
  if (*seed < 0) s.fail("seed", "is " + std::to_string(*seed) + "; allowed: " + allowed);
  return static_cast<std::uint64_t>(*seed);
}

/// The line a parameter's table starts at: its header's, or for a table
/// toml++ made implicitly (dotted keys) that of its first key.
int first_line(const toml::node& n) {
  if (const int line = detail::line_of(n, 0); line > 0 || !n.is_table()) return line > 0 ? line : INT_MAX;
  int first = INT_MAX;
  for (auto&& [key, value] : *n.as_table()) first = std::min(first, first_line(value));
  return first;
}

/// One parameter of [sweep.parameters].
struct Swept {
  std::string name;
  const ParameterInfo* info;
  ConfigSection table;
};

/// The parameters in the file's order (toml++ sorts them by name), each a
/// table and set nowhere else.
std::vector<Swept> swept_parameters(const ConfigSection& s, const detail::ConfigSections& run) {
  const std::string keys =
      "values = [...] (methods \"list\" and \"grid\") or a distribution (\"random\" and \"latin_hypercube\")";
  const std::string allowed = "a table of parameters by PyBaMM name, each [sweep.parameters.\"NAME\"] with " + keys;
  const toml::node* node = s.node(detail::kSweepParametersKey);
  if (!node) s.fail(detail::kSweepParametersKey, "is missing; allowed: " + allowed);
  if (!node->is_table()) s.fail(detail::kSweepParametersKey, "is " + detail::describe(*node) + "; allowed: " + allowed);
  const ConfigSection parameters(s.source(), s.path(detail::kSweepParametersKey), node->as_table());
  if (parameters.table()->empty()) s.fail(detail::kSweepParametersKey, "is empty; allowed: " + allowed);
  std::vector<std::pair<std::string, const toml::node*>> in_order;
  for (auto&& [key, value] : *parameters.table()) in_order.emplace_back(std::string(key.str()), &value);
  std::stable_sort(in_order.begin(), in_order.end(),
                   [](const auto& a, const auto& b) { return first_line(*a.second) < first_line(*b.second); });
  std::vector<Swept> swept;
  for (const auto& [name, value] : in_order) {
    const std::string path = parameters.path(name);
    const int line = first_line(*value) == INT_MAX ? parameters.line() : first_line(*value);
    if (!value->is_table()) {
      s.source().fail(line, path, "is " + detail::describe(*value) + "; allowed: a table, [" + path + "] with " + keys);
    }
    if (const auto other = detail::parameter_setting(run, name)) {
      s.source().fail(line, path,
                      "sweeps \"" + name + "\", which " + other->key + " (line " + std::to_string(other->line) +
                          ") sets too; allowed: one of them");
    }
    swept.push_back({name, find_parameter(name), ConfigSection(s.source(), path, value->as_table())});
  }
  return swept;
}

std::vector<double> read_values(const Swept& p) {
  const std::string unit = p.info->unit.empty() ? "" : " [" + p.info->unit + "]";
  const std::string allowed = "a non-empty list of finite numbers" + unit;
  const ConfigSection& t = p.table;
  const toml::array* a = t.array("values", allowed);
  if (!a) t.fail("values", "is missing; allowed: values = " + allowed);
  if (a->empty()) t.fail("values", "is empty; allowed: " + allowed);
  std::vector<double> values;
  for (const toml::node& element : *a) {
    const std::string entry = "entry " + std::to_string(values.size() + 1);
    double v = 0.0;
    if (const auto* i = element.as_integer()) {
      v = static_cast<double>(i->get());
    } else if (const auto* f = element.as_floating_point()) {
      v = f->get();
    } else {
      t.fail_at(element, t.path("values"), entry + " is " + detail::describe(element) + "; allowed: " + allowed);
    }
    // Only non-finite values are refused: one outside the parameter's range fails its cell in the batch.
    if (!std::isfinite(v)) t.fail_at(element, t.path("values"), entry + " is " + show(v) + "; allowed: " + allowed);
    values.push_back(v);
  }
  return values;
}

/// Method "list": lists of one length, cell i taking entry i of each.
CellParameters list_cells(const std::vector<Swept>& swept) {
  std::vector<std::vector<double>> lists;
  for (const Swept& p : swept) {
    lists.push_back(read_values(p));
    if (lists.back().size() != lists.front().size()) {
      p.table.fail("values", "has " + std::to_string(lists.back().size()) + " values, but " +
                                 swept.front().table.path("values") + " (line " +
                                 std::to_string(swept.front().table.line("values")) + ") " +
                                 std::to_string(lists.front().size()) +
                                 "; allowed: lists of one length with method = \"list\" (cell i takes entry i of "
                                 "each), or method = \"grid\" for every combination");
    }
  }
  CellParameters cells;
  cells.values = detail::zip_lists(lists);
  return cells;
}

/// Method "grid": every combination, its count checked before any is made.
CellParameters grid_cells(const ConfigSection& s, const std::vector<Swept>& swept) {
  std::vector<std::vector<double>> lists;
  std::uint64_t cells = 1;
  bool too_many = false;
  double product = 1.0;  // for the message only
  std::string factors;
  for (const Swept& p : swept) {
    lists.push_back(read_values(p));
    const std::uint64_t n = lists.back().size();
    too_many = too_many || cells > kMaxSweepCells / n;
    if (!too_many) cells *= n;
    product *= static_cast<double>(n);
    factors += (factors.empty() ? "" : " x ") + std::to_string(n);
  }
  if (too_many || cells > kMaxSweepCells) {
    const std::string count =
        product < 9007199254740992.0 ? std::to_string(static_cast<std::uint64_t>(product)) : "about " + show(product);
    s.fail(detail::kSweepParametersKey, "the grid has " + factors + " = " + count +
                                            " cells (the lengths of the values lists multiplied); allowed: at most " +
                                            std::to_string(kMaxSweepCells) + " cells in a sweep");
  }
  require_sweep_memory(s, detail::kSweepParametersKey, cells);
  CellParameters out;
  out.values = detail::full_factorial(lists);
  return out;
}

Distribution::Kind read_kind(const ConfigSection& t) {
  const std::optional<std::string> name = t.choice("distribution", {"uniform", "log_uniform", "normal"});
  if (!name || *name == "uniform") return Distribution::Kind::uniform;
  return *name == "normal" ? Distribution::Kind::normal : Distribution::Kind::log_uniform;
}

/// spread: uniform and log_uniform on base (1 -+ spread), normal with mean
/// base and std spread |base|; base is the cell's value of the parameter.
Distribution from_spread(const Swept& p, Distribution::Kind kind, double base) {
  const ConfigSection& t = p.table;
  const bool log = kind == Distribution::Kind::log_uniform;
  const double spread = *t.number("spread", kPositive, "");
  if (log && !kBelowOne.contains(spread)) {
    t.fail("spread", "is " + show(spread) +
                         "; allowed: a number in (0, 1) for log_uniform, whose low, base (1 - spread), must be > 0");
  }
  const std::string of_base = "the cell's \"" + p.name + "\" is " + show(base);
  if (base == 0.0 || (log && base < 0.0)) {
    t.fail("spread", "is relative to the cell's value, and " + of_base + "; allowed: " +
                         (log ? "low and high (log_uniform needs a base > 0)" : "low and high, or mean and std"));
  }
  Distribution d{kind, base * (1.0 - spread), base * (1.0 + spread)};
  if (kind == Distribution::Kind::normal) d = {kind, base, spread * std::fabs(base)};
  if (d.a > d.b && kind != Distribution::Kind::normal) std::swap(d.a, d.b);  // a negative base
  if (!std::isfinite(d.a) || !std::isfinite(d.b)) {
    t.fail("spread", "is " + show(spread) + " and " + of_base + ", which overflows; allowed: a smaller spread");
  }
  return d;
}

/// A key given beside others that exclude it.
void refuse_keys(const ConfigSection& t, const std::vector<std::string>& keys, const std::string& why) {
  for (const std::string& k : keys)
    if (t.has(k)) t.fail(k, why);
}

Distribution read_distribution(const Swept& p, double base) {
  const ConfigSection& t = p.table;
  const Distribution::Kind kind = read_kind(t);
  const bool normal = kind == Distribution::Kind::normal;
  const std::string name = normal ? "normal" : kind == Distribution::Kind::uniform ? "uniform" : "log_uniform";
  const std::string pair = normal ? "mean and std" : "low and high";
  if (t.has("spread")) {
    refuse_keys(t, {"low", "high", "mean", "std"},
                "is given beside spread, which stands for " + pair + "; allowed: spread, or " + pair);
    return from_spread(p, kind, base);
  }
  refuse_keys(t, normal ? std::vector<std::string>{"low", "high"} : std::vector<std::string>{"mean", "std"},
              "is not a key of distribution = \"" + name + "\"; allowed: " + pair + " (or spread), or " +
                  (normal ? "distribution = \"uniform\" or \"log_uniform\" for low and high"
                          : "distribution = \"normal\" for mean and std"));
  const char* first = normal ? "mean" : "low";
  const char* second = normal ? "std" : "high";
  for (const char* k : {first, second}) {
    if (!t.has(k)) t.fail(k, "is missing; allowed: " + pair + " for distribution = \"" + name + "\", or spread");
  }
  const std::string& unit = p.info->unit;
  const Interval first_range = kind == Distribution::Kind::log_uniform ? kPositive : kFinite;
  const double a = *t.number(first, first_range, unit);
  const std::string in_unit = unit.empty() ? "" : " [" + unit + "]";
  if (normal) {
    // A draw lies within detail::kNormalReach standard deviations of the mean
    // (sweep_sampling.hpp): every one must be a finite number.
    const double std = *t.number(second, kPositive, unit);
    if (!std::isfinite(std::fabs(a) + detail::kNormalReach * std)) {
      t.fail(second, "is " + show(std) + " with mean " + show(a) + ": draws " + show(detail::kNormalReach) +
                         " std from the mean overflow; allowed: |mean| + " + show(detail::kNormalReach) +
                         " std a finite number" + in_unit);
    }
    return {kind, a, std};
  }
  const double b = *t.number(second, kFinite, unit);
  if (!(b > a))
    t.fail(second, "is " + show(b) + ", not above low (" + show(a) + "); allowed: a number > low" + in_unit);
  if (!std::isfinite(b - a)) {  // a + u (b - a) would be infinite
    t.fail(second, "is " + show(b) + " and low " + show(a) +
                       ": high - low overflows; allowed: high - low a finite number" + in_unit);
  }
  return {kind, a, b};
}

CellParameters sampled_cells(const ConfigSection& s, const std::vector<Swept>& swept, Method m,
                             const ParameterSet& base, std::uint64_t& seed) {
  const std::uint64_t samples = read_samples(s);
  require_sweep_memory(s, "samples", samples);
  seed = read_seed(s);
  std::vector<Distribution> d;
  for (const Swept& p : swept) d.push_back(read_distribution(p, p.info->get(base)));
  CellParameters cells;
  cells.values =
      m == Method::random ? detail::sample_random(d, samples, seed) : detail::sample_latin_hypercube(d, samples, seed);
  return cells;
}

std::string message_of(const Error& e) { return e.what_failed() + ": " + e.why(); }

/// Method "table": the CSV file's rows; its errors reported at sweep.table.
CellParameters table_cells(const ConfigSection& s, const detail::ConfigSections& run, std::string& table_path) {
  const std::string allowed = "a CSV file of cells, its path relative to the config's directory";
  const std::optional<std::string> given = s.text("table", allowed);
  if (!given) s.fail("table", "is missing; allowed: table = " + allowed);
  std::filesystem::path path(*given);
  if (path.is_relative()) path = std::filesystem::path(s.source().base_dir) / path;
  table_path = path.lexically_normal().string();
  detail::SweepTable table;
  try {
    table = detail::load_sweep_table(table_path, kMaxSweepCells);
  } catch (const FileError& e) {
    s.fail("table", message_of(e));
  } catch (const InvalidArgument& e) {
    s.fail("table", message_of(e));
  }
  const std::vector<std::string>& names = table.cells.names;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (const auto other = detail::parameter_setting(run, names[k])) {
      s.fail("table", one_line(table_path) + ":" + std::to_string(table.header_line) + ": column " +
                          std::to_string(k + 1) + " ('" + names[k] + "') is also set by " + other->key + " (line " +
                          std::to_string(other->line) + "); allowed: one of them");
    }
  }
  return std::move(table.cells);
}

/// An isothermal cell is held at the ambient temperature: sweeping its
/// initial temperature would change nothing. The refusal, or "".
std::string isothermal_initial_temperature(const std::string& name, const RunConfig& run) {
  if (run.simulation.thermal != ThermalModel::isothermal || name != "Initial temperature [K]") return "";
  return "sweeps \"Initial temperature [K]\", but an isothermal cell is held at the ambient temperature "
         "(PyBaMM's convention); allowed: sweep \"Ambient temperature [K]\", or thermal.model = \"lumped\"";
}

}  // namespace

SweepConfig detail::read_sweep(const toml::table& root, const detail::ConfigSource& source, const RunConfig& run) {
  const toml::node* node = root.get("sweep");
  if (!node) {
    source.fail(1, "sweep",
                "there is no [sweep] section; allowed: [sweep] with method = \"list\", \"grid\", \"random\", "
                "\"latin_hypercube\" or \"table\" and that method's keys (docs/config.md), or voltaic run for one "
                "cell");
  }
  const ConfigSection s(source, "sweep", node->as_table());  // check_names() has seen that it is a table
  const detail::ConfigSections sections = detail::sections_of(root, source);
  SweepConfig sweep;
  sweep.method = read_method(s);
  refuse_other_methods_keys(s, section_keys(), sweep.method);
  if (sweep.method == Method::table) {
    sweep.cells = table_cells(s, sections, sweep.table_path);
    for (const std::string& name : sweep.cells.names)
      if (const std::string why = isothermal_initial_temperature(name, run); !why.empty()) s.fail("table", why);
    return sweep;
  }
  const std::vector<Swept> swept = swept_parameters(s, sections);
  for (const Swept& p : swept)
    if (const std::string why = isothermal_initial_temperature(p.name, run); !why.empty()) p.table.fail("values", why);
  for (const Swept& p : swept) refuse_other_methods_keys(p.table, parameter_keys(), sweep.method);
  if (sweep.method == Method::list) sweep.cells = list_cells(swept);
  if (sweep.method == Method::grid) sweep.cells = grid_cells(s, swept);
  if (is_sampled(sweep.method)) sweep.cells = sampled_cells(s, swept, sweep.method, run.parameters, sweep.seed);
  for (const Swept& p : swept) sweep.cells.names.push_back(p.name);
  return sweep;
}

const char* to_string(SweepConfig::Method m) {
  switch (m) {
    case Method::list: return "list";
    case Method::grid: return "grid";
    case Method::random: return "random";
    case Method::latin_hypercube: return "latin_hypercube";
    case Method::table: return "table";
  }
  return "list";
}

namespace {

/// The key `section.key` of the file, or null.
const toml::node* node_of(const toml::table& root, const char* section, const char* key) {
  const toml::table* t = root.get(section) ? root.get(section)->as_table() : nullptr;
  return t ? t->get(key) : nullptr;
}

}  // namespace

void detail::check_one_dimensional(const toml::table& root, const detail::ConfigSource& source, const RunConfig& run,
                                   const std::string& whose) {
  const CellGridSpec& g = run.simulation.grid;
  const std::string pouch = " (" + whose + " cells are 1D; voltaic run runs a pouch or a stack)";
  for (const auto& [key, value] : {std::pair<const char*, int>{"nx", g.nx}, {"ny", g.ny}}) {
    const toml::node* node = node_of(root, "grid", key);
    if (node && value != 1)
      source.fail(detail::line_of(*node), std::string("grid.") + key,
                  "is " + std::to_string(value) + "; allowed: 1" + pouch);
  }
  if (const toml::node* node = node_of(root, "grid", "current_collector");
      node && g.collectors != CurrentCollectorModel::uniform)
    source.fail(detail::line_of(*node), "grid.current_collector",
                "is \"potential pair\"; allowed: \"uniform\"" + pouch);
  if (const toml::node* node = node_of(root, "thermal", "model");
      node && run.simulation.thermal == ThermalModel::conduction)
    source.fail(detail::line_of(*node), "thermal.model",
                "is \"conduction\"; allowed: \"isothermal\" or \"lumped\"" + pouch);
}

SweepRunConfig parse_sweep_config(const std::string& toml_text, const std::string& origin,
                                  const std::string& base_dir) {
  const detail::ConfigSource source{origin, base_dir};
  const toml::table root = detail::parse_toml(toml_text, source);
  detail::refuse_pack(root, source);
  SweepRunConfig config;
  config.run = detail::read_run_config(root, source);
  detail::check_one_dimensional(root, source, config.run, "a sweep's");
  config.sweep = detail::read_sweep(root, source, config.run);
  return config;
}

SweepRunConfig load_sweep_config(const std::string& path) {
  SweepRunConfig config =
      parse_sweep_config(detail::read_config_file(path, "load_sweep_config"), path, detail::directory_of(path));
  config.run.path = path;
  return config;
}

}  // namespace voltaic::io
