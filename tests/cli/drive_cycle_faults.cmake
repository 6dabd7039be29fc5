# ctest driver: hostile drive-cycle tables through `voltaic run` (docs/config.md,
# *Drive cycles*): times that do not start at 0 or do not increase, values
# and times past a step's limits, non-finite and malformed cells, too few
# rows, extra columns, a very long line, a table that is missing, a
# directory, a FIFO, a device, a symbolic-link loop or too large. Each exits
# 2 naming the config's line and key and the table's file and line (the
# limits: the step and the table's row) and writes nothing. Tables as PyBaMM
# reads them (a header, comments, CRLF line endings, a byte-order mark,
# spaces, no final newline) run, each giving the same time series.
#   cmake -DVOLTAIC=... -DWORK=... -P drive_cycle_faults.cmake
include(${CMAKE_CURRENT_LIST_DIR}/exit_code.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(out "${WORK}/out")
set(table "${WORK}/table.csv")
set(header "Time [s],Current [A]\n")
# The config: the drive cycle T (line 10) is ${table}, run by step 1 (line 13).
write_config("${WORK}/current.toml" "Run T (A) until 2.5 V" "[experiment.drive_cycles]\nT = \"table.csv\"\n")
write_config("${WORK}/power.toml" "Run T (W) until 2.5 V" "[experiment.drive_cycles]\nT = \"table.csv\"\n")

set(n 0)
# limited(CONFIG TEXT SUBSTRING): the table TEXT is refused with SUBSTRING, and nothing written.
function(limited config text substring)
  file(WRITE "${table}" "${text}")
  expect_exit(2 "${substring}" run "${WORK}/${config}.toml" --output "${out}" --backend cpu)
  if(EXISTS "${out}")
    message(FATAL_ERROR "the refused table left output behind in ${out}:\n${text}")
  endif()
  math(EXPR n "${n} + 1")
  set(n ${n} PARENT_SCOPE)
endfunction()
# refused(TEXT SUBSTRING): with TEXT as the table, `voltaic run current.toml`
# exits 2 with current.toml:10: experiment.drive_cycles.T: TABLE:SUBSTRING
# on stderr and writes nothing.
function(refused text substring)
  limited(current "${text}" "${WORK}/current.toml:10: experiment.drive_cycles.T: ${table}:${substring}")
  set(n ${n} PARENT_SCOPE)
endfunction()

# Times: not starting at 0, not increasing, a duplicate.
refused("${header}-1,1\n10,2\n" "2: the first time is -1; allowed: 0 (a drive cycle starts with its step)")
refused("${header}1,1\n10,2\n" "2: the first time is 1; allowed: 0")
refused("${header}0,1\n10,2\n5,1\n"
        "4: the time 5 is not after that of line 3 (10); allowed: strictly increasing times")
refused("${header}0,1\n10,2\n10,1\n20,1\n" "4: the time 10 is not after that of line 3 (10)")
refused("${header}0,0\n0,1\n10,1\n" "3: the time 0 is not after that of line 2 (0)")
refused("${header}0,1\n10,2\n20,1\n-5,1\n" "5: the time -5 is not after that of line 4 (20)")

# Non-finite and malformed cells.
foreach(x nan inf -inf)
  refused("${header}0,1\n10,${x}\n" "3: the value is ${x}; allowed: a finite number [A] or [W]")
  refused("${header}0,1\n${x},1\n" "3: the time is ${x}; allowed: a finite number [s]")
endforeach()
foreach(x abc 0x10 "" "\"2\"" 2A)
  refused("${header}0,1\n10,${x}\n" "3: the value '${x}' is not a number")
  refused("${header}0,1\n${x},1\n" "3: the time '${x}' is not a number")
endforeach()
foreach(x 1e400 -1e400 1e-400)
  refused("${header}0,1\n10,${x}\n" "3: the value '${x}' is beyond a double's range")
  refused("${header}0,1\n${x},1\n" "3: the time '${x}' is beyond a double's range")
endforeach()
refused("1e400,1\n10,1\n" "1: the time '1e400' is beyond a double's range")  # not a header
refused("${header}0,1\n10,2\nTime [s],Current [A]\n20,1\n" "4: the time 'Time [s]' is not a number")

# Rows: none, a header alone, one, extra or missing columns, another separator.
refused("" "1: holds no rows; allowed: at least 2 rows of time [s], value")
refused("${header}" "1: holds no rows")
refused("# a comment\n\n${header}# another\n" "1: holds no rows")
refused("${header}0,1\n" "2: holds 1 row; allowed: at least 2 rows")
refused("0,1\n" "1: holds 1 row")
refused("${header}0,1\n10,2,3\n" "3: '10,2,3' has 3 fields; allowed: two numbers")
refused("${header}0,1,\n10,2\n" "2: '0,1,' has 3 fields")
refused("${header}0,1\n10\n" "3: '10' has 1 field")
refused("Time [s];Current [A]\n0;1\n10;2\n" "2: '0;1' has 1 field")

# A very long line (1 MB) is named by its line, the message cut short.
string(REPEAT "x" 1000000 long)
refused("${header}0,1\n10,2\n${long}\n" "4: 'xxxxxxxxxxxxxxxxxxxx")
string(LENGTH "${last_stderr}" length)
if(length GREATER 1000)
  message(FATAL_ERROR "the message about a 1 MB line is ${length} characters long")
endif()
string(REPEAT "0" 1000000 long)
refused("${header}0,1\n10,2\n20,1${long}\n" "4: the value '10000000000")
string(LENGTH "${last_stderr}" length)
if(length GREATER 1000)
  message(FATAL_ERROR "the message about a 1 MB number is ${length} characters long")
endif()
set(long "")

# The files: missing, a directory, a FIFO, a symbolic-link loop, a device, larger than 64 MiB.
file(REMOVE "${table}")
expect_exit(2 "current.toml:10: experiment.drive_cycles.T: '${table}': does not exist" run "${WORK}/current.toml"
            --output "${out}" --backend cpu)
file(MAKE_DIRECTORY "${table}")
expect_exit(2 "current.toml:10: experiment.drive_cycles.T: '${table}': is a directory" run "${WORK}/current.toml"
            --output "${out}" --backend cpu)
file(REMOVE_RECURSE "${table}")
execute_process(COMMAND mkfifo "${table}" RESULT_VARIABLE made)
if(NOT made EQUAL 0)
  message(FATAL_ERROR "mkfifo failed")
endif()
expect_exit(2 "current.toml:10: experiment.drive_cycles.T: '${table}': is a FIFO" run "${WORK}/current.toml"
            --output "${out}" --backend cpu)
file(REMOVE "${table}")
execute_process(COMMAND ln -s table.csv "${table}")
expect_exit(2 "current.toml:10: experiment.drive_cycles.T: '${table}': is a symbolic link loop" run
            "${WORK}/current.toml" --output "${out}" --backend cpu)
file(REMOVE "${table}")
write_config("${WORK}/device.toml" "Run T (A) until 2.5 V" "[experiment.drive_cycles]\nT = \"/dev/zero\"\n")
expect_exit(2 "device.toml:10: experiment.drive_cycles.T: '/dev/zero': is a device" run "${WORK}/device.toml"
            --output "${out}" --backend cpu)
execute_process(COMMAND truncate -s 65M "${table}" RESULT_VARIABLE made)
if(NOT made EQUAL 0)
  message(FATAL_ERROR "truncate failed")
endif()
expect_exit(2 "current.toml:10: experiment.drive_cycles.T: '${table}': is 65 MiB (68157440 bytes), larger than \
the 64 MiB" run "${WORK}/current.toml" --output "${out}" --backend cpu)
file(REMOVE "${table}")
if(EXISTS "${out}")
  message(FATAL_ERROR "a refused table file left output behind in ${out}")
endif()

# The limits of a step's own numbers: refused at the step that runs the
# table, which names the table and its row counted from its first number row.
set(run_a "current.toml:13: experiment.steps: step 1 'Run T (A) until 2.5 V', column 7: drive cycle 'T'")
set(run_w "power.toml:13: experiment.steps: step 1 'Run T (W) until 2.5 V', column 7: drive cycle 'T'")
limited(current "${header}0,1\n10,1000001\n" "${run_a} row 2: the value 1000001 A is out of range: at most 1e+06 A")
limited(current "${header}0,-1000001\n10,1\n" "${run_a} row 1: the value -1000001 A is out of range")
limited(current "# pulses\n\n${header}0,1\n10,2\n20,3e6\n" "${run_a} row 3: the value 3e+06 A is out of range")
limited(power "Time [s],Power [W]\n0,1\n10,1000000001\n"
        "${run_w} row 2: the value 1000000001 W is out of range: at most 1e+09 W")
limited(power "Time [s],Power [W]\n0,-2e9\n10,1\n" "${run_w} row 1: the value -2e+09 W is out of range")
limited(current "${header}0,1\n1000000001,1\n" "${run_a} row 2: the time 1000000001 s is out of range: at most 1e+09 s")
limited(current "${header}0,1\n1e300,1\n" "${run_a} row 2: the time 1e+300 s is out of range")
# Rows closer than a microsecond (the least step duration) are refused at
# their line: the solver could not take such a step (1 / h overflows).
refused("${header}0,1\n1,1\n1.0000001,5\n10,5\n" "4: the time 1.0000001 is 1.0000000005838672e-07 s after that of \
line 3; allowed: 1e-06 s or more")
refused("${header}0,1\n5e-324,1\n" "3: the time 5e-324 is 5e-324 s after that of line 2")
refused("${header}0,1\n1e-308,1\n" "3: the time 1e-308 is 1e-308 s after that of line 2")

# Good tables run: a few rows; CRLF, a byte-order mark, comments, blank lines,
# spaces and tabs, no final newline (docs/config.md); a table that no step
# runs is not held to the limits.
set(good "0,1\n10,2\n20,1\n")
string(ASCII 239 187 191 bom)
set(k 0)
foreach(text "${header}${good}" "${good}" "Time [s],Current [A]\r\n0,1\r\n10,2\r\n20,1\r\n"
             "Time [s],Current [A]\r0,1\r10,2\r20,1\r"
             "${bom}${header}${good}" "${bom}${good}" "# pulses\n\n${header}# rising\n0, 1\n\n 10 ,\t2 # the peak\n20,1"
             "${header}0,1\n10,1000000\n")
  file(WRITE "${table}" "${text}")
  expect_exit(0 "" run "${WORK}/current.toml" --output "${WORK}/good${k}" --backend cpu)
  file(READ "${WORK}/good${k}/timeseries.csv" series)
  string(TOLOWER "${series}" series)
  if(series MATCHES "(^|[,\n])[-+]?(nan|inf)")
    message(FATAL_ERROR "the run of a good table wrote a non-finite number:\n${text}")
  endif()
  math(EXPR k "${k} + 1")
endforeach()
file(READ "${WORK}/good0/timeseries.csv" first)
foreach(i RANGE 1 6)
  file(READ "${WORK}/good${i}/timeseries.csv" other)
  if(NOT other STREQUAL first)
    message(FATAL_ERROR "good${i}: the same table in another spelling ran differently from good0")
  endif()
endforeach()
write_config("${WORK}/unused.toml" "Rest for 1 s" "[experiment.drive_cycles]\nT = \"table.csv\"\n")
file(WRITE "${table}" "${header}0,1\n10,1e7\n")
expect_exit(0 "" run "${WORK}/unused.toml" --output "${WORK}/unused" --backend cpu)
message(STATUS "${n} hostile drive-cycle tables refused with exit code 2; ${k} good ones run")
