# ctest driver: inf, nan, 1e400 and numbers past their documented limits in
# every numeric field of the step grammar: each step is refused when the
# config is loaded (exit 2, naming the step), never run for ever or left to
# fail in the solver.
#   cmake -DVOLTAIC=... -DWORK=... -P step_numbers.cmake
include(${CMAKE_CURRENT_LIST_DIR}/exit_code.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(patterns
    "Rest for X s" "Rest for X hours" "Discharge at XC until 2.5 V" "Charge at X A until 4.2 V"
    "Discharge at X mA for 1 s" "Discharge at X W until 2.5 V" "Charge at X mW for 1 s" "Hold at X V until C/50"
    "Hold at 4.0 V until X A" "Hold at 4.0 V until XC" "Hold at 4.0 V until C/X" "Discharge at 1C until X V"
    "Discharge at 1C for X minutes" "Hold at 4.0 V for X hours" "Charge at 1C for 1 s or until X mV")
set(n 0)
foreach(pattern IN LISTS patterns)
  foreach(x inf nan 1e400 -1e400 1e308)
    if(x STREQUAL "1e308" AND pattern MATCHES "C/X")
      continue()  # C/1e308 is a tiny rate, not an overflow
    endif()
    string(REPLACE "X" "${x}" step "${pattern}")
    write_config("${WORK}/step.toml" "${step}" "")
    expect_exit(2 "experiment.steps: step 1 '${step}'" run "${WORK}/step.toml" --output "${WORK}/out" --backend cpu)
    math(EXPR n "${n} + 1")
  endforeach()
endforeach()
# The hostile test's own: these ran for ever, or exited 3.
foreach(step "Rest for 1e400 s" "Rest for 1e308 hours" "Hold at 4.0 V for 1e400 hours" "Discharge at 1e400C")
  write_config("${WORK}/step.toml" "${step}" "")
  expect_exit(2 "experiment.steps: step 1" run "${WORK}/step.toml" --output "${WORK}/out" --backend cpu)
endforeach()
if(EXISTS "${WORK}/out")
  message(FATAL_ERROR "a refused step left output behind")
endif()
message(STATUS "${n} steps with non-finite or out-of-range numbers refused with exit code 2")
