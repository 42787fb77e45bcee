// The gdb command files of a replay (docs/replay.md). One stops at one operation: a breakpoint on
// the harness's op-start hook (harness/include/omnilink/replay_hook.hpp), conditional on the thread
// and the start timestamp the hook receives (the record's `hs`, else its `s`), whose commands print
// the operation's identity, its logged call and a backtrace. The other stops a crashed run where
// its signal struck. This module owns that text; the files in RUN/replay/ and `omnilink replay
// --print` are made here.
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

// The command file that stops a crashed run's replay where `signal_name` ("SIGSEGV") struck it:
// gdb stops there of itself (the harness's handler runs only after), and a stop-event hook prints
// "omnilink: stopped at signal SIGSEGV, where it ended the run" and a backtrace, as an operation
// stop does. The caller adds `-ex continue`.
std::string stop_at_signal(const std::string& signal_name);

// `text` as the body of a gdb printf format string: quotes and backslashes escaped, % doubled,
// bytes outside printable ASCII as octal escapes.
std::string gdb_string_body(const std::string& text);

}  // namespace omnilink::replay
