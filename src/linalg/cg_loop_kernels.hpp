#pragma once
// The CUDA kernel behind CG's device-decided loop (cg_loop.hpp, cg.cpp).

#include "cg_loop.hpp"

namespace voltaic {
class CudaExecutor;
}

namespace voltaic::cuda {

/// One thread: cg::decide(*state, scalars) on stream 0, then the WHILE node's
/// condition `handle` (a cudaGraphConditionalHandle) set to state->proceed.
template <class T>
void cg_decide(const CudaExecutor& exec, cg::LoopState* state, const T* scalars, unsigned long long handle);

}  // namespace voltaic::cuda
