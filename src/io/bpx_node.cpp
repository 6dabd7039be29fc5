// BpxNode: typed, range-checked reads of BPX fields, every failure one line
// naming the file (BpxError::what_failed()), the field path and the problem.
#include "io/bpx_node.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "voltaic/model/parameter_table.hpp"

namespace voltaic::io::detail {

namespace {

constexpr const char* kWhere = "voltaic::io::parse_bpx";

bool inside(double v, BpxRange r) {
  if (!std::isfinite(v)) return false;
  switch (r) {
    case BpxRange::any: return true;
    case BpxRange::positive: return v > 0.0;
    case BpxRange::non_negative: return v >= 0.0;
    case BpxRange::unit_open: return v > 0.0 && v < 1.0;
    case BpxRange::unit_closed: return v >= 0.0 && v <= 1.0;
    case BpxRange::unit_upper: return v > 0.0 && v <= 1.0;
  }
  return false;
}

const char* describe(BpxRange r) {
  switch (r) {
    case BpxRange::any: return "finite";
    case BpxRange::positive: return "> 0";
    case BpxRange::non_negative: return ">= 0";
    case BpxRange::unit_open: return "in (0, 1)";
    case BpxRange::unit_closed: return "in [0, 1]";
    case BpxRange::unit_upper: return "in (0, 1]";
  }
  return "";
}

/// A JSON value for a message: short, one line.
std::string shown(const nlohmann::json& v) {
  std::string s = v.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

std::vector<double> numbers(const BpxNode& node, const std::string& key, const char* axis, const nlohmann::json& a) {
  if (!a.is_array())
    node.fail(key, std::string("the table's ") + axis + " is " + json_type_name(a) + "; expected an array of numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_number()) {
      node.fail(key, std::string("the table's ") + axis + "[" + std::to_string(i) + "] is " + json_type_name(a[i]) +
                         " (" + shown(a[i]) + "); expected a number");
    }
    out.push_back(a[i].get<double>());
  }
  return out;
}

}  // namespace

std::string json_type_name(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::binary: return "binary data";
    case nlohmann::json::value_t::discarded: return "nothing";
    default: return "a number";
  }
}

BpxNode::BpxNode(const nlohmann::json& value, std::string path, const std::string& origin)
    : value_(value), path_(std::move(path)), origin_(origin) {}

std::string BpxNode::field(const std::string& key) const { return path_.empty() ? key : path_ + "/" + key; }

void BpxNode::fail(const std::string& key, const std::string& problem) const {
  throw BpxError(origin_, kWhere, one_line("field '" + field(key) + "': " + problem));
}

void BpxNode::fail_here(const std::string& problem) const {
  const std::string where = path_.empty() ? std::string("the top level") : "field '" + path_ + "'";
  throw BpxError(origin_, kWhere, one_line(where + ": " + problem));
}

const nlohmann::json* BpxNode::find(const std::string& key) const {
  const auto it = value_.find(key);
  return it == value_.end() ? nullptr : &*it;
}

BpxNode BpxNode::section(const std::string& key) const {
  const nlohmann::json* v = find(key);
  if (v == nullptr) fail(key, "is missing (required)");
  if (!v->is_object()) fail(key, "is " + json_type_name(*v) + "; expected an object of fields");
  return BpxNode(*v, field(key), origin_);
}

std::optional<BpxNode> BpxNode::optional_section(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return section(key);
}

double BpxNode::checked(const std::string& key, const nlohmann::json& v, BpxRange range) const {
  if (!v.is_number()) fail(key, "is " + json_type_name(v) + " (" + shown(v) + "); expected a number");
  const double d = v.get<double>();
  if (!inside(d, range)) fail(key, "is " + format_parameter_value(d) + "; it must be " + describe(range));
  return d;
}

std::vector<std::string> BpxNode::keys() const {
  std::vector<std::string> k;
  for (const auto& item : value_.items()) k.push_back(item.key());
  return k;
}

double BpxNode::number(const std::string& key, BpxRange range) const {
  const nlohmann::json* v = find(key);
  if (v == nullptr) fail(key, "is missing (required)");
  return checked(key, *v, range);
}

double BpxNode::number_or(const std::string& key, BpxRange range, double fallback) const {
  const nlohmann::json* v = find(key);
  return v == nullptr ? fallback : checked(key, *v, range);
}

std::optional<double> BpxNode::optional_number(const std::string& key, BpxRange range) const {
  const nlohmann::json* v = find(key);
  if (v == nullptr) return std::nullopt;
  return checked(key, *v, range);
}

int BpxNode::whole_number(const std::string& key, int minimum) const {
  const double d = number(key, BpxRange::any);
  if (d != std::floor(d) || d < minimum || d > 1e9) {
    fail(key, "is " + format_parameter_value(d) + "; it must be a whole number >= " + std::to_string(minimum));
  }
  return static_cast<int>(d);
}

std::string BpxNode::string(const std::string& key) const {
  const nlohmann::json* v = find(key);
  if (v == nullptr) fail(key, "is missing (required)");
  if (!v->is_string()) fail(key, "is " + json_type_name(*v) + " (" + shown(*v) + "); expected a string");
  return v->get<std::string>();
}

FunctionDefinition BpxNode::function(const std::string& key) const {
  const nlohmann::json* v = find(key);
  if (v == nullptr) fail(key, "is missing (required)");
  if (v->is_number()) return FunctionDefinition::constant(checked(key, *v, BpxRange::any));
  if (v->is_string()) {
    try {
      return FunctionDefinition::expression(v->get<std::string>(), ExpressionFunctions::bpx());
    } catch (const ExpressionError& e) {
      fail(key, e.why());
    }
  }
  if (v->is_object()) return table(key, *v);
  fail(key, "is " + json_type_name(*v) + " (" + shown(*v) +
                "); expected a number, an expression in x or a table {\"x\": [...], \"y\": [...]}");
}

FunctionDefinition BpxNode::table(const std::string& key, const nlohmann::json& v) const {
  for (const auto& item : v.items()) {
    if (item.key() != "x" && item.key() != "y") {
      fail(key, "the table has a key '" + item.key() + "'; a BPX table has only \"x\" and \"y\"");
    }
  }
  if (!v.contains("x") || !v.contains("y")) fail(key, "the table needs both \"x\" and \"y\"");
  std::vector<double> x = numbers(*this, key, "x", v["x"]), y = numbers(*this, key, "y", v["y"]);
  // PyBaMM sorts a BPX table by x; a strictly decreasing one is read reversed
  // (the same function). Anything else must be strictly increasing.
  const bool decreasing =
      x.size() >= 2 && x.size() == y.size() && std::adjacent_find(x.begin(), x.end(), std::less_equal<>()) == x.end();
  if (decreasing) {
    std::reverse(x.begin(), x.end());
    std::reverse(y.begin(), y.end());
  }
  try {
    return FunctionDefinition::table(x, y);
  } catch (const InvalidArgument& e) {
    fail(key, "bad table: " + e.why());
  }
}

void BpxNode::allow_only(std::initializer_list<const char*> known,
                         std::initializer_list<std::pair<const char*, const char*>> moved) const {
  for (const auto& item : value_.items()) {
    const std::string& k = item.key();
    if (std::find(known.begin(), known.end(), k) != known.end()) continue;
    for (const auto& [old_key, now] : moved) {
      if (k == old_key) fail(k, std::string("is a BPX 0.x field; BPX 1.x has it in ") + now);
    }
    fail(k, "unknown field (BPX 1.x has no such field here; names are case- and space-sensitive)");
  }
}

}  // namespace voltaic::io::detail
