#include "voltaic/core/digest.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace voltaic {

std::string values_digest(const std::vector<double>& values) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a's offset basis and prime
  for (double v : values) {
    unsigned char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ull;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

}  // namespace voltaic
