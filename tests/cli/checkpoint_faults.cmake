# ctest driver: a real checkpoint with one bit flipped, at offsets spread
# over the whole file and every byte of its header, is refused with exit
# code 2 naming the file (never a crash inside HDF5, never a silently
# different run); a restart whose config stores fields on another schedule
# continues (exit 0); one of another experiment is refused.
#   cmake -DVOLTAIC=... -DCONFIG=restart.toml -DWORK=... -P checkpoint_faults.cmake
include(${CMAKE_CURRENT_LIST_DIR}/exit_code.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
expect_exit(0 "" run "${CONFIG}" --output "${WORK}/whole" --backend cpu)
set(good "${WORK}/whole/checkpoint.h5")
file(SIZE "${good}" size)

set(offsets)
foreach(at RANGE 0 80 3)  # the header's text
  list(APPEND offsets ${at})
endforeach()
foreach(i RANGE 0 59)  # the HDF5 bytes: superblock, link tables, data
  math(EXPR at "512 + (${size} - 513) * ${i} / 59")
  list(APPEND offsets ${at})
endforeach()
set(bad "${WORK}/flipped.h5")
foreach(at IN LISTS offsets)
  file(READ "${good}" byte OFFSET ${at} LIMIT 1 HEX)
  math(EXPR bit "${at} % 8")
  math(EXPR value "0x${byte} ^ (1 << ${bit})")
  math(EXPR o1 "${value} / 64")
  math(EXPR o2 "(${value} / 8) % 8")
  math(EXPR o3 "${value} % 8")
  file(COPY_FILE "${good}" "${bad}")
  execute_process(COMMAND sh -c "printf '\\${o1}${o2}${o3}' | dd of='${bad}' bs=1 seek=${at} conv=notrunc 2>/dev/null"
                  RESULT_VARIABLE wrote)
  file(READ "${bad}" check OFFSET ${at} LIMIT 1 HEX)
  if(NOT wrote EQUAL 0 OR check STREQUAL byte)
    message(FATAL_ERROR "could not flip bit ${bit} of byte ${at} (${byte}, read ${check})")
  endif()
  expect_exit(2 "'${bad}'" run "${CONFIG}" --output "${WORK}/restarted" --backend cpu --restart "${bad}")
endforeach()
list(LENGTH offsets n)

# NaN and negative times cannot get past the checksum from here; the unit
# tests (simulation_restart_test.cpp) feed them to load_checkpoint.

# Another field schedule: the restart recomputes it (it used to fail with dt = -1500).
file(READ "${CONFIG}" text)
string(REPLACE "field_period = 300.0" "field_period = 100.0" text "${text}")
file(WRITE "${WORK}/fields_every_100_s.toml" "${text}")
expect_exit(0 "" run "${WORK}/fields_every_100_s.toml" --output "${WORK}/refielded" --backend cpu --restart "${good}")
if(NOT EXISTS "${WORK}/refielded/fields.h5")
  message(FATAL_ERROR "the restart with another field schedule wrote no fields")
endif()

# Another experiment: refused up front, naming the file.
string(REPLACE "Rest for 5 minutes" "Rest for 6 minutes" text "${text}")
file(WRITE "${WORK}/other_experiment.toml" "${text}")
expect_exit(2 "'${good}': cannot be continued: was written by a run of another experiment" run
            "${WORK}/other_experiment.toml" --output "${WORK}/other" --backend cpu --restart "${good}")
message(STATUS "${n} flipped checkpoints refused with exit code 2")
