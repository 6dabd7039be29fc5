# ctest driver (issue 34, restarts): a drive-cycle table edited between the
# checkpoint and --restart is refused with exit code 2 naming the table
# (it used to continue with the current jumping); the table as it was
# continues (exit 0).
#   cmake -DVOLTAIC=... -DWORK=... -P restart_inputs.cmake
include(${CMAKE_CURRENT_LIST_DIR}/exit_code.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/trips.csv" "Time [s],Current [A]\n0,5\n300,2\n600,5\n")
write_config("${WORK}/drive.toml" "Run trips (A)"
             "[output]\ncheckpoint_period = 200.0\n[experiment.drive_cycles]\ntrips = \"trips.csv\"\n")
expect_exit(0 "" run "${WORK}/drive.toml" --output "${WORK}/whole" --backend cpu)
set(good "${WORK}/whole/checkpoint.h5")
if(NOT EXISTS "${good}")
  message(FATAL_ERROR "the run wrote no checkpoint")
endif()
expect_exit(0 "" run "${WORK}/drive.toml" --output "${WORK}/same" --backend cpu --restart "${good}")
file(WRITE "${WORK}/trips.csv" "Time [s],Current [A]\n0,5\n300,2.5\n600,5\n")
expect_exit(2 "cannot be continued: was written by a run of another experiment: 'table \"trips\": 3 rows, digest" run
            "${WORK}/drive.toml" --output "${WORK}/edited" --backend cpu --restart "${good}")
message(STATUS "an edited drive cycle refused, the same one continued")
