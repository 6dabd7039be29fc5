# voltaic_mpi_tests: one binary, run under mpirun on 1, 2 and 4 ranks (more
# ranks than cores where the MPI needs to be told: VOLTAIC_MPIEXEC_EXTRA).
add_executable(voltaic_mpi_tests mpi/mpi_main.cpp mpi/block_decomposition_test.cpp mpi/distributed_batch_test.cpp
  mpi/decomposed_solve_test.cpp mpi/decomposed_diffusion_step_test.cpp
  mpi/decomposed_two_field_solve_test.cpp mpi/block_simulation_test.cpp
  mpi/decomposed_operators_test.cpp mpi/block_decomposition_gpu_test.cpp mpi/cut_plane_multigrid_test.cpp)
target_link_libraries(voltaic_mpi_tests PRIVATE voltaic::mpi voltaic::io GTest::gtest)
target_include_directories(voltaic_mpi_tests PRIVATE ${PROJECT_SOURCE_DIR}/src)  # solver/plane_cycle.hpp
target_compile_options(voltaic_mpi_tests PRIVATE -Wall -Wextra $<$<BOOL:${VOLTAIC_WERROR}>:-Werror>)
foreach(ranks 1 2 4)
  add_test(NAME mpi.ranks_${ranks}
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${VOLTAIC_MPIEXEC_EXTRA} ${MPIEXEC_PREFLAGS}
                   $<TARGET_FILE:voltaic_mpi_tests> ${MPIEXEC_POSTFLAGS})
  # OpenMPI refuses root (CI containers) unless told; its shared-memory
  # transport needs no network.
  set_tests_properties(mpi.ranks_${ranks} PROPERTIES PROCESSORS ${ranks} TIMEOUT 300
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
endforeach()
