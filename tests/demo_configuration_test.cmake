# The demo's build configuration (scripts/setup --demo in a fresh build tree): it configures
# without the tests' and the library examples' packages, and still has every target the demo
# builds. Run as: cmake -DSOURCE_DIR=... -DWORK_DIR=... -DGRAMMAR_DIR=... -DGENERATOR=... -P demo_configuration_test.cmake
set(build ${WORK_DIR}/demo-configuration)
file(REMOVE_RECURSE ${build})
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build} -G ${GENERATOR}
          -DOMNILINK_BUILD_TESTS=OFF -DOMNILINK_BUILD_LIBRARY_EXAMPLES=OFF -DOMNILINK_TLAPLUS_GRAMMAR_DIR=${GRAMMAR_DIR}
  RESULT_VARIABLE configured OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT configured EQUAL 0)
  message(FATAL_ERROR "the demo's configuration failed:\n${output}")
endif()
file(READ ${build}/CMakeCache.txt cache)
foreach(package Catch2 TBB concurrentqueue)
  if(cache MATCHES "${package}_DIR:PATH=")
    message(FATAL_ERROR "the demo's configuration looked for ${package}, which scripts/setup --demo does not install")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${build} --target help RESULT_VARIABLE listed OUTPUT_VARIABLE targets)
foreach(target omnilink locked-queue racy-queue)
  if(NOT targets MATCHES "(^|\n)${target}:")
    message(FATAL_ERROR "the demo's configuration has no target ${target}:\n${targets}")
  endif()
endforeach()
file(REMOVE_RECURSE ${build})
