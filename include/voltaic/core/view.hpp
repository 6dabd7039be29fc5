#pragma once
/// @file view.hpp
/// @brief View<T>: the cheap, trivially copyable handle kernels take.

#include <cstddef>
#include <cstdio>
#include <type_traits>

#include "voltaic/core/macros.hpp"
#include "voltaic/core/memory_space.hpp"

namespace voltaic {

namespace detail {
/// Throws OutOfRange; kept out of line so operator[] stays small.
[[noreturn]] void throw_out_of_range(std::size_t index, std::size_t size);
}  // namespace detail

/// A pointer, an extent and the memory space the pointer lives in. Views do
/// not own memory: an Array<T> does. Indexing is bounds-checked in debug builds
/// (a device-side failure traps the kernel; a host-side one throws OutOfRange).
template <class T>
class View {
 public:
  using value_type = T;

  View() = default;
  VOLTAIC_HD View(T* data, std::size_t size, MemorySpace space) : data_(data), size_(size), space_(space) {}

  /// A view of mutable data converts to a view of const data.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  VOLTAIC_HD View(const View<U>& other) : data_(other.data()), size_(other.size()), space_(other.space()) {}

  VOLTAIC_HD T& operator[](std::size_t i) const {
#if VOLTAIC_BOUNDS_CHECK
    if (i >= size_) {
#if defined(__CUDA_ARCH__)
      printf("voltaic: view index %llu out of range [0, %llu)\n", static_cast<unsigned long long>(i),
             static_cast<unsigned long long>(size_));
      __trap();
#else
      detail::throw_out_of_range(i, size_);
#endif
    }
#endif
    return data_[i];
  }

  VOLTAIC_HD T* data() const { return data_; }
  VOLTAIC_HD std::size_t size() const { return size_; }
  VOLTAIC_HD bool empty() const { return size_ == 0; }
  VOLTAIC_HD MemorySpace space() const { return space_; }

  /// The `count` elements starting at `offset`; throws OutOfRange when they do
  /// not lie inside this view.
  View subview(std::size_t offset, std::size_t count) const {
    if (offset > size_ || count > size_ - offset) detail::throw_out_of_range(offset + count, size_ + 1);
    return View(data_ + offset, count, space_);
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  MemorySpace space_{};
};

static_assert(std::is_trivially_copyable_v<View<double>>, "views are passed to kernels by value");
static_assert(std::is_trivially_copyable_v<View<const float>>, "views are passed to kernels by value");

}  // namespace voltaic
