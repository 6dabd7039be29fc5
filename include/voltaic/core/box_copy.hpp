#pragma once
/// @file box_copy.hpp
/// @brief A box of cells of a layered 2D array copied into another, between
/// any memory spaces an executor reaches: the rectangles the ranks of a cut
/// plane exchange, gather and place (PlaneLevelLink, CutPlaneMultigrid).

#include <cstddef>

#include "voltaic/core/executor.hpp"

namespace voltaic {

/// One end of a box copy: a layered 2D array (`nx` values a row, x fastest;
/// `ny` rows a layer; then the layers) in `space`, and the box's first cell
/// (i, j) in it.
template <class P>
struct BoxEnd {
  P data = nullptr;
  MemorySpace space = MemorySpace::host();
  int nx = 0, ny = 0;
  int i = 0, j = 0;
};

/// The box's size: `width` x `height` cells of each of `layers` layers.
struct BoxSize {
  int width = 0, height = 0, layers = 0;
};

/// Copies a box of `value_bytes`-byte values from `from` into `to`, queued
/// on `stream` after the work before it (the CPU copies at once; on a GPU
/// one cudaMemcpy3DAsync). Read a host end after exec.synchronize(); a host
/// end must be pinned for the copy to overlap other work. An empty box
/// copies nothing.
/// @throws InvalidArgument when the box leaves either array
void copy_box(const Executor& exec, std::size_t value_bytes, BoxSize size, BoxEnd<const void*> from, BoxEnd<void*> to,
              int stream = 0);

template <class T>
void copy_box(const Executor& exec, BoxSize size, BoxEnd<const T*> from, BoxEnd<T*> to, int stream = 0) {
  copy_box(exec, sizeof(T), size, {from.data, from.space, from.nx, from.ny, from.i, from.j},
           {to.data, to.space, to.nx, to.ny, to.i, to.j}, stream);
}

}  // namespace voltaic
