// load_pack_config: the run config as load_config reads it, its cells 1D as
// a sweep's, then [pack] (the circuit and the pack's cut-offs), [pack.thermal]
// (the thermal network) and, when there is one, [sweep], whose cells become
// the pack's, read as `voltaic sweep` reads them (sweep_reader.hpp).
#include "voltaic/io/pack_config.hpp"

#include <cstddef>
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
#include "io/input_file.hpp"
#include "io/sweep_reader.hpp"
#include "voltaic/io/atomic_file.hpp"
#include "voltaic/io/netlist_file.hpp"
#include "voltaic/io/sweep_config.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic::io {

namespace {

using detail::ConfigSection;
namespace fs = std::filesystem;

constexpr double kInf = std::numeric_limits<double>::infinity();
const Interval kAtLeastOne{1.0, kInf, true, false};
const Interval kNonNegative{0.0, kInf, true, false};
const Interval kPositive{0.0, kInf, false, false};

std::string show(double v) { return format_parameter_value(v); }

/// The pack's size as messages give it: "4 x 3 = 12 cells (parallel x
/// series)", or "12 cells (the netlist's V elements)".
std::string size_of(const PackLayout& l) {
  if (!l.netlist.empty()) return std::to_string(l.cells()) + " cells (the netlist's V elements)";
  return std::to_string(l.parallel) + " x " + std::to_string(l.series) + " = " + std::to_string(l.cells()) +
         " cells (parallel x series)";
}

/// How cell indices count: "cell k = s Np + p", or the netlist's V elements in order.
std::string cell_order(const PackLayout& l) {
  return l.netlist.empty() ? "cell k = s Np + p" : "cell k the netlist's k-th V element";
}

/// The first of `keys` that `s` gives, in the file's order.
std::optional<std::string> first_given(const ConfigSection& s, const std::vector<std::string>& keys) {
  std::optional<std::string> first;
  for (const std::string& k : keys)
    if (s.has(k) && (!first || s.line(k) < s.line(*first))) first = k;
  return first;
}

/// A list of one number per cell (k = s Np + p), each inside `allowed`;
/// empty when not given.
std::vector<double> per_cell(const ConfigSection& s, const std::string& key, const Interval& allowed,
                             const std::string& unit, const PackLayout& l) {
  const std::string each = detail::allowed_number(allowed, unit);
  const std::string expected =
      "a list of one number per cell (" + cell_order(l) + "), " + size_of(l) + ", each " + each;
  const toml::array* a = s.array(key, expected);
  if (!a) return {};
  if (a->size() != l.cells()) {
    s.fail(key,
           "has " + std::to_string(a->size()) + " values, but the pack has " + size_of(l) + "; allowed: " + expected);
  }
  std::vector<double> values;
  for (std::size_t k = 0; k < a->size(); ++k) {
    const toml::node& e = *a->get(k);
    const auto* i = e.as_integer();
    const auto* f = e.as_floating_point();
    if (!i && !f) s.fail_at(e, s.path(key), l.cell_name(k) + " is " + detail::describe(e) + "; allowed: " + each);
    const double v = i ? static_cast<double>(i->get()) : f->get();
    if (!allowed.contains(v)) s.fail_at(e, s.path(key), l.cell_name(k) + " is " + show(v) + "; allowed: " + each);
    values.push_back(v);
  }
  return values;
}

/// `one` (every cell's value) beside `each` (a list of them).
void refuse_both(const ConfigSection& s, const std::string& one, const std::string& each) {
  if (s.has(one) && s.has(each)) {
    s.fail(one, "is given beside " + each + " (line " + std::to_string(s.line(each)) +
                    "), which sets every cell's; allowed: one of them");
  }
}

/// [pack] netlist: the file's elements, its wiring checked (check_netlist).
std::vector<NetlistElement> read_netlist(const ConfigSection& p) {
  const std::string allowed =
      "a netlist file (desc node1 node2 value: LTspice's .cir or liionpack's CSV), its path "
      "relative to the config's directory";
  for (const char* grid :
       {"parallel", "series", "connection_resistance", "connection_resistances", "busbar_resistance"})
    if (p.has(grid))
      p.fail(grid, "is given beside netlist (line " + std::to_string(p.line("netlist")) +
                       "), which holds the pack's wiring and resistors; allowed: one of them");
  const std::string written = *p.text("netlist", allowed);  // messages name it as the config does
  fs::path path(written);
  if (path.is_relative()) path = fs::path(p.source().base_dir) / path;
  std::vector<NetlistElement> netlist;
  try {
    netlist = parse_netlist(detail::read_input_file(path.lexically_normal().string(), kMaxNetlistBytes,
                                                    "voltaic::io::load_netlist", allowed),
                            written);
  } catch (const FileError& x) {
    p.fail("netlist", "'" + written + "' " + x.why());
  } catch (const InvalidArgument& x) {  // written:LINE: why
    p.fail("netlist", x.what_failed() + ": " + x.why());
  }
  try {
    check_netlist(netlist);
  } catch (const InvalidArgument& x) {
    p.fail("netlist", "'" + written + "': " + x.what_failed() + ": " + x.why());
  }
  return netlist;
}

PackLayout read_layout(const ConfigSection& p) {
  PackLayout l;
  if (p.has("netlist")) {
    l.netlist = read_netlist(p);
    if (l.cells() > kMaxSweepCells)
      p.fail("netlist", "holds " + std::to_string(l.cells()) + " cells; allowed: at most " +
                            std::to_string(kMaxSweepCells) + " cells in a pack");
    return l;
  }
  struct Count {
    const char* key;
    int PackLayout::*field;
    const char* what;
  };
  for (const Count& c : {Count{"parallel", &PackLayout::parallel, "the cells of each group, in parallel (Np)"},
                         Count{"series", &PackLayout::series, "the groups, in series (Ns)"}}) {
    const std::optional<int> n = p.integer(c.key, kAtLeastOne);
    if (!n) {
      p.fail(c.key, std::string("is missing; allowed: ") + c.key + " = " + detail::allowed_integer(kAtLeastOne) + ", " +
                        c.what + " (or a netlist)");
    }
    l.*c.field = *n;
  }
  if (l.cells() > kMaxSweepCells) {
    p.fail("series",
           "makes " + size_of(l) + "; allowed: at most " + std::to_string(kMaxSweepCells) + " cells in a pack");
  }
  if (auto r = p.number("connection_resistance", kNonNegative, "Ohm")) l.connection_resistance = *r;
  l.connection_resistances = per_cell(p, "connection_resistances", kNonNegative, "Ohm", l);
  refuse_both(p, "connection_resistance", "connection_resistances");
  if (auto r = p.number("busbar_resistance", kNonNegative, "Ohm")) l.busbar_resistance = *r;
  return l;
}

void read_cutoffs(const ConfigSection& p, PackOptions& o) {
  if (auto v = p.number("lower_voltage_cutoff", kPositive, "V")) o.lower_voltage_cutoff = *v;
  if (auto v = p.number("upper_voltage_cutoff", kPositive, "V")) o.upper_voltage_cutoff = *v;
  if (p.has("lower_voltage_cutoff") && p.has("upper_voltage_cutoff") &&
      !(o.upper_voltage_cutoff > o.lower_voltage_cutoff)) {
    p.fail("upper_voltage_cutoff", "is " + show(o.upper_voltage_cutoff) + ", not above lower_voltage_cutoff (" +
                                       show(o.lower_voltage_cutoff) + ", line " +
                                       std::to_string(p.line("lower_voltage_cutoff")) +
                                       "); allowed: a number > lower_voltage_cutoff [V]");
  }
}

/// Cell `name` ("a", "b") of a link: an index of the pack's cells.
std::size_t link_cell(const ConfigSection& t, const toml::node& link, const char* name, const std::string& which,
                      const PackLayout& l) {
  const std::string key = t.path("links");
  const std::string allowed =
      "an integer in [0, " + std::to_string(l.cells() - 1) + "], a cell of the pack (" + cell_order(l) + ")";
  const toml::node* v = link.as_table()->get(name);
  if (!v) t.fail_at(link, key, which + ": " + name + " is missing; allowed: " + name + " = " + allowed);
  const auto* i = v->as_integer();
  if (!i) t.fail_at(*v, key, which + ": " + name + " is " + detail::describe(*v) + "; allowed: " + allowed);
  if (i->get() < 0 || static_cast<std::uint64_t>(i->get()) >= l.cells()) {
    t.fail_at(*v, key,
              which + ": " + name + " is " + std::to_string(i->get()) + ", not one of the pack's " + size_of(l) +
                  "; allowed: " + allowed);
  }
  return static_cast<std::size_t>(i->get());
}

std::vector<PackLink> read_links(const ConfigSection& t, const PackLayout& l) {
  const std::string key = t.path("links");
  const std::string allowed = "a list of links, each {a = CELL, b = CELL, conductance = W/K}";
  const toml::array* a = t.array("links", allowed);
  if (!a) return {};
  std::vector<PackLink> links;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::node& node = *a->get(i);
    const std::string which = "link " + std::to_string(i + 1);
    if (!node.is_table()) t.fail_at(node, key, which + " is " + detail::describe(node) + "; allowed: " + allowed);
    PackLink link;
    link.a = link_cell(t, node, "a", which, l);
    link.b = link_cell(t, node, "b", which, l);
    if (link.a == link.b) {
      t.fail_at(node, key,
                which + " joins cell " + std::to_string(link.a) + " to itself; allowed: two different cells");
    }
    const std::string each = detail::allowed_number(kNonNegative, "W/K");
    const toml::node* g = node.as_table()->get("conductance");
    if (!g) t.fail_at(node, key, which + ": conductance is missing; allowed: conductance = " + each);
    const auto* gi = g->as_integer();
    const auto* gf = g->as_floating_point();
    if (!gi && !gf) t.fail_at(*g, key, which + ": conductance is " + detail::describe(*g) + "; allowed: " + each);
    link.conductance = gi ? static_cast<double>(gi->get()) : gf->get();
    if (!kNonNegative.contains(link.conductance)) {
      t.fail_at(*g, key, which + ": conductance is " + show(link.conductance) + "; allowed: " + each);
    }
    for (std::size_t j = 0; j < links.size(); ++j) {
      const bool same =
          (links[j].a == link.a && links[j].b == link.b) || (links[j].a == link.b && links[j].b == link.a);
      if (same) {
        t.fail_at(node, key,
                  which + " joins cells " + std::to_string(link.a) + " and " + std::to_string(link.b) + ", as link " +
                      std::to_string(j + 1) + " does; allowed: each pair of cells once");
      }
    }
    links.push_back(link);
  }
  return links;
}

