# Helpers of the example checks (scheduling_test.cmake, scale_out_test.cmake).

# check_known_options(FILE VERB HELP OPTIONS...): each option is one `omnilink VERB` accepts, as its
# --help text (HELP) lists them.
function(check_known_options file verb help)
  foreach(option IN LISTS ARGN)
    string(FIND "${help}" "${option}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${file}: `omnilink ${verb}` has no option ${option}")
    endif()
  endforeach()
endfunction()

# check_cli_options(FILE VERB HELP): every --option on an `omnilink VERB` command line of FILE
# (continued over backslash-newlines) is one the verb accepts.
function(check_cli_options file verb help)
  file(READ "${file}" text)
  # A line's characters other than a backslash ending it, then each continuation line likewise
  # (CMake's regex does not backtrack a greedy [^\n]* to find the backslash).
  string(REGEX MATCHALL "omnilink\"? ${verb}([^\\\\\n]|\\\\[^\n])*(\\\\\n([^\\\\\n]|\\\\[^\n])*)*" lines "${text}")
  if(NOT lines)
    message(FATAL_ERROR "${file}: no `omnilink ${verb}` command line")
  endif()
  foreach(line IN LISTS lines)
    string(REGEX MATCHALL "--[a-z-]+" options "${line}")
    check_known_options("${file}" "${verb}" "${help}" ${options})
  endforeach()
endfunction()

# The --help text of `omnilink VERB`, into OUT.
function(omnilink_help verb out)
  execute_process(COMMAND "${OMNILINK}" ${verb} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "omnilink ${verb} --help failed")
  endif()
  set(${out} "${help}" PARENT_SCOPE)
endfunction()

# PYTHON3_YAML: Debian's python3 (python3-yaml, from scripts/setup, is installed for it) or the
# first on PATH, if it imports yaml; false otherwise.
function(find_python3_yaml)
  find_program(PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
  find_program(PYTHON3 python3)
  set(PYTHON3_YAML FALSE PARENT_SCOPE)
  if(PYTHON3)
    execute_process(COMMAND "${PYTHON3}" -c "import yaml" RESULT_VARIABLE no_yaml OUTPUT_QUIET ERROR_QUIET)
    if(no_yaml EQUAL 0)
      set(PYTHON3_YAML "${PYTHON3}" PARENT_SCOPE)
    endif()
  endif()
endfunction()
