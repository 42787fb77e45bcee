// Histories from elsewhere: the plain JSON-lines history format (docs/history-format.md), one
// operation per line, for histories a Jepsen test, a Go test or a log produced, and the format
// omnilink writes a failing core in (explain/failing_core.hpp). Its one reader and one writer. Read into the same
// History a run directory gives, so both checkers take it as they take a run. Errors name the
// file and line; nothing is validated from a file that has one.
#pragma once

#include <filesystem>

#include "history/history.hpp"

namespace omnilink::history {

inline constexpr const char* kHistoryFormat = "omnilink-history";
// Version 2 added the outcome "optional", version 3 an optional operation's "group"; files of
// earlier versions read as they always did.
inline constexpr int kHistoryVersion = 3;

/// Whether `path` is a history file rather than a run directory (a regular file).
bool is_history_file(const std::filesystem::path& path);

/// Reads `path`. Processes become threads 0..N-1 in order of first appearance; failed operations
/// are left out (counted); the header's `rename` maps logged names onto spec actions. Throws
/// HistoryError ("FILE:LINE: what is wrong").
History read_history_file(const std::filesystem::path& path);

/// The history at `path`: a history file's (read_history_file), else a run directory's
/// (history.hpp's read_history). Throws as they do, and trace::RunDirError.
History read_run_or_history_file(const std::filesystem::path& path);

/// Writes `history` to `path` in this format (what read_history_file reads back as the same
/// operations): processes are the operations' thread numbers, lines by start. Failed-without-effect
/// operations are not in a History, so none is written. Throws HistoryError if it cannot write.
void write_history_file(const std::filesystem::path& path, const History& history);

}  // namespace omnilink::history