void read_coolant(const ConfigSection& t, const PackLayout& l, PackThermal& th) {
  using Coolant = PackThermal::Coolant;
  const std::optional<std::string> name = t.choice("coolant", {"none", "plate", "flow"});
  th.coolant = !name || *name == "none" ? Coolant::none : *name == "plate" ? Coolant::plate : Coolant::flow;
  const std::string coolant = "coolant = \"" + name.value_or("none") + "\"" + (name ? "" : " (the default)");
  if (th.coolant == Coolant::none) {
    const std::optional<std::string> given =
        first_given(t, {"coolant_conductance", "coolant_conductances", "coolant_temperature", "coolant_capacity_rate"});
    if (given) {
      t.fail(*given, "is read with coolant = \"plate\" or \"flow\", not with " + coolant +
                         "; allowed: remove it, or choose a coolant");
    }
    return;
  }
  if (auto g = t.number("coolant_conductance", kNonNegative, "W/K")) th.coolant_conductance = *g;
  th.coolant_conductances = per_cell(t, "coolant_conductances", kNonNegative, "W/K", l);
  refuse_both(t, "coolant_conductance", "coolant_conductances");
  if (!t.has("coolant_conductance") && !t.has("coolant_conductances")) {
    t.fail("coolant", "is \"" + *name +
                          "\" without coolant_conductance or coolant_conductances, which carry the cells' heat to "
                          "it; allowed: one of them beside it, or coolant = \"none\"");
  }
  if (auto temperature = t.number("coolant_temperature", kPositive, "K")) th.coolant_temperature = *temperature;
  if (th.coolant == Coolant::plate && t.has("coolant_capacity_rate")) {
    t.fail("coolant_capacity_rate", "is read with coolant = \"flow\", not with " + coolant +
                                        " (a plate stays at coolant_temperature); allowed: remove it, or "
                                        "coolant = \"flow\"");
  }
  if (th.coolant == Coolant::flow) {
    const std::optional<double> rate = t.number("coolant_capacity_rate", kPositive, "W/K");
    if (!rate) {
      t.fail("coolant_capacity_rate",
             "is missing; allowed: coolant_capacity_rate = " + detail::allowed_number(kPositive, "W/K") +
                 ", the coolant's mass flow times its specific heat, with " + coolant);
    }
    th.coolant_capacity_rate = *rate;
  }
}

