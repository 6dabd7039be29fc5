#include "voltaic/linalg/boundary.hpp"

namespace voltaic {

std::string to_string(Face face) {
  static const char* const names[] = {"x_lo", "x_hi", "y_lo", "y_hi", "z_lo", "z_hi"};
  return names[static_cast<int>(face)];
}

}  // namespace voltaic
