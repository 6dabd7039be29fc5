# VOLTAIC_FUZZ: every C++ target is built for libFuzzer (coverage
# instrumentation without libFuzzer's main) with ASan and UBSan, and UBSan's
# reports abort so that the fuzzer counts them as crashes. Host code only:
# the readers it fuzzes have no device code, and nvcc cannot instrument.
if(NOT VOLTAIC_FUZZ)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "VOLTAIC_FUZZ=ON needs clang++ (libFuzzer); CMAKE_CXX_COMPILER is ${CMAKE_CXX_COMPILER_ID}. "
                      "Configure with the 'fuzz' preset, or -DCMAKE_CXX_COMPILER=clang++.")
endif()
if(VOLTAIC_HAS_CUDA)
  message(FATAL_ERROR "VOLTAIC_FUZZ=ON builds host code only; configure with -DVOLTAIC_CUDA=OFF.")
endif()
# -UNDEBUG: the assertions of the libraries the readers use (nlohmann-json,
# toml++) are findings too.
add_compile_options(
  "$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link,address,undefined;-fno-sanitize-recover=undefined>"
  "$<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer;-UNDEBUG>")
add_link_options(-fsanitize=address,undefined)
