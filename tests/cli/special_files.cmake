# ctest driver: inputs that are not regular files (FIFOs, devices) as the
# config, the BPX file, a drive-cycle table and the checkpoint to restart
# from: each exit 2 at once, naming the file, never blocking on a FIFO or
# reading a device for ever.
#   cmake -DVOLTAIC=... -DWORK=... -P special_files.cmake
include(${CMAKE_CURRENT_LIST_DIR}/exit_code.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND mkfifo "${WORK}/pipe" RESULT_VARIABLE made)
if(NOT made EQUAL 0)
  message(FATAL_ERROR "mkfifo failed")
endif()
set(out "${WORK}/output")

expect_exit(2 "pipe': is a FIFO" run "${WORK}/pipe" --output "${out}" --backend cpu)

file(WRITE "${WORK}/fifo_bpx.toml" "[cell]\nbpx = \"pipe\"\n\n[experiment]\nsteps = [\"Rest for 1 s\"]\n")
expect_exit(2 "cell.bpx: '${WORK}/pipe' is a FIFO" run "${WORK}/fifo_bpx.toml" --output "${out}" --backend cpu)

file(WRITE "${WORK}/zero_bpx.toml" "[cell]\nbpx = \"/dev/zero\"\n\n[experiment]\nsteps = [\"Rest for 1 s\"]\n")
expect_exit(2 "cell.bpx: '/dev/zero' is a device" run "${WORK}/zero_bpx.toml" --output "${out}" --backend cpu)
expect_exit(2 "'/dev/zero': is a device" params /dev/zero)
expect_exit(2 "'${WORK}/pipe': is a FIFO" params "${WORK}/pipe")

file(WRITE "${WORK}/fifo_table.toml"
     "[cell]\nparameter_set = \"Chen2020\"\n\n[experiment]\nsteps = [\"Run T (A) until 2.5 V\"]\n\n"
     "[experiment.drive_cycles]\nT = \"pipe\"\n")
expect_exit(2 "pipe': is a FIFO" run "${WORK}/fifo_table.toml" --output "${out}" --backend cpu)

write_config("${WORK}/rest.toml" "Rest for 1 s" "")
expect_exit(2 "'${WORK}/pipe': is a FIFO" run "${WORK}/rest.toml" --output "${out}" --backend cpu --restart "${WORK}/pipe")
expect_exit(2 "is a device" run "${WORK}/rest.toml" --output "${out}" --backend cpu --restart /dev/zero)

# A symbolic-link loop as the restart file and as the output directory.
execute_process(COMMAND ln -s loop "${WORK}/loop")
expect_exit(2 "symbolic link loop" run "${WORK}/rest.toml" --output "${out}" --backend cpu --restart "${WORK}/loop")
expect_exit(2 "symbolic link loop" run "${WORK}/rest.toml" --output "${WORK}/loop/out" --backend cpu)
# An output name longer than a file name may be.
string(REPEAT "x" 300 long)
expect_exit(2 "more than the 255 bytes a file name may have" run "${WORK}/rest.toml" --output "${WORK}/${long}"
            --backend cpu)
if(EXISTS "${out}")
  message(FATAL_ERROR "a refused input left output behind in ${out}")
endif()
message(STATUS "every special file was refused with exit code 2")
