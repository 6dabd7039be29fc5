#pragma once
// What the run and sweep commands share: error lines, the executor a
// backend choice names, and the exit codes and notes of an output directory.

#include <exception>
#include <memory>
#include <string>

#include "voltaic/core/executor.hpp"
#include "voltaic/io/config.hpp"
#include "voltaic/io/output_directory.hpp"

namespace voltaic {
struct CellParameters;
}

namespace voltaic::cli {

/// e's message on one line, without the "voltaic: " voltaic::Error puts first
/// (the CLI's own lines start with it once).
std::string message_of(const std::exception& e);

/// "voltaic: KIND: MESSAGE" on stderr, the message_of(e).
void report(const char* kind, const std::exception& e);

/// The executor of a backend choice (auto: CUDA when a device is visible).
/// @throws BackendUnavailable for cuda without a device or a CUDA build; `command` names the command
std::shared_ptr<const Executor> make_executor(io::BackendChoice choice, const std::string& command);

/// Exit code for an output that could not be opened: another run holding
/// the directory, or a directory that cannot be made, is the user's to fix.
int exit_code_of_output_error(const io::FileError& e);

/// Removes a directory this command created if nothing but the lock file is left in it.
void remove_if_unused(const std::string& dir, bool created);

/// Notes the staging directories that killed runs left behind.
void note_leftovers(const io::OutputDirectory& directory);

/// A stop signal as the ranks agree on it: the first rank that received one
/// (SIGINT or SIGTERM) and the signal; {0, size} while none has. Every rank
/// calls it at the same point, so that a signal to any rank stops them all.
struct AgreedSignal {
  int signal = 0;
  int rank = 0;
};
AgreedSignal agreed_stop_signal(const class Ranks& ranks);

/// What every MPI rank must be given alike: the command's options (`options`,
/// one per line) and the config file's text (or why it cannot be read).
std::string input_fingerprint(const std::string& config_path, const std::string& options);

/// What a config resolved to, with the files it names (a BPX file, drive-cycle
/// tables, a sweep's table), as one rank read them: every parameter and the
/// digest of the custom functions' data, the experiment's fingerprint, and
/// the digest of a sweep's cells (`cells` may be null). Ranks on other nodes
/// may read other files under one config text; this tells them apart.
std::string resolved_fingerprint(const ParameterSet& parameters, const Experiment& experiment,
                                 const CellParameters* cells);

/// Whether every rank was given rank 0's input (input_fingerprint). Where a
/// rank was not, rank 0 names it and the first line where its input differs;
/// every rank calls it at the same point, before any collective that the
/// input shapes (a plane's cut, a batch's share).
bool same_input_on_every_rank(const class Ranks& ranks, const std::string& fingerprint);

}  // namespace voltaic::cli
