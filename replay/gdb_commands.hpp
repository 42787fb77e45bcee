// The gdb command file that stops a replay at one operation (docs/replay.md): a breakpoint on the
// harness's op-start hook (harness/include/omnilink/replay_hook.hpp), conditional on the thread
// and the start timestamp the hook receives (the record's `hs`, else its `s`), whose commands print
// the operation's identity, its logged call and a backtrace. This module owns that text; the files
// in RUN/replay/ and `omnilink replay --print` are made here.
#pragma once

#include <string>

#include "trace/reader.hpp"

namespace omnilink::replay {

// "header->thread == T && header->start == S"
std::string breakpoint_condition(const trace::Operation& op);

// The whole command file. It only sets the breakpoint up (rr sources -x files before gdb is attached
// to the replay, so a `continue` in the file would fail: see ../shared/notes); the caller adds
// `-ex continue`. `label` ("core stop 2 of 5"), when given, is printed at the stop too.
std::string stop_at_operation(const trace::Operation& op, const std::string& label = "");

// `text` as the body of a gdb printf format string: quotes and backslashes escaped, % doubled,
// bytes outside printable ASCII as octal escapes.
std::string gdb_string_body(const std::string& text);

}  // namespace omnilink::replay
