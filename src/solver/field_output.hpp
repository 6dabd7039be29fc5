#pragma once
// FieldOutput: hands field frames to a writer without stopping the run. A
// frame is staged on the device (stream 0, a copy of the state at that
// instant), copied to page-locked host memory on an output stream, and given
// to the sink on a worker thread once the copy has landed, while the next
// steps compute. Two slots: when the writer falls two frames behind, the run
// waits for it.

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic {

class FieldOutput {
 public:
  using Sink = std::function<void(double time, const std::vector<const double*>& fields)>;

  /// @param sizes values of each field of a frame, in order
  FieldOutput(std::shared_ptr<const Executor> exec, const std::vector<std::size_t>& sizes, Sink sink);
  /// Waits for the frames in flight; an error of the sink is dropped here (call finish() to see it).
  ~FieldOutput();
  FieldOutput(const FieldOutput&) = delete;
  FieldOutput& operator=(const FieldOutput&) = delete;

  /// Device buffers of the next frame, one per field, to fill on stream 0.
  /// Waits until a slot is free; rethrows an error of the sink.
  const std::vector<View<double>>& next_frame();
  /// Sends the frame filled since next_frame().
  void push(double time);
  /// Waits until every frame is written; rethrows the sink's first error.
  void finish();

 private:
  struct Slot;
  void work();
  void drain() noexcept;
  void rethrow();

  std::shared_ptr<const Executor> exec_;
  Sink sink_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::size_t next_ = 0;
  int copy_stream_ = 0;

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Slot*> queue_;
  std::exception_ptr error_;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace voltaic
