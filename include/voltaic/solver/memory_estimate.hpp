#pragma once
/// @file memory_estimate.hpp
/// @brief What a Simulation will allocate, estimated before it allocates:
/// a grid that cannot fit is refused with the estimate in the message,
/// rather than grown until the kernel's OOM killer ends the process.

#include <string>

#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic {

/// A grid whose estimated memory exceeds what the executor has.
class InsufficientMemory : public InvalidArgument {
  using InvalidArgument::InvalidArgument;
};

/// Bytes a Simulation of `options` holds on its executor once it runs, an
/// upper estimate within a factor 1.5 of what the CPU backend allocates
/// (tests/solver/memory_estimate_test.cpp). A double: a grid of 2^31 x 2^31
/// columns overflows any integer.
double simulation_memory_bytes(const SimulationOptions& options);

/// Bytes `exec` can still allocate: on the CPU host_memory_bytes_available();
/// on a CUDA device its global memory. Infinity when it cannot be read.
double available_memory_bytes(const Executor& exec);

/// Bytes this process can still allocate on the host: the smallest of the
/// kernel's MemAvailable (/proc/meminfo), what the process's cgroup limit
/// leaves and what its address-space limit (ulimit -v) leaves. Infinity
/// when none can be read.
double host_memory_bytes_available();

/// "1.5 GiB": a byte count as the refusals print it.
std::string human_bytes(double bytes);

/// @throws InsufficientMemory naming the grid, the estimate and what is
///         available when the estimate exceeds the available memory
void require_memory(const SimulationOptions& options, const Executor& exec);

}  // namespace voltaic
