# Functions shared by the ctest drivers of the interruption and output tests.
# Each driver is run as `cmake -DVOLTAIC=... -DCONFIG=... -DWORK=... -P driver.cmake`.

# voltaic run CONFIG into DIR on the CPU; RC and LOG (stdout and stderr) returned.
function(run_voltaic dir rc_var log_var)
  execute_process(COMMAND "${VOLTAIC}" run "${CONFIG}" --output "${dir}" --backend cpu ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log TIMEOUT 120)
  set(${rc_var} "${rc}" PARENT_SCOPE)
  set(${log_var} "${log}" PARENT_SCOPE)
endfunction()

# voltaic run CONFIG into DIR with its progress piped through on_progress.sh,
# which runs the command ARGN when a progress line holds PATTERN (no ';' in
# it: CMake would split the argument there; a newline separates commands). RC is the
# run's exit code, or CMake's text when a signal killed it (never a number then).
function(run_voltaic_until dir pattern rc_var out_var err_var)
  execute_process(COMMAND "${VOLTAIC}" run "${CONFIG}" --output "${dir}" --backend cpu
                  COMMAND sh "${CMAKE_CURRENT_LIST_DIR}/on_progress.sh" "${pattern}" ${ARGN}
                  RESULTS_VARIABLE results OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  list(GET results 0 rc)
  set(${rc_var} "${rc}" PARENT_SCOPE)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()

# Fails unless DIR holds every file of ARGN and no staging directory of a run.
function(require_files dir)
  foreach(f IN LISTS ARGN)
    if(NOT EXISTS "${dir}/${f}" OR IS_DIRECTORY "${dir}/${f}")
      message(FATAL_ERROR "'${dir}' has no file ${f}")
    endif()
  endforeach()
  file(GLOB staging LIST_DIRECTORIES true "${dir}/.voltaic-run-*")
  if(staging)
    message(FATAL_ERROR "staging directories left in '${dir}': ${staging}")
  endif()
endfunction()

# Fails unless the text of file A is the beginning of the text of file B
# (the rows of a stopped run are the first rows of the whole run).
function(require_prefix a b)
  file(READ "${a}" ta)
  file(READ "${b}" tb)
  string(LENGTH "${ta}" n)
  string(SUBSTRING "${tb}" 0 ${n} head)
  if(n EQUAL 0 OR NOT head STREQUAL ta)
    message(FATAL_ERROR "'${a}' is not the beginning of '${b}'")
  endif()
endfunction()

# Fails unless files A and B are byte for byte the same.
function(require_same a b)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${a}" "${b}" RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "'${a}' and '${b}' differ")
  endif()
endfunction()
