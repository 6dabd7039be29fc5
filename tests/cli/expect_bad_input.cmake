# ctest driver: `voltaic run` (or SUBCOMMAND: sweep, pack) on a bad config (or a
# config naming a bad BPX file) must exit with 2, print one line on stderr
# containing EXPECTED, and leave no output directory.
#   cmake -DVOLTAIC=... -DCONFIG=... [-DBPX=...] [-DSUBCOMMAND=sweep|pack] [-DBACKEND=cuda] -DEXPECTED=... -DWORK=... -P expect_bad_input.cmake
# or, instead of EXPECTED, -DEXPECTED_FROM=expected.txt -DENTRY=file: the
# substring is the rest of the line "file<TAB>substring" (read here, as text,
# because CMake lists mangle the brackets and semicolons that messages hold);
# DIR/ in it stands for the folder of expected.txt.
if(NOT SUBCOMMAND)
  set(SUBCOMMAND run)
endif()
if(NOT BACKEND)
  set(BACKEND cpu)
endif()
if(EXPECTED_FROM)
  file(READ "${EXPECTED_FROM}" table)
  # The line that starts with the name ("unknown_key.toml" is not the end of "link_unknown_key.toml").
  string(PREPEND table "\n")
  string(FIND "${table}" "\n${ENTRY}\t" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${EXPECTED_FROM} has no line for ${ENTRY}")
  endif()
  string(LENGTH "\n${ENTRY}\t" skip)
  math(EXPR at "${at} + ${skip}")
  string(SUBSTRING "${table}" ${at} -1 rest)
  string(FIND "${rest}" "\n" end)
  string(SUBSTRING "${rest}" 0 ${end} EXPECTED)
  get_filename_component(folder "${EXPECTED_FROM}" DIRECTORY)
  string(REPLACE "DIR/" "${folder}/" EXPECTED "${EXPECTED}")
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
if(BPX)
  set(CONFIG "${WORK}/uses_bad_bpx.toml")
  file(WRITE "${CONFIG}" "[cell]\nbpx = \"${BPX}\"\n\n[experiment]\nsteps = [\"Discharge at 1C until 3.0 V\"]\n")
endif()
set(out "${WORK}/output")
set(backend --backend ${BACKEND})
if(SUBCOMMAND STREQUAL "pack")  # a pack runs on the CPU: no --backend
  set(backend "")
endif()
execute_process(COMMAND "${VOLTAIC}" ${SUBCOMMAND} "${CONFIG}" --output "${out}" ${backend}
                RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "exit code ${rc}, expected 2 (bad input); stderr:\n${stderr}")
endif()
string(REGEX MATCHALL "\n" newlines "${stderr}")
list(LENGTH newlines lines)
if(NOT lines EQUAL 1)
  message(FATAL_ERROR "stderr has ${lines} lines, expected one:\n${stderr}")
endif()
string(FIND "${stderr}" "${EXPECTED}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "stderr does not name the problem ('${EXPECTED}'):\n${stderr}")
endif()
if(EXISTS "${out}")
  message(FATAL_ERROR "a bad input left output behind in ${out}")
endif()
message(STATUS "ok: ${stderr}")
