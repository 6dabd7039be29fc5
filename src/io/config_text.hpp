#pragma once
// From the bytes of a config to a TOML table: text checks, then toml++.

#include <toml++/toml.h>

#include <string>

#include "io/config_section.hpp"

namespace voltaic::io::detail {

/// Parses `text` as TOML.
/// @throws ConfigError at key "file" for a binary file (a NUL byte), text that
///         is not UTF-8 or a file with nothing in it, and at key "syntax" for
///         what toml++ rejects (its message and column)
toml::table parse_toml(const std::string& text, const ConfigSource& source);

}  // namespace voltaic::io::detail
