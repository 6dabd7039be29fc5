#include "progress.hpp"

#include <algorithm>
#include <cmath>

namespace voltaic::cli {

std::string clock_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%02ld:%02ld", s / 60, s % 60);
  return text;
}

Progress::Progress(const Experiment& experiment, double nominal_capacity_ah, std::FILE* out, bool terminal)
    : experiment_(experiment), capacity_ah_(nominal_capacity_ah), out_(out), terminal_(terminal) {}

double Progress::fraction(const Solution& s) const {
  const std::size_t r = s.rows() - 1;
  const double time = s["Time [s]"][r], capacity = s["Discharge capacity [A.h]"][r];
  const double current = std::fabs(s["Current [A]"][r]);
  const auto index = static_cast<std::size_t>(s["Step"][r]);
  const ExperimentStep& step = experiment_.step(index % experiment_.cycle().size());
  double part = 0.0;
  if (step.duration_s && *step.duration_s > 0.0 && !step.default_duration) {
    part = (time - step_time_) / *step.duration_s;
  } else if (step.mode == StepMode::current && capacity_ah_ > 0.0) {
    part = std::fabs(capacity - step_capacity_) / capacity_ah_;
  } else if (step.until_current && current > 0.0 && step_current_ > 0.0) {
    const double limit = std::fabs(step.until_current->amperes(capacity_ah_));
    if (limit > 0.0 && step_current_ > limit)
      part = std::log(step_current_ / current) / std::log(step_current_ / limit);
  }
  return (double(index) + std::clamp(part, 0.0, 0.99)) / double(experiment_.total_steps());
}

std::string Progress::cycle_text(const Solution& s) const {
  if (experiment_.cycles() <= 1 || s.cycles.empty()) return "";
  const CycleSummary &first = s.cycles.front(), &last = s.cycles.back();
  char text[128];
  std::snprintf(text, sizeof text, "  cycle %d/%d, capacity %.4f A.h (%.1f%%)", last.cycle, experiment_.cycles(),
                last.capacity, first.capacity > 0.0 ? 100.0 * last.capacity / first.capacity : 0.0);
  return text;
}

bool Progress::rows_behind(const Solution& s) const {
  const auto index = static_cast<std::size_t>(s["Step"][s.rows() - 1]);
  return s.cycles.size() > index / experiment_.cycle().size() + 1;
}

void Progress::update(const Solution& s) {
  if (s.rows() == 0) return;
  const std::size_t r = s.rows() - 1;
  const bool new_cycle = s.cycles.size() != last_cycles_;
  last_cycles_ = s.cycles.size();
  const int step = static_cast<int>(s["Step"][r]);
  if (step != last_step_) {
    step_time_ = s["Time [s]"][r];
    step_capacity_ = s["Discharge capacity [A.h]"][r];
    step_current_ = std::fabs(s["Current [A]"][r]);
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // Cycles that keep no rows leave the last row behind: their summaries count.
  const double done =
      std::max(fraction(s), static_cast<double>(s.cycles.size()) / static_cast<double>(experiment_.cycles()));
  if (terminal_) {
    if (elapsed - last_draw_s_ >= 0.1 || step != last_step_ || new_cycle) draw(s, done, elapsed);
  } else if (step != last_step_ || (new_cycle && elapsed - last_log_s_ >= 1.0) || elapsed - last_log_s_ >= 5.0) {
    log(s, done, elapsed);
  }
  last_step_ = step;
}

void Progress::draw(const Solution& s, double done, double elapsed) {
  last_draw_s_ = elapsed;
  const std::size_t r = s.rows() - 1;
  constexpr int width = 28;
  const int filled = static_cast<int>(done * width);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.resize(width, '.');
  const std::string eta = done > 0.01 ? clock_text(elapsed * (1.0 - done) / done) : "--:--";
  if (rows_behind(s)) {
    std::fprintf(out_, "\r[%s] %3.0f%%%s  %s elapsed, ETA %s  ", bar.c_str(), 100.0 * done, cycle_text(s).c_str(),
                 clock_text(elapsed).c_str(), eta.c_str());
    std::fflush(out_);
    return;
  }
  std::fprintf(out_, "\r[%s] %3.0f%%  step %d/%zu  t = %.0f s  V = %.4f V  T = %.2f K%s  %s elapsed, ETA %s  ",
               bar.c_str(), 100.0 * done, static_cast<int>(s["Step"][r]) + 1, experiment_.total_steps(),
               s["Time [s]"][r], s["Voltage [V]"][r], s["Maximum cell temperature [K]"][r], cycle_text(s).c_str(),
               clock_text(elapsed).c_str(), eta.c_str());
  std::fflush(out_);
}

void Progress::log(const Solution& s, double done, double elapsed) {
  last_log_s_ = elapsed;
  const std::size_t r = s.rows() - 1;
  const auto index = static_cast<std::size_t>(s["Step"][r]);
  if (rows_behind(s)) {
    std::fprintf(out_, "voltaic: %3.0f%%%s  (%s)\n", 100.0 * done, cycle_text(s).c_str(), clock_text(elapsed).c_str());
    std::fflush(out_);
    return;
  }
  std::fprintf(out_, "voltaic: %3.0f%%  step %zu/%zu \"%s\"  t = %.1f s  V = %.4f V  I = %.4f A  T = %.2f K%s  (%s)\n",
               100.0 * done, index + 1, experiment_.total_steps(),
               experiment_.step(index % experiment_.cycle().size()).text.c_str(), s["Time [s]"][r], s["Voltage [V]"][r],
               s["Current [A]"][r], s["Maximum cell temperature [K]"][r], cycle_text(s).c_str(),
               clock_text(elapsed).c_str());
  std::fflush(out_);
}

void Progress::finish() {
  if (terminal_ && last_draw_s_ >= 0.0) std::fprintf(out_, "\n");
}

}  // namespace voltaic::cli
