#pragma once
// Reading one section of a TOML run config: typed values with their ranges,
// and errors that name the file, the line and the key.

#include <toml++/toml.h>

#include <optional>
#include <string>
#include <vector>

#include "voltaic/model/parameter_table.hpp"

namespace voltaic::io::detail {

/// Where a config came from: its name in errors and the directory that
/// relative paths in it start from.
struct ConfigSource {
  std::string origin;
  std::string base_dir;

  /// @throws ConfigError "origin:line: key: why"
  [[noreturn]] void fail(int line, const std::string& key, const std::string& why) const;
};

/// Line of a node (from 1), or `fallback` when toml++ recorded none.
int line_of(const toml::node& node, int fallback = 1);
/// What a node is, for "is ...; allowed: ...": "a string (\"1\")", "a float (2.5)", "a table".
std::string describe(const toml::node& node);
/// "section.key", the key in double quotes unless it is a bare TOML key.
std::string key_path(const std::string& section, const std::string& key);
/// "a number > 0 [s]" ("any finite number" for an unbounded one).
std::string allowed_number(const Interval& allowed, const std::string& unit);
/// "an integer >= 1".
std::string allowed_integer(const Interval& allowed);
/// "\"a\", \"b\"": choices as a config writes them.
std::string quoted_list(const std::vector<std::string>& names);

/// One section ([grid]) or sub-table ([cell.overrides]); absent ones read as
/// empty. Getters return nullopt for a key that is not given, check type and
/// range of one that is, and throw ConfigError naming it otherwise.
class ConfigSection {
 public:
  /// @param table null when the file has no such section
  ConfigSection(const ConfigSource& source, std::string name, const toml::table* table);

  const std::string& name() const { return name_; }
  const toml::table* table() const { return table_; }
  const ConfigSource& source() const { return *source_; }
  const toml::node* node(const std::string& key) const;
  bool has(const std::string& key) const { return node(key) != nullptr; }
  /// Of the section's header (1 when it is absent or toml++ knows none).
  int line() const;
  /// Of the key's value; the section's when the key is not given.
  int line(const std::string& key) const;
  std::string path(const std::string& key) const { return key_path(name_, key); }

  /// @throws ConfigError at the key's line (the section's when it is not given)
  [[noreturn]] void fail(const std::string& key, const std::string& why) const;
  /// @throws ConfigError at `at` (an array element, say), naming `key`
  [[noreturn]] void fail_at(const toml::node& at, const std::string& key, const std::string& why) const;

  /// An integer or a float inside `allowed`.
  std::optional<double> number(const std::string& key, const Interval& allowed, const std::string& unit) const;
  /// An integer inside `allowed` that fits an int.
  std::optional<int> integer(const std::string& key, const Interval& allowed) const;
  /// A non-empty string without control characters.
  std::optional<std::string> text(const std::string& key, const std::string& allowed) const;
  /// One of `choices`, exactly.
  std::optional<std::string> choice(const std::string& key, const std::vector<std::string>& choices) const;
  /// A boolean, or PyBaMM's "true" / "false".
  std::optional<bool> flag(const std::string& key) const;
  /// An array (its elements are the caller's to check); null when not given.
  const toml::array* array(const std::string& key, const std::string& allowed) const;

  /// The checks of number() and text() on any node (array elements,
  /// overrides); `key` names it in errors.
  double number_of(const toml::node& n, const std::string& key, const Interval& allowed, const std::string& unit) const;
  std::string text_of(const toml::node& n, const std::string& key, const std::string& allowed) const;

 private:
  const ConfigSource* source_;
  std::string name_;
  const toml::table* table_;
};

}  // namespace voltaic::io::detail
