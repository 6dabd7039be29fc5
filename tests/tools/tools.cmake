# Tests of the Python tools (tools/plot.py, tools/roofline.py, tools/sweep_parts.py). They need a
# python3 that imports numpy, matplotlib and h5py; the first such interpreter
# among CMake's Python3 and the system's /usr/bin/python3 (where tools/setup.sh
# installs Debian's python3-matplotlib, python3-numpy, python3-h5py) runs
# them. Without one the tests are not added.
find_package(Python3 COMPONENTS Interpreter QUIET)
set(_voltaic_tools_python "")
foreach(_candidate IN ITEMS "${Python3_EXECUTABLE}" /usr/bin/python3)
  if(_voltaic_tools_python OR NOT _candidate OR NOT EXISTS "${_candidate}")
    continue()
  endif()
  execute_process(COMMAND "${_candidate}" -c "import numpy, matplotlib, h5py"
                  RESULT_VARIABLE _import_failed OUTPUT_QUIET ERROR_QUIET)
  if(NOT _import_failed)
    set(_voltaic_tools_python "${_candidate}")
  endif()
endforeach()

if(_voltaic_tools_python)
  add_test(NAME tools.plot COMMAND "${_voltaic_tools_python}" ${CMAKE_CURRENT_LIST_DIR}/test_plot.py)
  add_test(NAME tools.roofline COMMAND "${_voltaic_tools_python}" ${CMAKE_CURRENT_LIST_DIR}/test_roofline.py)
  add_test(NAME tools.sweep_parts COMMAND "${_voltaic_tools_python}" ${CMAKE_CURRENT_LIST_DIR}/test_sweep_parts.py)
  set_tests_properties(tools.plot tools.roofline tools.sweep_parts PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
                                                                           LABELS tools)
else()
  message(STATUS "voltaic: no python3 with numpy, matplotlib and h5py; the tools tests are not added "
                 "(tools/setup.sh installs them)")
endif()