/// [pack.thermal]; a coolant's temperature defaults to the ambient one.
PackThermal read_thermal(const ConfigSection& p, const PackLayout& l, const RunConfig& run) {
  PackThermal th;
  th.coolant_temperature = run.parameters.thermal.ambient_temperature;
  const toml::node* node = p.node(detail::kPackThermalKey);
  if (!node) return th;
  if (!node->is_table()) {
    p.fail(detail::kPackThermalKey, "is " + detail::describe(*node) + "; allowed: a table, [" +
                                        detail::kPackThermalSection + "] with its keys below it");
  }
  const ConfigSection t(p.source(), detail::kPackThermalSection, node->as_table());
  if (const std::optional<std::string> given = first_given(t, detail::pack_thermal_keys());
      given && run.simulation.thermal != ThermalModel::lumped) {
    t.fail(*given,
           "is part of the pack's thermal network, which needs cells with temperatures of their own, but the "
           "cells are isothermal (thermal.model); allowed: thermal.model = \"lumped\", or no [pack.thermal]");
  }
  if (auto g = t.number("neighbour_conductance", kNonNegative, "W/K")) th.neighbour_conductance = *g;
  if (th.neighbour_conductance > 0.0 && !l.netlist.empty()) {
    t.fail("neighbour_conductance",
           "links the neighbours of an Np x Ns grid, which a netlist pack has not; allowed: "
           "0, and links = [{a = CELL, b = CELL, conductance = W/K}, ...] between the cells "
           "that touch");
  }
  th.links = read_links(t, l);
  read_coolant(t, l, th);
  return th;
}

