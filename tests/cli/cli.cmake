# Tests of the voltaic command-line program: subcommands, exit codes, the
# malformed-input corpus and restart. Each bad input must give a one-line
# error, exit code 2 and no output files.
set(_voltaic $<TARGET_FILE:voltaic_cli>)
set(_data ${PROJECT_SOURCE_DIR}/tests/data)
set(_work ${CMAKE_CURRENT_BINARY_DIR}/cli)

add_test(NAME cli.info COMMAND ${_voltaic} info)
set_tests_properties(cli.info PROPERTIES PASS_REGULAR_EXPRESSION "voltaic [0-9]+\\.[0-9]+.*backends built: cpu")
add_test(NAME cli.params_lists_sets COMMAND ${_voltaic} params)
set_tests_properties(cli.params_lists_sets PROPERTIES PASS_REGULAR_EXPRESSION "Chen2020")
add_test(NAME cli.params_prints_units COMMAND ${_voltaic} params Chen2020)
set_tests_properties(cli.params_prints_units PROPERTIES PASS_REGULAR_EXPRESSION "Negative electrode thickness \\[m\\] +8\\.52e-05")
add_test(NAME cli.unknown_option_is_bad_input COMMAND ${_voltaic} run --no-such-option x.toml)
set_tests_properties(cli.unknown_option_is_bad_input PROPERTIES WILL_FAIL TRUE)

