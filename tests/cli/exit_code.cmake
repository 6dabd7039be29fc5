# expect_exit(CODE SUBSTRING ARGS...): runs `${VOLTAIC} ARGS...` and fails
# unless it exits by itself (no signal, no hang: killed after 60 s) with
# exit code CODE and a stderr holding SUBSTRING. Included by the drivers
# of the fault-injection tests.
function(expect_exit code substring)
  execute_process(COMMAND "${VOLTAIC}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT 60)
  if(NOT rc MATCHES "^[0-9]+$")
    message(FATAL_ERROR "voltaic ${ARGN}: did not exit by itself (${rc}): a signal or a hang\n${out}\n${err}")
  endif()
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "voltaic ${ARGN}: exit code ${rc}, expected ${code}\n${out}\n${err}")
  endif()
  string(FIND "${err}" "${substring}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "voltaic ${ARGN}: stderr does not hold '${substring}':\n${err}")
  endif()
  set(last_stderr "${err}" PARENT_SCOPE)
endfunction()

# A config at PATH running a Chen2020 cell through STEP, with EXTRA lines.
function(write_config path step extra)
  file(WRITE "${path}" "[cell]\nparameter_set = \"Chen2020\"\n\n[grid]\nnegative_cells = 4\nseparator_cells = 3\n"
                       "positive_cells = 4\nradial_shells = 4\n${extra}\n[experiment]\nsteps = [\"${step}\"]\n")
endfunction()
