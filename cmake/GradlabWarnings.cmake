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
