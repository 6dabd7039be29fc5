# ctest driver: hostile sweeps through `voltaic sweep`: unknown keys and
# methods, lists of unequal length, non-finite values and bounds, a cell
# count above the maximum, a 3D grid, and sweep tables that are missing, a
# directory, a FIFO, a device, too large, empty or malformed. Each exits 2
# naming the config's line and key (and the table's file and line), and
# publishes no summary.csv: none in a new output directory, and an earlier
# sweep's summary.csv is kept byte for byte. A sweep whose cells include one
# with a value out of its parameter's range and one infeasible at its start
# runs the others and exits 0 (docs/getting_started.md, *Sweeps*), each
# row saying what became of its cell.
#   cmake -DVOLTAIC=... -DWORK=... -P sweep_faults.cmake
include(${CMAKE_CURRENT_LIST_DIR}/exit_code.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(out "${WORK}/out")
set(step "Discharge at 1C for 2 minutes")

# Pieces of [sweep] sections.
set(thickness "[sweep.parameters.\"Negative electrode thickness [m]\"]")
set(radius "[sweep.parameters.\"Positive particle radius [m]\"]")
set(tkey "sweep.parameters.\"Negative electrode thickness [m]\"")
set(list "[sweep]\nmethod = \"list\"\n")
set(random "[sweep]\nmethod = \"random\"\nsamples = 2\n")
set(lhs "[sweep]\nmethod = \"latin_hypercube\"\nsamples = 2\n")
set(one "${thickness}\nvalues = [7e-5]\n")

# An earlier sweep whose summary.csv every refused sweep must leave alone.
write_config("${WORK}/good.toml" "${step}" "${list}${thickness}\nvalues = [7e-5, 8e-5]\n")
expect_exit(0 "" sweep "${WORK}/good.toml" --output "${WORK}/earlier" --backend cpu)
require_files("${WORK}/earlier/sweep" summary.csv curves.h5)
file(COPY_FILE "${WORK}/earlier/sweep/summary.csv" "${WORK}/earlier_summary.csv")

# refused(NAME SUBSTRING SWEEP_TEXT): the config NAME.toml,
# the small cell of write_config with SWEEP_TEXT from its line 9 on, is
# refused by `voltaic sweep` with exit 2 and SUBSTRING (NAME.toml: is put in
# front of it) on stderr, into a new directory and into the earlier one.
set(n 0)
function(refused name substring text)
  write_config("${WORK}/${name}.toml" "${step}" "${text}")
  foreach(dir "${out}" "${WORK}/earlier")
    expect_exit(2 "${WORK}/${name}.toml:${substring}" sweep "${WORK}/${name}.toml" --output "${dir}" --backend cpu)
  endforeach()
  if(EXISTS "${out}")
    message(FATAL_ERROR "the refused sweep ${name}.toml left output behind in ${out}")
  endif()
  require_same("${WORK}/earlier_summary.csv" "${WORK}/earlier/sweep/summary.csv")
  require_files("${WORK}/earlier/sweep" summary.csv curves.h5)
  math(EXPR n "${n} + 1")
  set(n ${n} PARENT_SCOPE)
endfunction()

# [sweep] keys and methods.
refused(unknown_key "11: sweep.colour: unknown key 'colour'; allowed: method, samples, seed, table, parameters"
        "${list}colour = \"red\"\n${one}")
refused(misspelt_key "12: sweep.seeds: unknown key 'seeds'; did you mean 'seed'?"
        "${random}seeds = 3\n${thickness}\nspread = 0.1\n")
refused(unknown_method "10: sweep.method: unknown value \"sobol\"; allowed: one of \"list\", \"grid\""
        "[sweep]\nmethod = \"sobol\"\n${one}")
refused(method_case "10: sweep.method: unknown value \"List\"" "[sweep]\nmethod = \"List\"\n${one}")
refused(method_integer "10: sweep.method: is an integer (3)" "[sweep]\nmethod = 3\n${one}")
refused(no_parameters "9: sweep.parameters: is missing" "[sweep]\nmethod = \"grid\"\n")
refused(empty_parameters "11: sweep.parameters: is empty" "${list}[sweep.parameters]\n")
refused(low_with_list "12: ${tkey}.low: is read by methods \"random\" and \"latin_hypercube\", not by method = \"list\""
        "${list}${thickness}\nlow = 7e-5\nhigh = 8e-5\n")
refused(unknown_distribution "13: ${tkey}.distribution: unknown value \"lognormal\""
        "${random}${thickness}\ndistribution = \"lognormal\"\nspread = 0.1\n")
refused(seed_float "12: sweep.seed: is a float (1.5)"
        "${random}seed = 1.5\n${thickness}\nspread = 0.1\n")

# Lists of unequal length.
refused(unequal_lists "14: sweep.parameters.\"Positive particle radius [m]\".values: has 2 values, but ${tkey}.values \
(line 12) 3" "${list}${thickness}\nvalues = [7e-5, 8e-5, 9e-5]\n${radius}\nvalues = [4e-6, 5e-6]\n")

# Non-finite values and bounds: TOML's inf and nan, a string, a literal that overflows a double.
foreach(x inf -inf nan)
  refused(value_${x} "12: ${tkey}.values: entry 2 is ${x}; allowed: a non-empty list of finite numbers [m]"
          "[sweep]\nmethod = \"grid\"\n${thickness}\nvalues = [7e-5, ${x}]\n")
  refused(low_${x} "13: ${tkey}.low: is ${x}; allowed: any finite number [m]"
          "${random}${thickness}\nlow = ${x}\nhigh = 8e-5\n")
  refused(mean_${x} "14: ${tkey}.mean: is ${x}; allowed: any finite number [m]"
          "${lhs}${thickness}\ndistribution = \"normal\"\nmean = ${x}\nstd = 1e-6\n")
endforeach()
refused(std_inf "15: ${tkey}.std: is inf"
        "${random}${thickness}\ndistribution = \"normal\"\nmean = 8e-5\nstd = inf\n")
refused(spread_nan "13: ${tkey}.spread: is nan" "${random}${thickness}\nspread = nan\n")
refused(value_string "12: ${tkey}.values: entry 2 is a string (\"inf\")"
        "${list}${thickness}\nvalues = [7e-5, \"inf\"]\n")
refused(value_1e400 "12: syntax: Error while parsing floating-point: '1e400'"
        "${list}${thickness}\nvalues = [7e-5, 1e400]\n")
refused(high_1e400 "14: syntax: Error while parsing floating-point: '1e400'"
        "${random}${thickness}\nlow = 7e-5\nhigh = 1e400\n")

# A distribution with low above (or at) high.
refused(low_above_high "14: ${tkey}.high: is 7e-05, not above low (9e-05); allowed: a number > low [m]"
        "${random}${thickness}\nlow = 9e-5\nhigh = 7e-5\n")
refused(low_equal_high "14: ${tkey}.high: is 9e-05, not above low (9e-05)"
        "${lhs}${thickness}\nlow = 9e-5\nhigh = 9e-5\n")

# More cells than a sweep may have (10,000,000), or none.
refused(samples_above_max "11: sweep.samples: is 10000001, more cells than a sweep may have"
        "[sweep]\nmethod = \"random\"\nsamples = 10000001\n${thickness}\nspread = 0.1\n")
refused(samples_zero "11: sweep.samples: is 0; allowed: an integer in [1, 10000000]"
        "[sweep]\nmethod = \"latin_hypercube\"\nsamples = 0\n${thickness}\nspread = 0.1\n")
refused(samples_beyond_64_bits "11: syntax: Error while parsing decimal integer"
        "[sweep]\nmethod = \"random\"\nsamples = 99999999999999999999\n${thickness}\nspread = 0.1\n")
set(grid "[sweep]\nmethod = \"grid\"\n")
foreach(p "Negative electrode thickness [m]" "Positive electrode thickness [m]" "Separator thickness [m]"
          "Negative electrode porosity" "Positive electrode porosity" "Separator porosity"
          "Negative particle radius [m]" "Positive particle radius [m]")
  string(APPEND grid "[sweep.parameters.\"${p}\"]\nvalues = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n")
endforeach()
refused(grid_above_max "11: sweep.parameters: the grid has 10 x 10 x 10 x 10 x 10 x 10 x 10 x 10 = 100000000 \
cells" "${grid}")

# A 3D grid: a sweep's cells are 1D.
refused(grid_nx "9: grid.nx: is 2; allowed: 1 (a sweep's cells are 1D" "nx = 2\n${list}${one}")
refused(grid_ny "10: grid.ny: is 3; allowed: 1 (a sweep's cells are 1D" "nx = 1\nny = 3\n${list}${one}")
# The 3D heat model and collectors: a sweep's cells are 1D.
refused(thermal_conduction "11: thermal.model: is \"conduction\"; allowed: \"isothermal\" or \"lumped\" (a sweep's \
cells are 1D" "nx = 1\n[thermal]\nmodel = \"conduction\"\n${list}${one}")
refused(collectors_without_tabs "9: grid.current_collector: is \"potential pair\", which needs both tabs, and \
'Negative tab width [m]' is unset" "current_collector = \"potential pair\"\n${list}${one}")

# The command line and the wrong command.
write_config("${WORK}/sweep_to_run.toml" "${step}" "${list}${one}")
foreach(threads -1 abc 4097)
  expect_exit(2 "--threads: Value ${threads} not in range" sweep "${WORK}/sweep_to_run.toml" --output "${out}"
              --backend cpu --threads ${threads})
endforeach()
expect_exit(2 "sweep_to_run.toml:9: sweep: [sweep] makes this a sweep of many cells" run
            "${WORK}/sweep_to_run.toml" --output "${out}" --backend cpu)
write_config("${WORK}/no_sweep.toml" "${step}" "")
expect_exit(2 "no_sweep.toml:1: sweep: there is no [sweep] section" sweep "${WORK}/no_sweep.toml" --output "${out}"
            --backend cpu)

# A drive cycle that no cell may run (its current past 1e6 A), and one whose times go back.
set(cycle "[experiment.drive_cycles]\nT = \"cycle.csv\"\n${list}${thickness}\nvalues = [7e-5, 8e-5]\n")
set(step "Run T (A) until 2.5 V")
file(WRITE "${WORK}/cycle.csv" "Time [s],Current [A]\n0,1\n10,2e6\n")
refused(cycle_current "17: experiment.steps: step 1 'Run T (A) until 2.5 V', column 7: drive cycle 'T' row 2: \
the value 2e+06 A" "${cycle}")
file(WRITE "${WORK}/cycle.csv" "Time [s],Current [A]\n0,1\n10,2\n5,1\n")
refused(cycle_times "10: experiment.drive_cycles.T: ${WORK}/cycle.csv:4: the time 5 is not after that of line 3 (10)"
        "${cycle}")
set(step "Discharge at 1C for 2 minutes")

# Sweep tables: refused(table_NAME ...) with the table ${WORK}/cells.csv written (or made) first.
set(table "[sweep]\nmethod = \"table\"\ntable = \"cells.csv\"\n")
set(at "11: sweep.table: ${WORK}/cells.csv")
set(header "\"Negative electrode thickness [m]\",\"Positive particle radius [m]\"\n7e-5,4e-6\n")
file(REMOVE "${WORK}/cells.csv")
refused(table_missing "11: sweep.table: '${WORK}/cells.csv': does not exist" "${table}")
file(MAKE_DIRECTORY "${WORK}/cells.csv")
refused(table_directory "11: sweep.table: '${WORK}/cells.csv': is a directory" "${table}")
file(REMOVE_RECURSE "${WORK}/cells.csv")
execute_process(COMMAND mkfifo "${WORK}/cells.csv" RESULT_VARIABLE made)
if(NOT made EQUAL 0)
  message(FATAL_ERROR "mkfifo failed")
endif()
refused(table_fifo "11: sweep.table: '${WORK}/cells.csv': is a FIFO" "${table}")
file(REMOVE "${WORK}/cells.csv")
refused(table_device "11: sweep.table: '/dev/zero': is a device" "[sweep]\nmethod = \"table\"\ntable = \"/dev/zero\"\n")
execute_process(COMMAND ln -s cells.csv "${WORK}/cells.csv")
refused(table_link_loop "11: sweep.table: '${WORK}/cells.csv': is a symbolic link loop" "${table}")
file(REMOVE "${WORK}/cells.csv")
execute_process(COMMAND truncate -s 65M "${WORK}/cells.csv" RESULT_VARIABLE made)
if(NOT made EQUAL 0)
  message(FATAL_ERROR "truncate failed")
endif()
refused(table_too_large "11: sweep.table: '${WORK}/cells.csv': is 65 MiB (68157440 bytes), larger than the 64 MiB"
        "${table}")
file(WRITE "${WORK}/cells.csv" "")
refused(table_empty "${at}:1: holds no header" "${table}")
file(WRITE "${WORK}/cells.csv" "# only a comment\n\n")
refused(table_only_comments "${at}:1: holds no header" "${table}")
file(WRITE "${WORK}/cells.csv" "\"Negative electrode thickness [m]\"\n")
refused(table_header_only "${at}:1: holds a header but no rows" "${table}")
file(WRITE "${WORK}/cells.csv" "${header}8e-5\n")
refused(table_short_row "${at}:3: '8e-5' has 1 field, the header 2" "${table}")
file(WRITE "${WORK}/cells.csv" "${header}8e-5,5e-6,1\n")
refused(table_long_row "${at}:3: '8e-5,5e-6,1' has 3 fields, the header 2" "${table}")
set(column2 "column 2 ('Positive particle radius [m]')")
foreach(cell abc "" 0x1p-3 5e-6x)
  file(WRITE "${WORK}/cells.csv" "${header}8e-5,${cell}\n")
  refused(table_not_a_number "${at}:3: ${column2}: '${cell}' is not a number; allowed: any finite number [m]"
          "${table}")
endforeach()
file(WRITE "${WORK}/cells.csv" "${header}8e-5,1e400\n")
refused(table_beyond_a_double "${at}:3: ${column2}: '1e400' is beyond a double's range" "${table}")
foreach(cell nan inf -inf)
  file(WRITE "${WORK}/cells.csv" "${header}8e-5,${cell}\n")
  refused(table_${cell} "${at}:3: ${column2}: is ${cell}; allowed: any finite number [m]" "${table}")
endforeach()
file(WRITE "${WORK}/cells.csv" "\"Negative electrode thickness [m]\",\"Positive partcle radius [m]\"\n7e-5,4e-6\n")
refused(table_unknown_parameter "${at}:1: column 2: unknown parameter 'Positive partcle radius [m]'; did you mean"
        "${table}")
file(WRITE "${WORK}/cells.csv" "\"Negative electrode thickness [m]\",\"\"\n7e-5,4e-6\n")
refused(table_empty_name "${at}:1: column 2 is empty" "${table}")
file(WRITE "${WORK}/cells.csv" "\"Negative electrode thickness [m]\n7e-5\n")
refused(table_open_quote "${at}:1: the quote at column 1 is not closed" "${table}")
file(WRITE "${WORK}/cells.csv" "7e-5\n8e-5\n")
refused(table_no_header "${at}:1: column 1: unknown parameter '7e-5'" "${table}")
file(WRITE "${WORK}/cells.csv" "\"Negative electrode OCP [V]\"\n0.1\n")
refused(table_function "${at}:1: column 1: 'Negative electrode OCP [V]' is a material function" "${table}")
# 10,000,001 rows, one above the maximum (about 20 MB; refused in about a second).
string(REPEAT "1\n" 10000001 rows)
file(WRITE "${WORK}/cells.csv" "\"Negative electrode thickness [m]\"\n${rows}")
set(rows "")
refused(table_above_max "${at}:1: holds 10000001 rows, more cells than a sweep may have" "${table}")
file(REMOVE "${WORK}/cells.csv")

# Cells that cannot complete do not stop the others, and the sweep exits 0
# (docs/getting_started.md): cell 1's thickness is out of its range (failed,
# the range named), cell 2's lower cut-off is above its starting voltage
# (stopped: the discharge is infeasible), cells 0 and 3 complete.
write_config("${WORK}/some_fail.toml" "${step}"
             "${list}${thickness}\nvalues = [7e-5, -1, 8e-5, 9e-5]\n\
[sweep.parameters.\"Lower voltage cut-off [V]\"]\nvalues = [2.5, 2.5, 4.1, 3.0]\n")
expect_exit(0 "2 of 4 cells did not complete the experiment (their rows in summary.csv say why)" sweep
            "${WORK}/some_fail.toml" --output "${WORK}/some_fail" --backend cpu)
require_files("${WORK}/some_fail/sweep" summary.csv curves.h5)
file(STRINGS "${WORK}/some_fail/sweep/summary.csv" rows)
list(LENGTH rows count)
if(NOT count EQUAL 5)
  message(FATAL_ERROR "summary.csv has ${count} lines, not a header and 4 rows:\n${rows}")
endif()
list(GET rows 1 row0)
list(GET rows 2 row1)
list(GET rows 3 row2)
list(GET rows 4 row3)
set(out_of_range "\"Negative electrode thickness \\[m\\]: .*-1 is not allowed.*\\[1e-07, 0\\.1\\]\"$")
if(NOT row0 MATCHES "^0,7e-05,2\\.5,completed,[0-9]"
   OR NOT row3 MATCHES "^3,9e-05,3,completed,[0-9]"
   OR NOT row1 MATCHES "^1,-1,2\\.5,failed,,.*${out_of_range}"
   OR NOT row2 MATCHES "^2,8e-05,4\\.1,stopped,.*\"experiment step 1 .* is infeasible: a cut-off is already reached")
  message(FATAL_ERROR "summary.csv does not say what became of each cell:\n${rows}")
endif()
string(TOLOWER "${rows}" lower)
if(lower MATCHES "(^|[,;])[-+]?(nan|inf)")
  message(FATAL_ERROR "summary.csv holds a non-finite number:\n${rows}")
endif()

# A table with a byte-order mark, CRLF line endings, comments and blank lines is read (docs/config.md).
string(ASCII 239 187 191 bom)
file(WRITE "${WORK}/cells.csv" "${bom}# cells\r\n\"Negative electrode thickness [m]\"\r\n\r\n7e-5\r\n8e-5\r\n")
write_config("${WORK}/bom_crlf.toml" "${step}" "${table}")
expect_exit(0 "" sweep "${WORK}/bom_crlf.toml" --output "${WORK}/bom_crlf" --backend cpu)
file(STRINGS "${WORK}/bom_crlf/sweep/summary.csv" rows)
if(NOT rows MATCHES "0,7e-05,completed,.*;1,8e-05,completed,")
  message(FATAL_ERROR "the table with a BOM and CRLF was not read as 2 cells:\n${rows}")
endif()
message(STATUS "${n} hostile sweeps refused with exit code 2 and no summary; failed cells leave the others be")
