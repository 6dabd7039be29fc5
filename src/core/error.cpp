#include "voltaic/core/error.hpp"

#include <cstdio>
#include <utility>

#include "voltaic/core/memory_space.hpp"
#include "voltaic/core/view.hpp"

namespace voltaic {

namespace {
std::string compose(const std::string& what, const std::string& where, const std::string& why) {
  return "voltaic: " + what + ": " + why + " [at " + where + "]";
}
}  // namespace

Error::Error(std::string what, std::string where, std::string why)
    : std::runtime_error(compose(what, where, why)),
      what_(std::move(what)),
      where_(std::move(where)),
      why_(std::move(why)) {}

CudaError::CudaError(std::string what, std::string where, std::string why, int code, bool sticky)
    : Error(std::move(what), std::move(where), std::move(why)), code_(code), sticky_(sticky) {}

std::string to_string(const MemorySpace& space) {
  return space.backend == Backend::cpu ? "host" : "cuda:" + std::to_string(space.device);
}

std::string to_string(Backend backend) { return backend == Backend::cpu ? "cpu" : "cuda"; }

namespace {

/// Bytes of the well-formed UTF-8 sequence at text[i] (Unicode's Table 3-7:
/// no overlong forms, no surrogates, nothing past U+10FFFF), 0 where none starts.
std::size_t utf8_sequence(const std::string& text, std::size_t i) {
  const auto at = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  const unsigned b0 = at(i), b1 = at(i + 1);
  const auto cont = [&](std::size_t k) { return (at(k) & 0xC0u) == 0x80u; };
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    const unsigned lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF;
    return b1 >= lo && b1 <= hi && cont(i + 2) ? 3 : 0;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    const unsigned lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF;
    return b1 >= lo && b1 <= hi && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

void append_hex(std::string& out, unsigned char u) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "\\x%02x", u);
  out += hex;
}

}  // namespace

std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {  // a multi-byte character as it is; a byte of none escaped (no raw invalid UTF-8 on a terminal)
      const std::size_t n = utf8_sequence(text, i);
      if (n == 0) {
        append_hex(out, u);
        ++i;
      } else {
        out.append(text, i, n);
        i += n;
      }
      continue;
    }
    ++i;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      append_hex(out, u);
    } else {
      out += c;
    }
  }
  return out;
}

namespace detail {
void throw_out_of_range(std::size_t index, std::size_t size) {
  throw OutOfRange("view index", "voltaic::View",
                   "index " + std::to_string(index) + " is outside [0, " + std::to_string(size) + ")");
}
}  // namespace detail

}  // namespace voltaic
