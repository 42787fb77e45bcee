# Where the omnilink executable's code lies (docs/performance.md, "Code layout").
#
# `omnilink validate` is started once per trace by scripts and sweeps, and on a small history most
# of its resident memory was its own text: the kernel maps an executable's pages 64 KiB around each
# fault (fault-around), and the few hundred KB of code a start and a small validation run were
# spread over 6 MB of text, so each function touched brought its own window in (4.6-5.7 MiB beside
# Porcupine's 2.1-3.6 MiB on histories under 1,000 operations). So the tool's own code is compiled
# one section per function, and the CLI is linked by lld with orchestrator/hot_path.order (written
# by scripts/hot-path-order from callgrind profiles) as its symbol ordering: those functions first,
# together, the rest as before.
#
# Without lld (or in a sanitizer build, whose runtime the order does not cover) the CLI is linked
# as before: the same code, only laid out differently. OMNILINK_CODE_LAYOUT says which, for the
# test that checks the layout (tests/code_layout_test.cmake).
include(CheckLinkerFlag)
set(OMNILINK_CODE_LAYOUT OFF)
if(OMNILINK_SANITIZE STREQUAL "" AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  check_linker_flag(CXX "-fuse-ld=lld" OMNILINK_HAS_LLD)
  if(OMNILINK_HAS_LLD)
    set(OMNILINK_CODE_LAYOUT ON)
  else()
    message(STATUS "omnilink CLI: linked without its code layout (no lld: install Debian's lld)")
  endif()
endif()

# Compiles every target that compiles sources in DIRS one section per function, so that the
# linker can place each function where the order says.
function(omnilink_function_sections)
  if(NOT OMNILINK_CODE_LAYOUT)
    return()
  endif()
  foreach(dir ${ARGN})
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target ${targets})
      get_target_property(type ${target} TYPE)
      if(type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
        target_compile_options(${target} PRIVATE -ffunction-sections)
      endif()
    endforeach()
  endforeach()
endfunction()

# Links TARGET by lld with ORDER_FILE as its symbol ordering (a name it no longer has is skipped),
# its code in a segment of its own that begins on a 64 KiB boundary: the ordered functions then
# fill whole fault-around windows from the first instead of starting part-way into one.
function(omnilink_order_functions target order_file)
  if(NOT OMNILINK_CODE_LAYOUT)
    return()
  endif()
  target_link_options(${target} PRIVATE -fuse-ld=lld "LINKER:--symbol-ordering-file=${order_file}" "LINKER:--no-warn-symbol-ordering"
                      "LINKER:-z,separate-code" "LINKER:-z,max-page-size=65536")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${order_file})
endfunction()
