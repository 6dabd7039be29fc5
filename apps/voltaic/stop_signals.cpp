#include "stop_signals.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>

#include "commands.hpp"

namespace voltaic::cli {

namespace {

// Lock-free atomics: a handler may run on any thread of the process (the
// field writer's, OpenMP's), and plain sig_atomic_t says nothing across threads.
std::atomic<int> g_first{0};     // the first signal, 0 while none
std::atomic<int> g_deferred{0};  // a second signal that came while held
std::atomic<bool> g_holding{false};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);
static_assert(128 + SIGINT == kInterrupted && 128 + SIGTERM == kTerminated);

extern "C" void on_stop_signal(int signal) {
  int none = 0;
  if (g_first.compare_exchange_strong(none, signal)) {
    static const char notice[] = "\nvoltaic: stopping after this time step (a second signal stops at once)\n";
    [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, notice, sizeof notice - 1);  // async-signal-safe
    return;
  }
  if (g_holding.load()) {
    g_deferred.store(signal);
    return;
  }
  _exit(exit_code_of_signal(signal));  // async-signal-safe; skips the atexit handlers (HDF5's among them)
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action = {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a write interrupted by the first signal goes on
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int stop_signal() { return g_first.load(); }

int exit_code_of_signal(int signal) { return 128 + signal; }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

HoldSecondSignal::HoldSecondSignal() { g_holding.store(true); }

HoldSecondSignal::~HoldSecondSignal() {
  g_holding.store(false);
  if (const int signal = g_deferred.exchange(0)) {
    std::fflush(nullptr);  // not from a handler: stdio is safe here
    _exit(exit_code_of_signal(signal));
  }
}

}  // namespace voltaic::cli
