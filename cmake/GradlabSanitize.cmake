# GRADLAB_SANITIZE: a comma-separated -fsanitize= list (address,undefined | thread | ...) applied
# to GradLab's own targets only (Qt, Eigen and the system libraries stay as they are), so one
# build folder per sanitizer: .ci/run keeps its ASan + UBSan tree in build-asan.
# UBSan stops at the first finding (-fno-sanitize-recover) so a test fails instead of printing.
set(GRADLAB_SANITIZE "" CACHE STRING "Sanitizers for GradLab targets, e.g. address,undefined or thread")

function(gradlab_sanitize target)
  if(GRADLAB_SANITIZE STREQUAL "")
    return()
  endif()
  set(flags -fsanitize=${GRADLAB_SANITIZE} -fno-omit-frame-pointer)
  if(GRADLAB_SANITIZE MATCHES "undefined")
    list(APPEND flags -fno-sanitize-recover=undefined)
  endif()
  target_compile_options(${target} PRIVATE ${flags})
  target_link_options(${target} PRIVATE ${flags})
endfunction()

# GRADLAB_FUZZ (clang only): builds tests/fuzz, and compiles the engine with libFuzzer's
# coverage counters (-fsanitize=fuzzer-no-link) so the fuzzer sees which branches a script took.
# The other executables link the counters' hooks from the sanitizer runtime and ignore them.
option(GRADLAB_FUZZ "Build the libFuzzer targets (clang, with GRADLAB_SANITIZE=address,undefined)" OFF)

function(gradlab_fuzz_coverage target)
  if(GRADLAB_FUZZ)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()
