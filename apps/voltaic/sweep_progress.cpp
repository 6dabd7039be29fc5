#include "sweep_progress.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "progress.hpp"

namespace voltaic::cli {

SweepProgress::SweepProgress(std::size_t cells, int cycles, std::FILE* out, bool terminal)
    : cells_(cells),
      cycles_(cycles),
      out_(out),
      terminal_(terminal),
      at_(cycles > 1 ? cells : 0, 0),
      capacity_(cycles > 1 ? cells : 0, std::numeric_limits<double>::quiet_NaN()) {}

double SweepProgress::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void SweepProgress::advance(std::size_t index, long long cycle) {
  if (index >= at_.size() || cycle <= at_[index]) return;
  done_ += cycle - at_[index];
  at_[index] = cycle;
}

void SweepProgress::update(std::size_t index, const BatchCellResult& result) {
  ++finished_;
  if (result.status != BatchCellResult::Status::completed) ++incomplete_;
  using Status = BatchCellResult::Status;
  const bool ended = result.status != Status::interrupted && result.status != Status::not_run;
  if (cycling() && ended && index < at_.size()) {  // none of its cycles is left to run
    // A cell that ended with cycles it never reported here: a resumed sweep's.
    if (at_[index] == 0 && !result.cycles.empty()) before_ += cycles_;
    advance(index, cycles_);
  }
  show();
}

void SweepProgress::cycle(std::size_t index, const CycleSummary& summary) {
  if (!cycling() || index >= at_.size()) return;
  if (at_[index] == 0 && summary.cycle > 1) before_ += summary.cycle - 1;  // resumed from a checkpoint
  advance(index, summary.cycle);
  capacity_[index] = summary.capacity;
  show();
}

void SweepProgress::show() {
  const double elapsed = elapsed_s();
  if (terminal_) {
    if (elapsed - last_draw_s_ >= 0.1) draw(elapsed);
  } else if (elapsed - last_log_s_ >= 5.0) {
    log(elapsed);
  }
}

std::string SweepProgress::counts(double elapsed) const {
  char text[256];
  if (!cycling()) {
    const double done = cells_ ? double(finished_) / double(cells_) : 1.0;
    const std::string eta = finished_ > 0 ? clock_text(elapsed * (1.0 - done) / done) : "--:--";
    std::snprintf(text, sizeof text, "%.3g cells/s (%s, ETA %s)", elapsed > 0.0 ? double(finished_) / elapsed : 0.0,
                  clock_text(elapsed).c_str(), eta.c_str());
    return text;
  }
  const long long total = static_cast<long long>(cells_) * cycles_;
  const long long made = done_ - before_;
  const std::string eta = made > 0 ? clock_text(elapsed * double(total - done_) / double(made)) : "--:--";
  double lowest = std::numeric_limits<double>::infinity();
  for (const double c : capacity_)
    if (c < lowest) lowest = c;  // NaN (no cycle yet) compares false
  char capacity[64] = "";
  if (std::isfinite(lowest)) std::snprintf(capacity, sizeof capacity, ", lowest capacity %.4g A.h", lowest);
  std::snprintf(text, sizeof text, "%lld/%lld cycles (%.1f %%)%s (%s, ETA %s)", done_, total,
                total > 0 ? 100.0 * double(done_) / double(total) : 100.0, capacity, clock_text(elapsed).c_str(),
                eta.c_str());
  return text;
}

void SweepProgress::draw(double elapsed) {
  last_draw_s_ = elapsed;
  const long long total = static_cast<long long>(cells_) * cycles_;
  const double done =
      cycling() ? (total ? double(done_) / double(total) : 1.0) : (cells_ ? double(finished_) / double(cells_) : 1.0);
  constexpr int width = 28;
  std::string bar(static_cast<std::size_t>(done * width), '#');
  bar.resize(width, '.');
  std::fprintf(out_, "\r[%s] %zu/%zu cells  %zu incomplete  %s  ", bar.c_str(), finished_, cells_, incomplete_,
               counts(elapsed).c_str());
  std::fflush(out_);
}

void SweepProgress::log(double elapsed) {
  last_log_s_ = elapsed;
  logged_ = finished_ + static_cast<std::size_t>(done_);
  std::fprintf(out_, "voltaic: %zu/%zu cells finished, %zu incomplete, %s\n", finished_, cells_, incomplete_,
               counts(elapsed).c_str());
  std::fflush(out_);
}

void SweepProgress::finish() {
  const double elapsed = elapsed_s();
  if (!terminal_) {
    if (finished_ + static_cast<std::size_t>(done_) != logged_) log(elapsed);  // else a stale count would end the log
    return;
  }
  draw(elapsed);
  std::fprintf(out_, "\n");
}

}  // namespace voltaic::cli
