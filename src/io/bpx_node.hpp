#pragma once
// BpxNode: one JSON object of a BPX file with its path ("Parameterisation/
// Negative electrode"), and typed reads of its fields that throw a one-line
// BpxError naming the file, the field and the problem.

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "voltaic/io/bpx.hpp"
#include "voltaic/model/function_definition.hpp"

namespace voltaic::io::detail {

/// Values a BPX number may take.
enum class BpxRange {
  any,           ///< finite
  positive,      ///< > 0
  non_negative,  ///< >= 0
  unit_open,     ///< (0, 1)
  unit_closed,   ///< [0, 1]
  unit_upper,    ///< (0, 1]
};

/// A JSON object inside a BPX file.
class BpxNode {
 public:
  /// `path` is "" for the top level; `origin` names the file in errors.
  BpxNode(const nlohmann::json& value, std::string path, const std::string& origin);

  const std::string& path() const { return path_; }
  /// `path/key`, as errors name a field.
  std::string field(const std::string& key) const;
  /// Throws BpxError: "field 'PATH/key': problem".
  [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
  /// Throws BpxError: "field 'PATH': problem" (the object itself).
  [[noreturn]] void fail_here(const std::string& problem) const;

  /// The field, or nullptr when it is absent.
  const nlohmann::json* find(const std::string& key) const;
  bool has(const std::string& key) const { return find(key) != nullptr; }
  /// The object's field names, in the file's order as the JSON library keeps it.
  std::vector<std::string> keys() const;

  /// A required object field.
  BpxNode section(const std::string& key) const;
  std::optional<BpxNode> optional_section(const std::string& key) const;

  /// A required number inside `range`.
  double number(const std::string& key, BpxRange range) const;
  /// The number, or `fallback` when the field is absent.
  double number_or(const std::string& key, BpxRange range, double fallback) const;
  std::optional<double> optional_number(const std::string& key, BpxRange range) const;
  /// A whole number >= `minimum` (written as an integer or as a float without fraction).
  int whole_number(const std::string& key, int minimum) const;
  std::string string(const std::string& key) const;

  /// A BPX FloatFunctionTable: a number (a constant), an expression string
  /// in x (BPX's functions only) or a table {"x": [...], "y": [...]} (a
  /// strictly decreasing x is read reversed, as PyBaMM sorts tables).
  FunctionDefinition function(const std::string& key) const;

  /// Rejects any field not in `known`. `moved` pairs a field of older BPX
  /// versions with where BPX 1.x has it.
  void allow_only(std::initializer_list<const char*> known,
                  std::initializer_list<std::pair<const char*, const char*>> moved = {}) const;

 private:
  double checked(const std::string& key, const nlohmann::json& v, BpxRange range) const;
  FunctionDefinition table(const std::string& key, const nlohmann::json& v) const;

  const nlohmann::json& value_;
  std::string path_;
  const std::string& origin_;
};

/// "a string", "an array", ... for messages.
std::string json_type_name(const nlohmann::json& v);

}  // namespace voltaic::io::detail
