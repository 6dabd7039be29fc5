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

std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
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

namespace detail {
void throw_out_of_range(std::size_t index, std::size_t size) {
  throw OutOfRange("view index", "voltaic::View",
                   "index " + std::to_string(index) + " is outside [0, " + std::to_string(size) + ")");
}
}  // namespace detail

}  // namespace voltaic
