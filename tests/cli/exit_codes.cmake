# ctest driver: one run per exit code of the policy in
# docs/getting_started.md (0 success, 1 internal or system failure, 2 bad
# input, 3 stopped early); 130 and 143 (signals) have their own tests.
#   cmake -DVOLTAIC=... -DWORK=... -P exit_codes.cmake
include(${CMAKE_CURRENT_LIST_DIR}/exit_code.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# 0: a run that completes.
write_config("${WORK}/rest.toml" "Rest for 1 minute" "")
expect_exit(0 "" run "${WORK}/rest.toml" --output "${WORK}/ok" --backend cpu)

# 1: a system failure on the way: the checkpoint cannot be renamed into
# place (a directory stands there), so an output file is not written.
write_config("${WORK}/checkpointed.toml" "Rest for 10 minutes" "[output]\ncheckpoint_period = 60\n")
file(MAKE_DIRECTORY "${WORK}/blocked/checkpoint.h5")
expect_exit(1 "checkpoint.h5" run "${WORK}/checkpointed.toml" --output "${WORK}/blocked" --backend cpu)

# 2: bad input, here a grid far too large for this machine's memory,
# refused with the estimate before anything is allocated or written.
write_config("${WORK}/huge.toml" "Rest for 1 minute" "nx = 5000\nny = 5000\n")
expect_exit(2 "grid: needs about" run "${WORK}/huge.toml" --output "${WORK}/huge" --backend cpu)
if(NOT last_stderr MATCHES "needs about [0-9.]+ [GTPE]iB .*has [0-9.]+ [KMGTPE]iB available")
  message(FATAL_ERROR "the refusal does not give the estimate and what is available:\n${last_stderr}")
endif()
if(EXISTS "${WORK}/huge")
  message(FATAL_ERROR "the refused grid left output behind")
endif()

# 3: the run stops early: a step infeasible at its start (Chen2020 starts
# above 4.0 V, so a charge to 4.0 V cannot start), after a step that ran.
write_config("${WORK}/infeasible.toml" "Rest for 1 minute\", \"Charge at 1C until 4.0 V" "")
expect_exit(3 "stopped early: experiment step 2 (\"Charge at 1C until 4.0 V\") is infeasible" run
            "${WORK}/infeasible.toml" --output "${WORK}/infeasible" --backend cpu)
# ... and the same step first: the same code, not a bad-input error.
write_config("${WORK}/infeasible_first.toml" "Charge at 1C until 4.0 V" "")
expect_exit(3 "experiment step 1 (\"Charge at 1C until 4.0 V\") is infeasible" run "${WORK}/infeasible_first.toml"
            --output "${WORK}/infeasible_first" --backend cpu)
# ... and a step that fails at a physical limit says which, and where.
write_config("${WORK}/depletion.toml" "Discharge at 10C until 0.5 V"
             "[cell.overrides]\n\"Lower voltage cut-off [V]\" = 0.1\n\"Open-circuit voltage at 0% SOC [V]\" = 0.1\n")
expect_exit(3 "failed at t = " run "${WORK}/depletion.toml" --output "${WORK}/depletion" --backend cpu)
if(NOT last_stderr MATCHES "the electrolyte is depleted in the positive electrode \\(z-layer [0-9]+ of 11")
  message(FATAL_ERROR "the failure does not name the physical cause and its place:\n${last_stderr}")
endif()
message(STATUS "exit codes 0, 1, 2 and 3 as documented")
