#include "voltaic/core/version.hpp"

#include "voltaic/config.hpp"

namespace voltaic {

const char* version() { return VOLTAIC_VERSION_STRING; }

bool cuda_backend_built() { return VOLTAIC_HAS_CUDA != 0; }

std::vector<std::string> backends_built() {
  std::vector<std::string> b{"cpu"};
  if (cuda_backend_built()) b.emplace_back("cuda");
  return b;
}

}  // namespace voltaic
