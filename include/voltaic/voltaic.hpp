#pragma once
/// @file voltaic.hpp
/// @brief Umbrella header: everything a program using voltaic needs.

#include "voltaic/core/array.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/field_set.hpp"
#include "voltaic/core/grid.hpp"
#include "voltaic/core/memory_space.hpp"
#include "voltaic/core/version.hpp"
#include "voltaic/core/view.hpp"
#include "voltaic/linalg/blas1.hpp"
