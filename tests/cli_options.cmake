# check_cli_options(FILE VERB HELP): every --option on an `omnilink VERB` command line of FILE
# (continued over backslash-newlines) is one the verb accepts, as its --help text (HELP) lists them.
# Shared by the example checks (scheduling_test.cmake, scale_out_test.cmake).
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
    foreach(option IN LISTS options)
      string(FIND "${help}" "${option}" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "${file}: `omnilink ${verb}` has no option ${option}")
      endif()
    endforeach()
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
