# How long the build takes on a small machine (the demo builds on 2 cores from a clean clone).
#
# Unity builds: each target's sources are compiled in batches of 8 (CMake's UNITY_BUILD), because a
# verb file's time is not its own code but the CLI11, nlohmann/json and Boost code it instantiates
# and emits, once per file. Batched, that code is emitted once per batch: the demo's build takes 2.4
# times less CPU. A developer who rebuilds one file at a time can configure with
# -DCMAKE_UNITY_BUILD=OFF; the sources compile either way (CI builds them batched).
if(NOT DEFINED CMAKE_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
endif()
if(CMAKE_UNITY_BUILD)
  # In a batch each source is an included file, and GCC then warns about a class whose member's type
  # is in that file's anonymous namespace (a pimpl's State holding a file-local type): true of the
  # batch, not a bug of the source.
  target_compile_options(omnilink_warnings INTERFACE -Wno-subobject-linkage)
endif()

# Debug information of the tool's own code (the checker, the store, the CLI) in RelWithDebInfo:
# line tables and function names only (-g1), as Chromium's default developer build has, so a
# backtrace or a profile still names file and line. Full -g (variable locations tracked through
# -O2 code) doubles the time of a unity batch of verb files. The harness, the examples and the test
# programs that gdb and rr replay stop in keep full -g: they are the code a user debugs.
set(OMNILINK_TOOL_DEBUG_INFO "-g1" CACHE STRING
    "Debug information flag for omnilink's own libraries, CLI and test executables in RelWithDebInfo (-g1, or -g for full)")
set(omnilink_tool_debug_info_option "$<$<CONFIG:RelWithDebInfo>:${OMNILINK_TOOL_DEBUG_INFO}>")

# Adds OMNILINK_TOOL_DEBUG_INFO to every compiled target defined in DIRS (after -g, so it wins).
function(omnilink_tool_debug_info)
  foreach(dir ${ARGN})
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target ${targets})
      get_target_property(type ${target} TYPE)
      if(NOT type STREQUAL "INTERFACE_LIBRARY")
        target_compile_options(${target} PRIVATE ${omnilink_tool_debug_info_option})
      endif()
    endforeach()
  endforeach()
endfunction()