/// [sweep]'s cells, one per cell of the pack; none without [sweep].
CellParameters read_cells(const toml::table& root, const detail::ConfigSource& source, const RunConfig& run,
                          const ConfigSection& p, const PackLayout& l) {
  const toml::node* node = root.get("sweep");
  if (!node) return {};
  SweepConfig sweep = detail::read_sweep(root, source, run);
  const std::size_t n = sweep.cells.num_cells();
  if (n == l.cells()) return std::move(sweep.cells);
  using Method = SweepConfig::Method;
  const Method m = sweep.method;
  const char* key = m == Method::table                                    ? "table"
                    : m == Method::random || m == Method::latin_hypercube ? "samples"
                                                                          : "parameters";
  const ConfigSection s(source, "sweep", node->as_table());
  s.fail(key, "gives " + std::to_string(n) + " cells, but [pack] (line " + std::to_string(p.line()) + ") has " +
                  size_of(l) + "; allowed: exactly " + std::to_string(l.cells()) +
                  " cells, sweep cell k becoming the pack's cell k (" + cell_order(l) + ")");
}

}  // namespace

PackRunConfig parse_pack_config(const std::string& toml_text, const std::string& origin, const std::string& base_dir) {
  const detail::ConfigSource source{origin, base_dir};
  const toml::table root = detail::parse_toml(toml_text, source);
  PackRunConfig config;
  config.run = detail::read_run_config(root, source);
  const toml::node* node = root.get(detail::kPackSection);
  if (!node) {
    source.fail(1, detail::kPackSection,
                "there is no [pack] section; allowed: [pack] with parallel and series (docs/config.md), or voltaic "
                "run for one cell");
  }
  detail::check_one_dimensional(root, source, config.run, "a pack's");
  const ConfigSection p(source, detail::kPackSection, node->as_table());  // check_names() has seen that it is a table
  config.layout = read_layout(p);
  config.options.cell = config.run.simulation;
  read_cutoffs(p, config.options);
  if (auto period = p.number("record_period", kNonNegative, "s")) config.options.record_period = *period;
  config.options.thermal = read_thermal(p, config.layout, config.run);
  config.cells = read_cells(root, source, config.run, p, config.layout);
  return config;
}

PackRunConfig load_pack_config(const std::string& path) {
  PackRunConfig config =
      parse_pack_config(detail::read_config_file(path, "load_pack_config"), path, detail::directory_of(path));
  config.run.path = path;
  return config;
}

}  // namespace voltaic::io
