#include "solver/field_output.hpp"

#include <utility>

#include "voltaic/core/error.hpp"

namespace voltaic {

struct FieldOutput::Slot {
  Array<double> device;               // staged frame, fields one after another
  double* host = nullptr;             // page-locked copy (the same memory on the CPU backend)
  std::vector<View<double>> views;    // of `device`, one per field
  std::vector<const double*> fields;  // into `host`, one per field
  std::unique_ptr<Event> staged, copied;
  double time = 0.0;
  bool busy = false;
};

FieldOutput::FieldOutput(std::shared_ptr<const Executor> exec, const std::vector<std::size_t>& sizes, Sink sink)
    : exec_(std::move(exec)), sink_(std::move(sink)) {
  std::size_t total = 0;
  for (std::size_t n : sizes) total += n;
  // Frames staged in device memory go to page-locked host memory on the last
  // stream (the particles use stream 1 of 2); in host memory the staged frame
  // is the one the writer reads.
  const bool staged_on_device = exec_->memory_space() != MemorySpace::host();
  copy_stream_ = exec_->num_streams() - 1;
  for (int s = 0; s < 2; ++s) {
    auto slot = std::make_unique<Slot>();
    slot->device = Array<double>(exec_, total);
    slot->host =
        staged_on_device ? static_cast<double*>(exec_->allocate_pinned(total * sizeof(double))) : slot->device.data();
    std::size_t offset = 0;
    for (std::size_t n : sizes) {
      slot->views.push_back(View<double>(slot->device.data() + offset, n, exec_->memory_space()));
      slot->fields.push_back(slot->host + offset);
      offset += n;
    }
    slot->staged = exec_->create_event();
    slot->copied = exec_->create_event();
    slots_.push_back(std::move(slot));
  }
  worker_ = std::thread([this] { work(); });
}

FieldOutput::~FieldOutput() {
  drain();
  for (auto& s : slots_)
    if (s->host != s->device.data()) exec_->deallocate_pinned(s->host);
}

void FieldOutput::rethrow() {
  if (error_) {
    std::exception_ptr e = std::exchange(error_, nullptr);
    std::rethrow_exception(e);
  }
}

const std::vector<View<double>>& FieldOutput::next_frame() {
  std::unique_lock<std::mutex> lock(mutex_);
  Slot& s = *slots_[next_];
  changed_.wait(lock, [&] { return !s.busy || error_; });
  rethrow();
  return s.views;
}

void FieldOutput::push(double time) {
  Slot& s = *slots_[next_];
  if (s.host != s.device.data()) {  // stage on stream 0, copy on the output stream
    s.staged->record(0);
    s.staged->wait(copy_stream_);
    exec_->copy_async(s.host, MemorySpace::host(), s.device.data(), s.device.space(), s.device.bytes(), copy_stream_);
    s.copied->record(copy_stream_);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    s.time = time;
    s.busy = true;
    queue_.push_back(&s);
  }
  changed_.notify_all();
  next_ = (next_ + 1) % slots_.size();
}

void FieldOutput::work() {
  for (;;) {
    Slot* s = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;
      s = queue_.front();
    }
    try {
      s->copied->synchronize();
      bool failed;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        failed = static_cast<bool>(error_);
      }
      if (!failed) sink_(s->time, s->fields);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.pop_front();
      s->busy = false;
    }
    changed_.notify_all();
  }
}

void FieldOutput::drain() noexcept {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void FieldOutput::finish() {
  drain();
  std::lock_guard<std::mutex> lock(mutex_);
  rethrow();
}

}  // namespace voltaic
