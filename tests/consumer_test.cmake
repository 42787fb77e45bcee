# Installs omnilink from the build tree into a scratch prefix, then configures, builds and runs the
# out-of-tree consumer in tests/consumer against it with find_package(OmniLink), and builds and runs
# it again with the plain compiler command docs/harness.md gives.
# Inputs: BUILD_DIR, SOURCE_DIR, WORK_DIR, GENERATOR.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

step(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
step(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/consumer" -B "${WORK_DIR}/build" -G "${GENERATOR}"
     "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
step(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
step("${WORK_DIR}/build/consumer_workload" --threads 2 --ops 100 --quiet --out "${WORK_DIR}/run")
foreach(f meta.json trace/thread-0000.msgpack trace/thread-0001.msgpack)
  if(NOT EXISTS "${WORK_DIR}/run/${f}")
    message(FATAL_ERROR "the consumer's run did not write ${f}")
  endif()
endforeach()
# The command docs/harness.md gives for a build without CMake (without -static: a toolchain that
# cannot link statically, Nix's, builds the rest of the suite too).
find_program(CXX NAMES c++ g++ clang++ REQUIRED)
step(${CXX} -std=c++20 -O2 -g -pthread -I "${WORK_DIR}/prefix/include" -DMSGPACK_DEFAULT_API_VERSION=3
     "${SOURCE_DIR}/tests/consumer/main.cpp" -o "${WORK_DIR}/plain_workload")
step("${WORK_DIR}/plain_workload" --threads 2 --ops 100 --quiet --out "${WORK_DIR}/plain_run")
if(NOT EXISTS "${WORK_DIR}/plain_run/trace/thread-0001.msgpack")
  message(FATAL_ERROR "the consumer built with the plain compiler command did not write its trace")
endif()
message(STATUS "find_package(OmniLink) consumer built and ran, and so did the plain compiler command's")
