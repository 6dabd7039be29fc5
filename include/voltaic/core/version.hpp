#pragma once
/// @file version.hpp
/// @brief Version and build information.

#include <string>
#include <vector>

namespace voltaic {

/// The library version, "MAJOR.MINOR.PATCH".
const char* version();
/// Whether the CUDA backend was compiled into this build.
bool cuda_backend_built();
/// The backends this build has: always "cpu", and "cuda" when built.
std::vector<std::string> backends_built();

}  // namespace voltaic
