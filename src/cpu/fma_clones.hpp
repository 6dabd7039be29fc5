#pragma once
// The CPU backend rounds like the GPU by calling std::fma, which is a slow
// library call unless the compiler may emit the FMA instruction. Functions
// marked VOLTAIC_FMA_CLONES are compiled twice, with and without FMA, and the
// loader picks the one this CPU supports. Both round identically (an FMA is
// exact either way), so results do not depend on the machine. GCC only:
// clang (14) refuses target_clones on templates, and calls std::fma instead.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VOLTAIC_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define VOLTAIC_FMA_CLONES
#endif
