# How long the build takes on a small machine (scripts/demo builds on 2 cores from a clean clone).
#
# Unity builds (CMake's CMAKE_UNITY_BUILD, batches of 8 sources): scripts/setup turns them on, as
# CMake asks, leaving the choice to whoever configures. Batched, the CLI11, nlohmann/json and Boost
# code that each source instantiates is emitted once per batch instead of once per file: the demo's
# build took 8 min 47 s of CPU instead of 21 min 18 s on the project's 2-core VM. In a batch every
# source is an included file, and GCC warns about a class whose member's type is in such a file's
# anonymous namespace (a pimpl's State holding a file-local type): true of the batch, not of the
# source, so the warning is off there (a build without batches still reports it).
if(CMAKE_UNITY_BUILD)
  target_compile_options(omnilink_warnings INTERFACE -Wno-subobject-linkage)
endif()

# Debug information of the tool's own code (the checker, the store, the CLI, the test programs) in
# RelWithDebInfo: line tables and function names only (-g1), as Chromium's default developer build
# has, so a backtrace or a profile still names file and line. Full -g (variable locations tracked
# through -O2 code) took twice the time of -g1 on a batch of the CLI's verb files, and 14% of the
# demo's whole build. The harness, the examples and the helpers that gdb, rr and addr2line read
# keep full -g: they are the code a user debugs.
set(OMNILINK_TOOL_DEBUG_INFO "-g1" CACHE STRING
    "Debug information flag for omnilink's own libraries, CLI and test programs in RelWithDebInfo (-g1, or -g for full)")
set(omnilink_tool_debug_info_option "$<$<CONFIG:RelWithDebInfo>:${OMNILINK_TOOL_DEBUG_INFO}>")

# Adds OMNILINK_TOOL_DEBUG_INFO to every target that compiles sources in DIRS (after -g, so it wins).
function(omnilink_tool_debug_info)
  foreach(dir ${ARGN})
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target ${targets})
      get_target_property(type ${target} TYPE)
      if(type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
        target_compile_options(${target} PRIVATE ${omnilink_tool_debug_info_option})
      endif()
    endforeach()
  endforeach()
endfunction()
