# Checks the omnilink executable's code layout (cmake/OmniLinkCodeLayout.cmake): the functions of
# orchestrator/hot_path.order lie together, and the list still names the executable's functions.
# A build linked without the layout (no lld, a sanitizer build) prints SKIPPED.
#   -DOMNILINK=<the CLI> -DORDER=<hot_path.order> -DLAYOUT=ON|OFF -DNM=<nm>
if(NOT LAYOUT)
  message("SKIPPED: the CLI was linked without its code layout (lld not found, or a sanitizer build)")
  return()
endif()
if(NOT NM)
  message("SKIPPED: nm not found; the CLI's code layout is not checked")
  return()
endif()

file(STRINGS "${ORDER}" listed)
list(LENGTH listed listed_count)
if(listed_count LESS 500)
  message(FATAL_ERROR "${ORDER}: ${listed_count} functions; a start and a validation run more than a thousand (rerun scripts/hot-path-order)")
endif()
foreach(name IN LISTS listed)
  set("listed:${name}" 1)
endforeach()

execute_process(COMMAND "${NM}" -S --defined-only "${OMNILINK}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -S ${OMNILINK} failed (${rc})")
endif()
string(REPLACE "\n" ";" symbols "${symbols}")
# Over the listed functions the executable has: where they start and end, and their total size.
set(found 0)
set(bytes 0)
set(low "")
set(high 0)
foreach(line IN LISTS symbols)
  if(NOT line MATCHES "^([0-9a-f]+) ([0-9a-f]+) [tTW] (.+)$")
    continue()
  endif()
  if(NOT DEFINED "listed:${CMAKE_MATCH_3}" OR DEFINED "counted:${CMAKE_MATCH_3}")
    continue()
  endif()
  set("counted:${CMAKE_MATCH_3}" 1)  # a local symbol of two files counts once
  math(EXPR address "0x${CMAKE_MATCH_1}")
  math(EXPR size "0x${CMAKE_MATCH_2}")
  math(EXPR found "${found} + 1")
  math(EXPR bytes "${bytes} + ${size}")
  if(low STREQUAL "" OR address LESS low)
    set(low ${address})
  endif()
  math(EXPR end "${address} + ${size}")
  if(end GREATER high)
    set(high ${end})
  endif()
endforeach()

math(EXPR span "${high} - ${low}")
# The first of them starts a 64 KiB window (the code's own segment, aligned: OmniLinkCodeLayout.cmake).
math(EXPR offset_in_window "${low} % 65536")
if(NOT offset_in_window EQUAL 0)
  math(EXPR low_hex "${low}" OUTPUT_FORMAT HEXADECIMAL)
  message(FATAL_ERROR "the listed functions begin at ${low_hex}, ${offset_in_window} bytes into a 64 KiB window: the code's segment is not aligned")
endif()
math(EXPR percent_found "100 * ${found} / ${listed_count}")
message("${found} of ${listed_count} listed functions in the executable (${percent_found}%): ${bytes} bytes, over a span of ${span} bytes")
# A list gone stale lays out little: ask for it to be written again.
if(percent_found LESS 50)
  message(FATAL_ERROR "only ${percent_found}% of ${ORDER} names a function of the executable: rerun scripts/hot-path-order")
endif()
# Together: the span is their size, alignment (at most 64 bytes each) and what shares their input
# sections (the C library's and tree-sitter's objects hold several functions each: about 30% of
# the listed size), not the executable's 6 MB of text.
math(EXPR most "${bytes} * 3 / 2 + 64 * ${found}")
if(span GREATER most)
  message(FATAL_ERROR "the listed functions span ${span} bytes for ${bytes} of code: they are not laid out together")
endif()
