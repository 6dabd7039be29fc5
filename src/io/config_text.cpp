#include "io/config_text.hpp"

#include <cstddef>
#include <cstdio>
#include <string_view>

namespace voltaic::io::detail {

namespace {

constexpr const char* kAllowedText = "a UTF-8 text file in TOML (docs/config.md)";

/// Line and column (from 1, in bytes) of byte `at`.
std::pair<int, int> position(const std::string& text, std::size_t at) {
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, static_cast<int>(at - line_start) + 1};
}

/// Bytes of the UTF-8 sequence starting at `i`, 0 when it is not valid
/// (truncated, a stray continuation byte, overlong, a surrogate, > U+10FFFF).
std::size_t utf8_length(const std::string& t, std::size_t i) {
  const auto byte = [&](std::size_t k) { return k < t.size() ? static_cast<unsigned char>(t[k]) : 0u; };
  const auto continuation = [&](std::size_t k) { return (byte(k) & 0xC0u) == 0x80u; };
  const unsigned b0 = byte(i);
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) return continuation(i + 1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    const unsigned b1 = byte(i + 1);
    const bool ok =
        continuation(i + 1) && continuation(i + 2) && !(b0 == 0xE0 && b1 < 0xA0) && !(b0 == 0xED && b1 >= 0xA0);
    return ok ? 3 : 0;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    const unsigned b1 = byte(i + 1);
    const bool ok = continuation(i + 1) && continuation(i + 2) && continuation(i + 3) && !(b0 == 0xF0 && b1 < 0x90) &&
                    !(b0 == 0xF4 && b1 >= 0x90);
    return ok ? 4 : 0;
  }
  return 0;
}

// toml++ rejects both too, but as a syntax error somewhere in the middle; a
// file that is not text at all (an HDF5 file given by mistake) deserves a
// message saying so.
void check_is_text(const std::string& text, const ConfigSource& source) {
  const std::size_t nul = text.find('\0');
  if (nul != std::string::npos) {
    const auto [line, column] = position(text, nul);
    source.fail(line, "file",
                "is binary, not text (a NUL byte at column " + std::to_string(column) + "); allowed: " + kAllowedText);
  }
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      const auto [line, column] = position(text, i);
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[i]));
      source.fail(line, "file",
                  std::string("is not UTF-8 text (byte ") + hex + " at column " + std::to_string(column) +
                      "); allowed: " + kAllowedText);
    }
    i += n;
  }
}

}  // namespace

toml::table parse_toml(const std::string& text, const ConfigSource& source) {
  check_is_text(text, source);
  toml::table root;
  try {
    root = toml::parse(std::string_view(text), std::string_view(source.origin));
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    source.fail(where.line > 0 ? static_cast<int>(where.line) : 1, "syntax",
                std::string(e.description()) + " (column " + std::to_string(where.column) + ")");
  }
  if (root.empty()) {
    source.fail(1, "file",
                "is empty (no keys); allowed: a config with at least [cell] parameter_set (or bpx) and "
                "[experiment] steps (docs/config.md)");
  }
  return root;
}

}  // namespace voltaic::io::detail
