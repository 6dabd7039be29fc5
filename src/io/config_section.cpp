#include "io/config_section.hpp"

#include <climits>
#include <cmath>
#include <cstdint>
#include <utility>

#include "voltaic/io/config.hpp"

namespace voltaic::io::detail {

namespace {

bool is_bare_key(const std::string& key) {
  if (key.empty()) return false;
  for (const char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

/// A string in double quotes, as TOML writes it.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

/// A string value, quoted and cut after 60 bytes: enough to recognise it (and
/// not in the middle of a UTF-8 character).
std::string show_string(const std::string& s) {
  if (s.size() <= 60) return quoted(s);
  std::size_t shown = 57;
  while (shown > 0 && (static_cast<unsigned char>(s[shown]) & 0xC0u) == 0x80u) --shown;
  const std::string q = quoted(s.substr(0, shown));
  return q.substr(0, q.size() - 1) + "...\"";
}

/// 3.0 as "3.0", not "3": in "is a float (3.0)" the point is the problem.
std::string show_float(double v) {
  std::string s = format_parameter_value(v);
  if (std::isfinite(v) && s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

bool has_control_character(const std::string& s) {
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

}  // namespace

void ConfigSource::fail(int line, const std::string& key, const std::string& why) const {
  throw ConfigError(origin, line, key, why);
}

int line_of(const toml::node& node, int fallback) {
  const auto line = node.source().begin.line;
  return line > 0 ? static_cast<int>(line) : fallback;
}

std::string describe(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "a string (" + show_string(node.as_string()->get()) + ")";
    case toml::node_type::integer: return "an integer (" + std::to_string(node.as_integer()->get()) + ")";
    case toml::node_type::floating_point: return "a float (" + show_float(node.as_floating_point()->get()) + ")";
    case toml::node_type::boolean: return std::string("a boolean (") + (node.as_boolean()->get() ? "true)" : "false)");
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    default: return "nothing";
  }
}

std::string key_path(const std::string& section, const std::string& key) {
  if (is_bare_key(key)) return section + "." + key;
  return section + "." + quoted(key);
}

std::string allowed_number(const Interval& allowed, const std::string& unit) {
  Interval real = allowed;
  real.whole = false;  // said by "a whole number"
  const std::string range = real.to_string();
  const std::string unit_part = unit.empty() ? "" : " [" + unit + "]";
  if (range == "finite") return "any finite number" + unit_part;
  if (range.rfind("exactly ", 0) == 0) return range + unit_part;
  return (allowed.whole ? "a whole number " : "a number ") + range + unit_part;
}

std::string allowed_integer(const Interval& allowed) {
  Interval real = allowed;
  real.whole = false;  // "an integer" says it
  return "an integer " + real.to_string();
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "\"" : ", \"") + names[i] + "\"";
  return s;
}

ConfigSection::ConfigSection(const ConfigSource& source, std::string name, const toml::table* table)
    : source_(&source), name_(std::move(name)), table_(table) {}

const toml::node* ConfigSection::node(const std::string& key) const { return table_ ? table_->get(key) : nullptr; }

int ConfigSection::line() const { return table_ ? line_of(*table_) : 1; }

int ConfigSection::line(const std::string& key) const {
  const toml::node* n = node(key);
  return n ? line_of(*n, line()) : line();
}

void ConfigSection::fail(const std::string& key, const std::string& why) const {
  source_->fail(line(key), path(key), why);
}

void ConfigSection::fail_at(const toml::node& at, const std::string& key, const std::string& why) const {
  source_->fail(line_of(at, line()), key, why);
}

double ConfigSection::number_of(const toml::node& n, const std::string& key, const Interval& allowed,
                                const std::string& unit) const {
  const std::string expected = allowed_number(allowed, unit);
  double v = 0.0;
  if (const auto* i = n.as_integer()) {
    v = static_cast<double>(i->get());
  } else if (const auto* f = n.as_floating_point()) {
    v = f->get();
  } else {
    fail_at(n, key, "is " + describe(n) + "; allowed: " + expected);
  }
  if (!allowed.contains(v)) fail_at(n, key, "is " + format_parameter_value(v) + "; allowed: " + expected);
  return v;
}

std::optional<double> ConfigSection::number(const std::string& key, const Interval& allowed,
                                            const std::string& unit) const {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  return number_of(*n, path(key), allowed, unit);
}

std::optional<int> ConfigSection::integer(const std::string& key, const Interval& allowed) const {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  const std::string expected = allowed_integer(allowed);
  if (const auto* f = n->as_floating_point(); f && std::isfinite(f->get()) && f->get() == std::floor(f->get())) {
    // 2.0 for 2: TOML keeps the two apart, so say how to write it.
    fail(key, "is " + describe(*n) + "; allowed: " + expected + " (write it without a decimal point)");
  }
  const auto* i = n->as_integer();
  if (!i) fail(key, "is " + describe(*n) + "; allowed: " + expected);
  const std::int64_t v = i->get();
  if (!allowed.contains(static_cast<double>(v))) fail(key, "is " + std::to_string(v) + "; allowed: " + expected);
  if (v > INT_MAX || v < INT_MIN) {
    fail(key, "is " + std::to_string(v) + ", too large; allowed: " + expected + " up to " + std::to_string(INT_MAX));
  }
  return static_cast<int>(v);
}

std::string ConfigSection::text_of(const toml::node& n, const std::string& key, const std::string& allowed) const {
  const auto* s = n.as_string();
  if (!s) fail_at(n, key, "is " + describe(n) + "; allowed: " + allowed);
  const std::string& v = s->get();
  if (v.empty()) fail_at(n, key, "is an empty string; allowed: " + allowed);
  if (has_control_character(v)) {
    fail_at(n, key, "is " + describe(n) + ", which holds a control character; allowed: " + allowed);
  }
  return v;
}

std::optional<std::string> ConfigSection::text(const std::string& key, const std::string& allowed) const {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  return text_of(*n, path(key), allowed);
}

std::optional<std::string> ConfigSection::choice(const std::string& key,
                                                 const std::vector<std::string>& choices) const {
  const std::string allowed = "one of " + quoted_list(choices);
  const std::optional<std::string> v = text(key, allowed);
  if (!v) return std::nullopt;
  for (const std::string& c : choices)
    if (c == *v) return v;
  fail(key, "unknown value " + show_string(*v) + "; allowed: " + allowed);
}

std::optional<bool> ConfigSection::flag(const std::string& key) const {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  if (const auto* b = n->as_boolean()) return b->get();
  const std::string allowed = "true or false (or PyBaMM's \"true\", \"false\")";
  const std::string v = text_of(*n, key, allowed);
  if (v == "true" || v == "false") return v == "true";
  fail(key, "unknown value " + show_string(v) + "; allowed: " + allowed);
}

const toml::array* ConfigSection::array(const std::string& key, const std::string& allowed) const {
  const toml::node* n = node(key);
  if (!n) return nullptr;
  const toml::array* a = n->as_array();
  if (!a) fail(key, "is " + describe(*n) + "; allowed: " + allowed);
  return a;
}

}  // namespace voltaic::io::detail
