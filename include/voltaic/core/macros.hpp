#pragma once
/// @file macros.hpp
/// @brief Portability macros shared by host and device code.

#if defined(__CUDACC__)
/// Marks a function callable from host code and from CUDA kernels.
#define VOLTAIC_HD __host__ __device__
#else
#define VOLTAIC_HD
#endif

/// `#pragma unroll` in the device pass of VOLTAIC_HD code; nothing on the
/// host, whose compiler warns of a pragma it does not know.
#if defined(__CUDA_ARCH__)
#define VOLTAIC_UNROLL _Pragma("unroll")
#else
#define VOLTAIC_UNROLL
#endif

/// One value in device code and another in host code, within VOLTAIC_HD code
/// (how many loads a column sweep stages: deep on a GPU thread, where each
/// stage costs a memory latency; shallow on a CPU core, whose caches hide it
/// and whose registers a deep stage would spill). Only for choices that
/// leave the arithmetic, and so the bits, the same.
#if defined(__CUDA_ARCH__)
#define VOLTAIC_DEVICE_OR_HOST(device, host) (device)
#else
#define VOLTAIC_DEVICE_OR_HOST(device, host) (host)
#endif

/// A large function the CPU cell program calls rather than inlines. The
/// program's entry points are flattened so that every fp::fma in them is an
/// FMA instruction (src/solver/cell_program_cpu.cpp); inlining these at each
/// of their sites made that one file take five to fifteen minutes to
/// compile. On a member of a class template, define it without `inline`
/// (GCC warns at an inline definition of a noinline declaration). Host GCC
/// on x86 compiles each flattened on its own, with and without FMA, the
/// loader picking one (src/cpu/fma_clones.hpp); device code is untouched.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define VOLTAIC_CPU_CALL __attribute__((noinline, flatten, target_clones("fma", "default")))
#else
#define VOLTAIC_CPU_CALL
#endif

/// Bounds checks in views are on in debug builds, or when forced.
#if !defined(NDEBUG) || defined(VOLTAIC_FORCE_BOUNDS_CHECK)
#define VOLTAIC_BOUNDS_CHECK 1
#else
#define VOLTAIC_BOUNDS_CHECK 0
#endif
