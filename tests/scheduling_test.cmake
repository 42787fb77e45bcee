# Checks the scheduling examples in examples/scheduling/ against the tools that run them: the
# systemd units with systemd-analyze (the omnilink path and directories made real), the timer's
# calendar expression, the crontab line's five fields, the workflow's YAML, and every option the
# examples pass to `omnilink sweep` against the options it accepts. A missing tool is SKIPPED.
set(dir "${SOURCE_DIR}/examples/scheduling")
include("${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake")
omnilink_help(sweep help)
foreach(f omnilink-sweep.service crontab github-nightly-sweep.yml)
  check_cli_options("${dir}/${f}" sweep "${help}")
endforeach()

# crontab: minute, hour, day of month, month, day of week, then the command.
file(STRINGS "${dir}/crontab" entries REGEX "^[^#]")
foreach(entry IN LISTS entries)
  if(NOT entry MATCHES "^[0-9*/,-]+ [0-9*/,-]+ [0-9*/,-]+ [0-9*/,-]+ [0-9*/,-]+ [^ ]")
    message(FATAL_ERROR "crontab: not a schedule of five fields and a command: ${entry}")
  endif()
endforeach()

find_python3_yaml()
if(PYTHON3_YAML)
  execute_process(COMMAND "${PYTHON3_YAML}" -c "import sys, yaml; w = yaml.safe_load(open(sys.argv[1])); assert w['jobs']['sweep']['steps'], 'no steps'; assert w[True]['schedule'][0]['cron'], 'no schedule'"
                  "${dir}/github-nightly-sweep.yml" RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "github-nightly-sweep.yml: ${err}")
  endif()
else()
  message("SKIPPED: python3 with PyYAML not found; the workflow's YAML is not checked")
endif()

find_program(SYSTEMD_ANALYZE systemd-analyze)
if(NOT SYSTEMD_ANALYZE)
  message("SKIPPED: systemd-analyze not found; the systemd units are not checked")
  return()
endif()
file(STRINGS "${dir}/omnilink-sweep.timer" calendar REGEX "^OnCalendar=")
string(REPLACE "OnCalendar=" "" calendar "${calendar}")
execute_process(COMMAND "${SYSTEMD_ANALYZE}" calendar "${calendar}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "omnilink-sweep.timer: OnCalendar=${calendar}: ${err}")
endif()
# The units with their paths made real: %h/.local/bin/omnilink is the built omnilink, and
# %h/omnilink-nightly a scratch directory.
set(scratch "${WORK_DIR}/scheduling-units")
file(REMOVE_RECURSE "${scratch}")
file(MAKE_DIRECTORY "${scratch}/omnilink-nightly")
foreach(unit omnilink-sweep.service omnilink-sweep.timer)
  file(READ "${dir}/${unit}" text)
  string(REPLACE "%h/.local/bin/omnilink" "${OMNILINK}" text "${text}")
  string(REPLACE "%h/omnilink-nightly" "${scratch}/omnilink-nightly" text "${text}")
  file(WRITE "${scratch}/${unit}" "${text}")
endforeach()
execute_process(COMMAND "${SYSTEMD_ANALYZE}" verify --man=no "${scratch}/omnilink-sweep.timer" "${scratch}/omnilink-sweep.service"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "systemd-analyze verify: ${out}${err}")
endif()