# The malformed corpus: every config of bad_configs/ and BPX file of
# bad_bpx/; the driver reads the expected message from expected.txt.
foreach(kind bad_configs bad_bpx)
  if(kind STREQUAL bad_configs)
    file(GLOB _files RELATIVE ${_data}/${kind} ${_data}/${kind}/*.toml)
  else()
    file(GLOB _files RELATIVE ${_data}/${kind} ${_data}/${kind}/*.json)
  endif()
  foreach(_file IN LISTS _files)
    if(kind STREQUAL bad_configs)
      set(_input -DCONFIG=${_data}/${kind}/${_file})
    else()
      set(_input -DBPX=${_data}/${kind}/${_file})
    endif()
    add_test(NAME cli.${kind}.${_file}
             COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} ${_input} -DEXPECTED_FROM=${_data}/${kind}/expected.txt
                     -DENTRY=${_file} -DWORK=${_work}/${kind}/${_file} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_bad_input.cmake)
  endforeach()
endforeach()
# The malformed sweeps through `voltaic sweep`.
file(GLOB _files RELATIVE ${_data}/bad_sweep_configs ${_data}/bad_sweep_configs/*.toml)
foreach(_file IN LISTS _files)
  add_test(NAME cli.bad_sweep_configs.${_file}
           COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DSUBCOMMAND=sweep -DCONFIG=${_data}/bad_sweep_configs/${_file}
                   -DEXPECTED_FROM=${_data}/bad_sweep_configs/expected.txt -DENTRY=${_file}
                   -DWORK=${_work}/bad_sweep_configs/${_file} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_bad_input.cmake)
endforeach()

# The malformed packs through `voltaic pack`.
file(GLOB _files RELATIVE ${_data}/bad_pack_configs ${_data}/bad_pack_configs/*.toml)
foreach(_file IN LISTS _files)
  add_test(NAME cli.bad_pack_configs.${_file}
           COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DSUBCOMMAND=pack -DCONFIG=${_data}/bad_pack_configs/${_file}
                   -DEXPECTED_FROM=${_data}/bad_pack_configs/expected.txt -DENTRY=${_file}
                   -DWORK=${_work}/bad_pack_configs/${_file} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_bad_input.cmake)
endforeach()

# pack.h5 read back without h5dump or h5py: its datasets' shapes and root attributes.
find_package(HDF5 REQUIRED COMPONENTS C)
add_executable(voltaic_h5_shapes cli/h5_shapes.cpp)
target_include_directories(voltaic_h5_shapes PRIVATE ${HDF5_C_INCLUDE_DIRS})
target_link_libraries(voltaic_h5_shapes PRIVATE ${HDF5_C_LIBRARIES})
target_compile_options(voltaic_h5_shapes PRIVATE -Wall -Wextra $<$<BOOL:${VOLTAIC_WERROR}>:-Werror>)
add_dependencies(voltaic_tests voltaic_h5_shapes)
# A pack runs and writes both files with one row per recorded time and one
# column per cell (its cells a [sweep]'s, a coolant flowing past them); a pack
# whose first step cannot start exits with 3 and still writes them.
add_test(NAME cli.pack_2p2s_writes_both_files
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DSHAPES=$<TARGET_FILE:voltaic_h5_shapes>
                 -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/pack_2p2s.toml -DPARALLEL=2 -DSERIES=2 -DEXPECTED=0
                 -DPARAMETERS=1 -DCOOLANT=ON -DMIN_ROWS=10 -DWORK=${_work}/pack_2p2s
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/pack.cmake)
add_test(NAME cli.pack_stopped_early_writes_its_rows_and_exits_3
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DSHAPES=$<TARGET_FILE:voltaic_h5_shapes>
                 -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/pack_infeasible.toml -DPARALLEL=2 -DSERIES=1 -DEXPECTED=3
                 -DWORK=${_work}/pack_infeasible -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/pack.cmake)
# A pack wired by a netlist (LTspice's form) writes its nodes' voltages.
add_test(NAME cli.pack_netlist_writes_its_nodes
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DSHAPES=$<TARGET_FILE:voltaic_h5_shapes>
                 -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/pack_netlist.toml -DCELLS=4 -DNODES=8 -DEXPECTED=0
                 -DPARAMETERS=1 -DMIN_ROWS=10 -DWORK=${_work}/pack_netlist -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/pack.cmake)
# The example module (docs/getting_started.md, "Packs") runs as documented.
add_test(NAME cli.pack_example_4p3s_runs
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DSHAPES=$<TARGET_FILE:voltaic_h5_shapes>
                 -DCONFIG=${PROJECT_SOURCE_DIR}/examples/configs/pack_4p3s.toml -DPARALLEL=4 -DSERIES=3 -DEXPECTED=0
                 -DPARAMETERS=2 -DMIN_ROWS=100 -DWORK=${_work}/pack_4p3s -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/pack.cmake)
# --backend: cpu over the config's cuda; cuda without a GPU refused as `voltaic run` refuses it.
add_test(NAME cli.pack_backend_cpu_runs_and_cuda_without_a_gpu_is_refused
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/pack_2p2s.toml
                 -DRUN_CONFIG=${_data}/configs/minimal.toml -DWORK=${_work}/pack_backend
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/pack_backend.cmake)
set_tests_properties(cli.pack_2p2s_writes_both_files cli.pack_stopped_early_writes_its_rows_and_exits_3
                     cli.pack_example_4p3s_runs cli.pack_backend_cpu_runs_and_cuda_without_a_gpu_is_refused
                     PROPERTIES TIMEOUT 600)
# SIGINT or SIGTERM after the pack's first time step: exit 130 or 143, the rows so far published.
foreach(_signal INT TERM)
  if(_signal STREQUAL INT)
    set(_code 130)
  else()
    set(_code 143)
  endif()
  add_test(NAME cli.pack_sig${_signal}_publishes_the_rows_so_far
           COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DSHAPES=$<TARGET_FILE:voltaic_h5_shapes>
                   -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/pack_interrupt.toml -DSIGNAL=${_signal}
                   -DEXPECTED=${_code} -DWORK=${_work}/pack_sig${_signal}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/pack_interrupt.cmake)
  set_tests_properties(cli.pack_sig${_signal}_publishes_the_rows_so_far PROPERTIES TIMEOUT 300)
endforeach()
# tools/plot_pack.py on a pack's output; it needs a python3 with numpy,
# matplotlib and h5py (as tests/tools/tools.cmake: else the test is not added).
find_package(Python3 COMPONENTS Interpreter QUIET)
set(_plot_python "")
foreach(_candidate IN ITEMS "${Python3_EXECUTABLE}" /usr/bin/python3)
  if(NOT _plot_python AND _candidate AND EXISTS "${_candidate}")
    execute_process(COMMAND "${_candidate}" -c "import numpy, matplotlib, h5py"
                    RESULT_VARIABLE _no_modules OUTPUT_QUIET ERROR_QUIET)
    if(NOT _no_modules)
      set(_plot_python "${_candidate}")
    endif()
  endif()
endforeach()
if(_plot_python)
  add_test(NAME cli.plot_pack_draws_a_packs_output
           COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DPYTHON=${_plot_python}
                   -DPLOT=${PROJECT_SOURCE_DIR}/tools/plot_pack.py -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/pack_2p2s.toml
                   -DWORK=${_work}/plot_pack -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/plot_pack.cmake)
  set_tests_properties(cli.plot_pack_draws_a_packs_output PROPERTIES TIMEOUT 300)
  add_test(NAME cli.plot_pack_draws_a_netlist_pack
           COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DPYTHON=${_plot_python}
                   -DPLOT=${PROJECT_SOURCE_DIR}/tools/plot_pack.py
                   -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/pack_netlist.toml -DWORK=${_work}/plot_pack_netlist
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/plot_pack.cmake)
  set_tests_properties(cli.plot_pack_draws_a_netlist_pack PROPERTIES TIMEOUT 300)
endif()

add_test(NAME cli.sweep_completes_and_keeps_every_row_when_interrupted
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${PROJECT_SOURCE_DIR}/examples/electrode_sweep/small.toml
                 -DCELLS=4 -DLONG_CONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep_interrupt.toml -DWORK=${_work}/sweep
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep.cmake)

# Batched ageing through the CLI: every cell completes its 3 cycles and
# cycles.csv has one row per cell per cycle (the header, then 12 rows).
add_test(NAME cli.ageing_sweep_writes_each_cells_cycles
         COMMAND sh -c "\"$0\" sweep \"$1\" -o \"$2\" --backend cpu >/dev/null && rows=$(wc -l < \"$2/sweep/cycles.csv\") && \
                        echo \"cycles.csv lines: $rows\" && [ $rows = 13 ] && ! grep -q ',failed,\\|,stopped,' \"$2/sweep/summary.csv\""
                 ${_voltaic} ${CMAKE_CURRENT_SOURCE_DIR}/cli/ageing_sweep.toml ${_work}/ageing_sweep)

# An interrupted sweep goes on from its checkpoint to the files of one never stopped.
add_test(NAME cli.sweep_goes_on_from_its_checkpoint
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep_resume.toml
                 -DOTHER_CONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/ageing_sweep.toml -DWORK=${_work}/sweep_resume
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep_resume.cmake)

# Part of a sweep (--cells): the whole sweep's rows of those cells, by their numbers.
add_test(NAME cli.sweep_runs_the_cells_it_is_given
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/ageing_sweep.toml
                 -DWORK=${_work}/sweep_cells -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep_cells.cmake)

# A sweep in two parts stopped and resumed by tools/sweep_parts_run.sh (issue 30's fleet runs).
add_test(NAME cli.sweep_parts_run_goes_on_across_calls
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DTOOL=${PROJECT_SOURCE_DIR}/tools/sweep_parts_run.sh
                 -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep_resume.toml -DWORK=${_work}/sweep_parts_run
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep_parts_run.cmake)

# A sweep whose cells cannot fit what the process may allocate (ulimit -v):
# exit 2 with the estimate, before any sampling (it was bad_alloc, exit 1).
add_test(NAME cli.sweep_beyond_memory_is_refused_up_front
         COMMAND sh -c "ulimit -v 2000000; out=$(\"$0\" sweep \"$1\" -o \"$2\" 2>&1); rc=$?; echo \"$out\"; \
                        [ $rc = 2 ] && echo \"$out\" | grep -q 'sweep.samples: asks for 10000000 cells, which need about'"
                 ${_voltaic} ${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep_too_big.toml ${_work}/sweep_too_big)
if(VOLTAIC_SANITIZE MATCHES "address")  # ASan reserves terabytes of shadow memory: no ulimit -v
  set_tests_properties(cli.sweep_beyond_memory_is_refused_up_front PROPERTIES DISABLED TRUE)
endif()

add_test(NAME cli.missing_config_file
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${_work}/no_such_config.toml
                 "-DEXPECTED=no_such_config.toml" -DWORK=${_work}/missing -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_bad_input.cmake)

add_test(NAME cli.restart_checks_its_tables_and_keeps_its_source
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DWORK=${_work}/restart_inputs
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/restart_inputs.cmake)

add_test(NAME cli.restart_is_bitwise
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/restart.toml
                 -DWORK=${_work}/restart -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/restart_bitwise.cmake)

# A cycling run's progress (stdout not a terminal: a line a step) counts its
# cycles and shows the capacity against the first cycle's.
add_test(NAME cli.ageing_run_counts_cycles_and_shows_the_capacity
         COMMAND ${_voltaic} run ${CMAKE_CURRENT_SOURCE_DIR}/cli/ageing_run.toml --output ${_work}/ageing_run
                 --backend cpu)
set_tests_properties(cli.ageing_run_counts_cycles_and_shows_the_capacity
                     PROPERTIES PASS_REGULAR_EXPRESSION "cycle 2/3, capacity [0-9]+\\.[0-9]+ A\\.h \\(([0-9]+\\.[0-9])%\\)")

# A BPX file through the whole program.
add_test(NAME cli.runs_a_bpx_cell
         COMMAND ${_voltaic} run ${_data}/configs/bpx_nmc_pouch.toml --output ${_work}/bpx --backend cpu)
set_tests_properties(cli.runs_a_bpx_cell PROPERTIES PASS_REGULAR_EXPRESSION "Run completed\\..*discharge capacity")

add_test(NAME cli.solver_failure_keeps_output
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/solver_failure.toml
                 -DWORK=${_work}/solver_failure -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_solver_failure.cmake)

# Issue 13, nothing lost, nothing hangs: signals, concurrent runs, failed
# commits and full disks, each ending with its exit code and a complete set
# of outputs, the new one or the earlier one, never a mix.
foreach(_signal INT TERM)
  if(_signal STREQUAL INT)
    set(_code 130)
  else()
    set(_code 143)
  endif()
  add_test(NAME cli.sig${_signal}_commits_outputs_and_a_checkpoint
           COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/interrupt.toml
                   -DWORK=${_work}/sig${_signal} -DSIGNAL=${_signal} -DEXPECTED=${_code}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/interrupt.cmake)
  set_tests_properties(cli.sig${_signal}_commits_outputs_and_a_checkpoint PROPERTIES TIMEOUT 300)
endforeach()
add_test(NAME cli.second_signal_stops_at_once
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/interrupt.toml
                 -DWORK=${_work}/second_signal -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/second_signal.cmake)
add_test(NAME cli.second_run_into_a_locked_directory_is_refused
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/interrupt.toml
                 -DWORK=${_work}/concurrent -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/concurrent_runs.cmake)
add_test(NAME cli.failed_commit_keeps_every_file
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/restart.toml
                 -DWORK=${_work}/failed_commit -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/failed_commit.cmake)
set_tests_properties(cli.second_signal_stops_at_once cli.second_run_into_a_locked_directory_is_refused
                     cli.failed_commit_keeps_every_file PROPERTIES TIMEOUT 300)
foreach(_mode tmpfs fsize)
  add_test(NAME cli.disk_full_${_mode}_keeps_the_earlier_set
           COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/big_fields.toml
                   -DBEFORE=${CMAKE_CURRENT_SOURCE_DIR}/cli/restart.toml -DWORK=${_work}/disk_full_${_mode}
                   -DMODE=${_mode} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/disk_full.cmake)
  set_tests_properties(cli.disk_full_${_mode}_keeps_the_earlier_set
                       PROPERTIES TIMEOUT 300 SKIP_REGULAR_EXPRESSION "SKIP: no tmpfs")
endforeach()
# Fault injection: special files, non-finite step numbers, corrupt
# checkpoints, one run per exit code. Each script kills a voltaic that hangs
# after 60 s; TIMEOUT bounds the whole script.
foreach(_script special_files step_numbers exit_codes sweep_faults drive_cycle_faults)
  add_test(NAME cli.faults.${_script}
           COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DWORK=${_work}/faults/${_script}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/${_script}.cmake)
  set_tests_properties(cli.faults.${_script} PROPERTIES TIMEOUT 300)
endforeach()
add_test(NAME cli.faults.checkpoint_faults
         COMMAND ${CMAKE_COMMAND} -DVOLTAIC=${_voltaic} -DCONFIG=${CMAKE_CURRENT_SOURCE_DIR}/cli/restart.toml
                 -DWORK=${_work}/faults/checkpoint_faults -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/checkpoint_faults.cmake)
set_tests_properties(cli.faults.checkpoint_faults PROPERTIES TIMEOUT 600)

# Under mpirun: a sweep spreads its cells and gives the one-rank files; a
# single run cuts its cell's plane.
if(VOLTAIC_HAS_MPI)
  # A python3 with h5py compares the curves (else the test is skipped).
  find_package(Python3 COMPONENTS Interpreter QUIET)
  set(_h5_python python3)
  foreach(_candidate IN ITEMS "${Python3_EXECUTABLE}" /usr/bin/python3)
    if(_candidate AND EXISTS "${_candidate}")
      execute_process(COMMAND "${_candidate}" -c "import numpy, h5py" RESULT_VARIABLE _no_h5py OUTPUT_QUIET ERROR_QUIET)
      if(NOT _no_h5py)
        set(_h5_python "${_candidate}")
        break()
      endif()
    endif()
  endforeach()
  foreach(ranks 2 4)
    add_test(NAME cli.sweep_over_${ranks}_ranks_is_the_one_rank_sweep
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep_ranks.sh ${_voltaic} ${MPIEXEC_EXECUTABLE}
                     "${VOLTAIC_MPIEXEC_EXTRA}" ${PROJECT_SOURCE_DIR}/examples/electrode_sweep/small.toml
                     ${_work}/sweep_ranks_${ranks} ${ranks} ${_h5_python})
    set_tests_properties(cli.sweep_over_${ranks}_ranks_is_the_one_rank_sweep PROPERTIES PROCESSORS ${ranks}
      SKIP_RETURN_CODE 77
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
  endforeach()
  # A run cuts its cell's plane over the ranks: 2 and 4 give the same bits,
  # and a checkpoint of 4 continues on 2; a 1D cell has one column to cut.
  add_test(NAME cli.run_over_2_and_4_ranks_gives_the_same_bits
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/run_ranks.sh ${_voltaic} ${MPIEXEC_EXECUTABLE}
                   "${VOLTAIC_MPIEXEC_EXTRA}" ${CMAKE_CURRENT_SOURCE_DIR}/cli/pouch_ranks.toml ${_work}/run_ranks
                   ${_h5_python})
  set_tests_properties(cli.run_over_2_and_4_ranks_gives_the_same_bits PROPERTIES PROCESSORS 4 TIMEOUT 600
    SKIP_RETURN_CODE 77
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
  # A script that launches the CLI over two ranks (tests/cli/*.sh): voltaic,
  # mpiexec and the launcher's options, then ARGN; 77 skips (not Open MPI).
  function(add_ranks_test name script timeout)
    add_test(NAME ${name} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/${script} ${_voltaic} ${MPIEXEC_EXECUTABLE}
                                  "${VOLTAIC_MPIEXEC_EXTRA}" ${ARGN})
    set_tests_properties(${name} PROPERTIES PROCESSORS 2 TIMEOUT ${timeout} SKIP_RETURN_CODE 77
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
  endfunction()
  set(_pouch ${CMAKE_CURRENT_SOURCE_DIR}/cli/pouch_ranks.toml)
  # One rank that cannot write stops every rank; the earlier set is kept.
  add_ranks_test(cli.run_over_ranks_stops_every_rank_when_one_cannot_write run_ranks_fault.sh 300
                 ${_pouch} ${_work}/run_ranks_fault)
  # Ranks given different inputs stop together (exit 2), never hang or publish.
  add_ranks_test(cli.ranks_given_different_inputs_stop_together ranks_disagree.sh 900
                 ${_pouch} ${PROJECT_SOURCE_DIR}/examples/electrode_sweep/small.toml ${_work}/ranks_disagree)
  # SIGTERM to rank 1 alone stops the run on every rank (143, continuable) and the sweep reports it (143).
  add_ranks_test(cli.a_signal_to_one_rank_stops_every_rank ranks_signal.sh 600
                 ${_pouch} ${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep_interrupt.toml ${_work}/ranks_signal)
  # A rank killed mid-run (SIGKILL) ends the job (mpirun), never a hang.
  add_ranks_test(cli.a_killed_rank_ends_the_job ranks_killed.sh 300
                 ${_pouch} ${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep_interrupt.toml ${_work}/ranks_killed)
  add_test(NAME cli.run_of_a_1d_cell_refuses_several_ranks
           COMMAND ${MPIEXEC_EXECUTABLE} -n 2 ${VOLTAIC_MPIEXEC_EXTRA} ${_voltaic} run
                   ${_data}/configs/minimal.toml -o ${_work}/run_ranks_1d)
  set_tests_properties(cli.run_of_a_1d_cell_refuses_several_ranks PROPERTIES
    PASS_REGULAR_EXPRESSION "2 ranks cannot each own a tile of the 1 x 1 tiles"
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
endif()
