// ConfigError: "FILE:LINE: KEY: WHY" on one line, whatever the file held.
#include <cstdio>
#include <string>

#include "voltaic/io/config.hpp"

namespace voltaic::io {

namespace {

/// `s` with control characters as escapes: a newline in a TOML string (or in
/// a BPX reader's message) must not break the one-line message.
std::string one_line(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

ConfigError::ConfigError(const std::string& file, int line, const std::string& key, const std::string& why)
    : InvalidArgument(one_line(key), one_line(file) + ":" + std::to_string(line), one_line(why)),
      file_(file),
      line_(line),
      message_(where() + ": " + what_failed() + ": " + this->why()) {}

}  // namespace voltaic::io
