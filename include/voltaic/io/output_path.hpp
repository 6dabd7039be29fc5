#pragma once
/// @file output_path.hpp
/// @brief The output directory checked as input, before a run starts: a
/// name too long for the file system or a symbolic-link loop is the user's
/// to fix (exit code 2), not a failure found halfway through the run.

#include <string>

#include "voltaic/io/atomic_file.hpp"  // FileError

namespace voltaic::io {

/// Refuses an output directory that could not be created or used: a part of
/// its path longer than 255 bytes, a path of PATH_MAX bytes or more, a
/// symbolic-link loop, a dangling link, a file (not a directory) where the
/// directory or one of its parents should be. Creates nothing.
/// @throws FileError (what_failed(): "'DIR'") saying which part is wrong
void check_output_directory(const std::string& dir);

}  // namespace voltaic::io
