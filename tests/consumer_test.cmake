# Installs omnilink from the build tree into a scratch prefix, then configures, builds and runs the
# out-of-tree consumer in tests/consumer against it with find_package(OmniLink).
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
message(STATUS "find_package(OmniLink) consumer built and ran")
