#pragma once
// SIGINT and SIGTERM during `voltaic run`: the first asks the run to stop
// after the time step in flight (the run loop polls stop_signal()); a second
// ends the process at once with the signal's exit code, unless a commit of
// the output is in progress, which it lets finish first. The process always
// exits with a code, never dies by the signal.

namespace voltaic::cli {

/// Installs the handlers for SIGINT and SIGTERM (for the rest of the process).
void install_stop_handlers();

/// The first SIGINT or SIGTERM received, 0 while none has come. Async-signal-safe.
int stop_signal();

/// 130 for SIGINT, 143 for SIGTERM: 128 + the signal, as shells report it.
int exit_code_of_signal(int signal);

/// "SIGINT", "SIGTERM".
const char* signal_name(int signal);

/// While alive, a second signal waits (a commit renames files as a set and
/// must not stop half-way); the destructor exits with its code if one came.
class HoldSecondSignal {
 public:
  HoldSecondSignal();
  ~HoldSecondSignal();
  HoldSecondSignal(const HoldSecondSignal&) = delete;
  HoldSecondSignal& operator=(const HoldSecondSignal&) = delete;
};

}  // namespace voltaic::cli
