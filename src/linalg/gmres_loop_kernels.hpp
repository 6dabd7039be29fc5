#pragma once
// The CUDA kernels behind GMRES's device-decided cycle (gmres_loop.hpp, gmres.cpp).

#include <cstddef>

#include "gmres_loop.hpp"

namespace voltaic {
class CudaExecutor;
}

namespace voltaic::cuda {

/// One thread: gmres::column() of *cycle from the two passes' scalars, then
/// gmres::decide(), then the WHILE node's condition `handle` (a
/// cudaGraphConditionalHandle) set to cycle->proceed; on stream 0.
template <class T>
void gmres_decide(const CudaExecutor& exec, gmres::Cycle* cycle, gmres::Columns columns, const T* pass1, const T* pass2,
                  unsigned long long handle);
/// Where the cycle goes on: w *= T(cycle->inverse), and the scaled w stored
/// as basis vector cycle->j (the host loop's scale(), the same bits); else nothing.
template <class T>
void gmres_scale_store(const CudaExecutor& exec, const gmres::Cycle* cycle, T* w, T* basis, std::size_t stride,
                       std::size_t n);

}  // namespace voltaic::cuda
