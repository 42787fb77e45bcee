# A TLA+ module's text as a C++ char array, for the -P scripts that embed modules in the executable
# (language/embed_library.cmake, checkers/embed_module.cmake): one declaration, the same for both.
#
# The array is in a section of its own (omnilink_tla_texts), not a string literal: literals share
# the executable's pool of strings with every message a run prints, and 55 KB of module texts that
# a validation rarely reads would stand between them, one more 64 KiB window of resident memory for
# every small run (docs/performance.md, "Code layout").

# Sets `out_var` to the declaration of `name`, a char array holding the text of the file `input`.
function(omnilink_tla_text_array name input out_var)
  file(READ "${input}" text)
  set(${out_var} "__attribute__((section(\"omnilink_tla_texts\"))) const char ${name}[] = R\"OMNILINK_TLA(${text})OMNILINK_TLA\";\n" PARENT_SCOPE)
endfunction()
