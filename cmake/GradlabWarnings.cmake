# Warnings are errors on every target: engine, ui, app and tests. Every target that gets the
# warnings also gets the sanitizers of GRADLAB_SANITIZE (GradlabSanitize.cmake).
include(GradlabSanitize)
# -Wno-restrict: GCC 12 reports std::string concatenations as overlapping memcpy (GCC bug
# 105329, a false positive). -Wno-missing-field-initializers: registry entries and builtin
# tables are designated initializers that leave defaulted fields out on purpose.
function(gradlab_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Werror -Wno-missing-field-initializers>
    $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
  gradlab_sanitize(${target})
endfunction()

# GRADLAB_UNITY_BUILD (top-level CMakeLists.txt): the target's sources compile in batches of 8.
# A batch file includes each .cpp, so GCC takes a class in one file's anonymous namespace for
# one declared in a header (-Wsubobject-linkage); it is not.
function(gradlab_unity_build target)
  if(GRADLAB_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
  endif()
endfunction()
