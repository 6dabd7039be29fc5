#pragma once
/// @file macros.hpp
/// @brief Portability macros shared by host and device code.

#if defined(__CUDACC__)
/// Marks a function callable from host code and from CUDA kernels.
#define VOLTAIC_HD __host__ __device__
#else
#define VOLTAIC_HD
#endif

/// Bounds checks in views are on in debug builds, or when forced.
#if !defined(NDEBUG) || defined(VOLTAIC_FORCE_BOUNDS_CHECK)
#define VOLTAIC_BOUNDS_CHECK 1
#else
#define VOLTAIC_BOUNDS_CHECK 0
#endif
