# ctest driver (issue 34, restarts): a drive-cycle table edited between the
# checkpoint and --restart is refused with exit code 2 naming the table
# (it used to continue with the current jumping); the table as it was
# continues (exit 0); a restart into its own directory keeps its source.
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

# A restart into the directory it continues from keeps that checkpoint when
# it writes none of its own (it used to remove it with the earlier set), and
# the checkpoint still continues.
file(WRITE "${WORK}/short.toml" "[cell]\nparameter_set = \"Chen2020\"\n[grid]\nnegative_cells = 4\n"
           "separator_cells = 3\npositive_cells = 4\nradial_shells = 4\n[experiment]\n"
           "steps = [\"Discharge at 1C for 10 minutes\", \"Rest for 2 minutes\"]\n[output]\ncheckpoint_period = 500.0\n")
expect_exit(0 "" run "${WORK}/short.toml" --output "${WORK}/own" --backend cpu)
expect_exit(0 "" run "${WORK}/short.toml" --output "${WORK}/own" --backend cpu --restart "${WORK}/own/checkpoint.h5")
if(NOT EXISTS "${WORK}/own/checkpoint.h5")
  message(FATAL_ERROR "the restart into its own directory removed the checkpoint it continued from")
endif()
expect_exit(0 "" run "${WORK}/short.toml" --output "${WORK}/again" --backend cpu --restart "${WORK}/own/checkpoint.h5")
message(STATUS "a restart into its own directory kept its source")
