# Decides whether the CUDA backend is built. AUTO builds it when a CUDA
# compiler is found; ON requires one; OFF never builds it.

set(VOLTAIC_HAS_CUDA 0)
if(NOT _voltaic_cuda STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    # H100 / H200. Override with -DCMAKE_CUDA_ARCHITECTURES=...
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(VOLTAIC_HAS_CUDA 1)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    message(STATUS "voltaic: CUDA backend ON (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES})")
  elseif(_voltaic_cuda STREQUAL "ON")
    message(FATAL_ERROR "VOLTAIC_CUDA=ON but no CUDA compiler (nvcc) was found. Install the CUDA toolkit and "
                        "put nvcc on PATH (or set CMAKE_CUDA_COMPILER), or configure with -DVOLTAIC_CUDA=OFF.")
  else()
    message(STATUS "voltaic: CUDA backend OFF (no nvcc found; VOLTAIC_CUDA=AUTO)")
  endif()
else()
  message(STATUS "voltaic: CUDA backend OFF (VOLTAIC_CUDA=OFF)")
endif()
