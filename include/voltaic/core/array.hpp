#pragma once
/// @file array.hpp
/// @brief Array<T>: RAII, move-only memory of n elements on one executor.

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/view.hpp"

namespace voltaic {

/// Owns `size()` elements of T in one memory space. Copies between executors
/// are explicit (clone, copy_from); fields stay where they were allocated.
template <class T>
class Array {
  static_assert(std::is_trivially_copyable_v<T>, "Array holds trivially copyable elements");

 public:
  Array() = default;

  /// `n` uninitialised elements in `exec`'s memory.
  Array(std::shared_ptr<const Executor> exec, std::size_t n) : Array(std::move(exec), n, false) {}

  /// `n` elements of host memory that `exec` copies asynchronously (page-locked
  /// for a CUDA executor): the staging buffers of device output.
  static Array pinned(std::shared_ptr<const Executor> exec, std::size_t n) { return Array(std::move(exec), n, true); }

  /// A device (or host) array holding a copy of `values`.
  static Array from_host(std::shared_ptr<const Executor> exec, const std::vector<T>& values) {
    Array a(std::move(exec), values.size());
    a.exec_->copy(a.data_, a.space(), values.data(), MemorySpace::host(), a.bytes());
    return a;
  }

  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  Array(Array&& o) noexcept { swap(o); }
  Array& operator=(Array&& o) noexcept {
    Array tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  ~Array() { release(); }

  /// A copy of this array in `to`'s memory.
  Array clone(std::shared_ptr<const Executor> to) const {
    Array a(std::move(to), size_);
    a.copy_from(*this);
    return a;
  }
  Array clone() const { return clone(exec_); }

  /// Copies every element of `src`, from any memory space; sizes must agree.
  void copy_from(const Array& src) {
    if (src.size_ != size_) {
      throw SizeMismatch("Array::copy_from", "voltaic::Array",
                         "source has " + std::to_string(src.size_) + " elements, destination " + std::to_string(size_));
    }
    if (size_ == 0) return;
    // A CUDA executor can reach every space; the CPU one only the host.
    const Executor& via = exec_->backend() == Backend::cuda ? *exec_ : *src.exec_;
    via.copy(data_, space(), src.data_, src.space(), bytes());
  }

  /// The elements, copied to a std::vector (waits for queued work).
  std::vector<T> to_host() const {
    std::vector<T> out(size_);
    if (size_ > 0) exec_->copy(out.data(), MemorySpace::host(), data_, space(), bytes());
    return out;
  }

  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  bool is_pinned() const noexcept { return pinned_; }
  const std::shared_ptr<const Executor>& executor() const noexcept { return exec_; }
  /// Pinned arrays live in host memory whatever their executor.
  MemorySpace space() const noexcept { return pinned_ || !exec_ ? MemorySpace::host() : exec_->memory_space(); }

  View<T> view() noexcept { return View<T>(data_, size_, space()); }
  View<const T> view() const noexcept { return View<const T>(data_, size_, space()); }
  View<const T> const_view() const noexcept { return view(); }

 private:
  Array(std::shared_ptr<const Executor> exec, std::size_t n, bool pinned)
      : exec_(std::move(exec)), size_(n), pinned_(pinned) {
    if (!exec_) throw InvalidArgument("Array", "voltaic::Array", "executor is null");
    if (n > 0) {
      const std::size_t b = n * sizeof(T);
      data_ = static_cast<T*>(pinned ? exec_->allocate_pinned(b) : exec_->allocate(b));
    }
  }
  void release() noexcept {
    if (data_) pinned_ ? exec_->deallocate_pinned(data_) : exec_->deallocate(data_);
    data_ = nullptr;
    size_ = 0;
  }
  void swap(Array& o) noexcept {
    std::swap(exec_, o.exec_);
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(pinned_, o.pinned_);
  }

  std::shared_ptr<const Executor> exec_;
  T* data_ = nullptr;
  std::size_t size_ = 0;
  bool pinned_ = false;
};

}  // namespace voltaic
