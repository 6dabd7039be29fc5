// copy_box: row by row on the CPU, one three-dimensional copy on a GPU.
#include "voltaic/core/box_copy.hpp"

#include <cstring>
#include <string>

#include "core/backend_dispatch.hpp"
#include "voltaic/core/error.hpp"

#if VOLTAIC_HAS_CUDA
#include <cuda_runtime_api.h>

#include "core/cuda_check.hpp"
#endif

namespace voltaic {

namespace {

template <class P>
void require_inside(const BoxSize& s, const BoxEnd<P>& e, const char* name) {
  if (e.i < 0 || e.j < 0 || e.i + s.width > e.nx || e.j + s.height > e.ny || s.width < 0 || s.height < 0 ||
      s.layers < 0) {
    throw InvalidArgument(name, "copy_box",
                          "a box of " + std::to_string(s.width) + " x " + std::to_string(s.height) + " cells at (" +
                              std::to_string(e.i) + ", " + std::to_string(e.j) + ") leaves the " +
                              std::to_string(e.nx) + " x " + std::to_string(e.ny) + " array");
  }
}

}  // namespace

void copy_box(const Executor& exec, std::size_t value_bytes, BoxSize size, BoxEnd<const void*> from, BoxEnd<void*> to,
              int stream) {
  require_inside(size, from, "from");
  require_inside(size, to, "to");
  if (size.width == 0 || size.height == 0 || size.layers == 0) return;
  const std::size_t row = value_bytes * static_cast<std::size_t>(size.width);
  const auto offset = [&](const auto& e, int j, int k) {
    return value_bytes *
           (static_cast<std::size_t>(e.i) +
            static_cast<std::size_t>(e.nx) *
                (static_cast<std::size_t>(e.j + j) + static_cast<std::size_t>(e.ny) * static_cast<std::size_t>(k)));
  };
  if (detail::on_cpu(exec, "copy_box")) {
    (void)stream;  // the CPU copies at once
    if (from.space != MemorySpace::host() || to.space != MemorySpace::host()) {
      throw InvalidArgument("exec", "copy_box", "the CPU executor copies host memory only");
    }
    for (int k = 0; k < size.layers; ++k)
      for (int j = 0; j < size.height; ++j)
        std::memcpy(static_cast<char*>(to.data) + offset(to, j, k),
                    static_cast<const char*>(from.data) + offset(from, j, k), row);
    return;
  }
#if VOLTAIC_HAS_CUDA
  const auto pitched = [&](const void* data, int nx, int ny) {
    cudaPitchedPtr q{};
    q.ptr = const_cast<void*>(data);
    q.pitch = q.xsize = value_bytes * static_cast<std::size_t>(nx);
    q.ysize = static_cast<std::size_t>(ny);
    return q;
  };
  const auto at = [&](int i, int j) {
    cudaPos q{};
    q.x = value_bytes * static_cast<std::size_t>(i);
    q.y = static_cast<std::size_t>(j);
    return q;
  };
  cudaMemcpy3DParms p{};
  p.srcPtr = pitched(from.data, from.nx, from.ny);
  p.srcPos = at(from.i, from.j);
  p.dstPtr = pitched(to.data, to.nx, to.ny);
  p.dstPos = at(to.i, to.j);
  p.extent.width = row;
  p.extent.height = static_cast<std::size_t>(size.height);
  p.extent.depth = static_cast<std::size_t>(size.layers);
  p.kind = cudaMemcpyDefault;
  VOLTAIC_CUDA_CHECK(cudaMemcpy3DAsync(&p, detail::as_cuda(exec).stream(stream)));
#endif
}

}  // namespace voltaic
