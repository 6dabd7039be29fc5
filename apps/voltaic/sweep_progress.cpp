#include "sweep_progress.hpp"

#include <string>

#include "progress.hpp"

namespace voltaic::cli {

SweepProgress::SweepProgress(std::size_t cells, std::FILE* out, bool terminal)
    : cells_(cells), out_(out), terminal_(terminal) {}

void SweepProgress::update(const BatchCellResult& result) {
  ++finished_;
  if (result.status != BatchCellResult::Status::completed) ++incomplete_;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (terminal_) {
    if (elapsed - last_draw_s_ >= 0.1) draw(elapsed);
  } else if (elapsed - last_log_s_ >= 5.0) {
    log(elapsed);
  }
}

void SweepProgress::draw(double elapsed) {
  last_draw_s_ = elapsed;
  const double done = cells_ ? double(finished_) / double(cells_) : 1.0;
  constexpr int width = 28;
  std::string bar(static_cast<std::size_t>(done * width), '#');
  bar.resize(width, '.');
  const std::string eta = finished_ > 0 ? clock_text(elapsed * (1.0 - done) / done) : "--:--";
  std::fprintf(out_, "\r[%s] %zu/%zu cells  %zu incomplete  %.3g cells/s  %s elapsed, ETA %s  ", bar.c_str(), finished_,
               cells_, incomplete_, elapsed > 0.0 ? double(finished_) / elapsed : 0.0, clock_text(elapsed).c_str(),
               eta.c_str());
  std::fflush(out_);
}

void SweepProgress::log(double elapsed) {
  last_log_s_ = elapsed;
  logged_ = finished_;
  std::fprintf(out_, "voltaic: %zu/%zu cells finished, %zu incomplete, %.3g cells/s (%s)\n", finished_, cells_,
               incomplete_, elapsed > 0.0 ? double(finished_) / elapsed : 0.0, clock_text(elapsed).c_str());
  std::fflush(out_);
}

void SweepProgress::finish() {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (!terminal_) {
    if (finished_ != logged_) log(elapsed);  // else a stale count would be the log's last word
    return;
  }
  draw(elapsed);
  std::fprintf(out_, "\n");
}

}  // namespace voltaic::cli
