// Parsed modules kept on disk between processes. `omnilink validate` is started once per trace by
// sweeps and scripts, each time with the same spec, and on a small history parsing the spec's
// modules was a third of the process's time: the grammar's parse table is 4.5 MB of dense rows,
// and the first parse of a process pages most of it in. An entry holds one module text and its
// abstract syntax (ast.hpp), and is read back only by the exact build that wrote it.
// The format is docs/parse-cache.md; this file is its one reader and writer.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "language/ast.hpp"

namespace omnilink::language {

/// The version of an entry's layout (docs/parse-cache.md). An entry is only read by the build that
/// wrote it, whose layout is the same, so this is a check that a file is what it says, and a
/// number for the document.
inline constexpr int kParseCacheFormat = 3;

/// At most this many entries stay in a cache directory: past it, writing an entry removes the
/// oldest written. A spec has a few modules; this keeps every spec a user works on.
inline constexpr std::size_t kParseCacheMaxEntries = 512;

/// Where the cache lives unless a program says otherwise: $OMNILINK_CACHE_DIR/parse, else
/// $XDG_CACHE_HOME/omnilink/parse, else $HOME/.cache/omnilink/parse (the last two only when
/// absolute, as the XDG specification asks). Nullopt (no cache) when OMNILINK_CACHE_DIR is set
/// and empty, or when none of them gives a directory.
std::optional<std::filesystem::path> default_parse_cache_dir();

/// Turns the cache on for this process at `dir` (created, mode 0700, at the first write); nullopt
/// turns it off. Off until a program asks: the CLI turns it on at default_parse_cache_dir(). An
/// executable without a build ID (platform/build_id.hpp) keeps it off, since an entry could not
/// say which build wrote it.
void use_parse_cache(std::optional<std::filesystem::path> dir);

/// The directory in use, or nullopt when the cache is off.
std::optional<std::filesystem::path> parse_cache_dir();

/// The parse of `text` kept by an earlier process of this build, its positions pointing into
/// `file`; nullopt when the cache is off or holds no entry of this build for exactly this text.
/// An entry that does not read (cut short, of another layout) is a miss, never an error.
std::optional<Module> cached_parse(const std::string& file, const std::string& text);

/// Keeps `module`, the parse of `text`, for later processes, when the cache is on. Never throws:
/// a directory that cannot be written, a full disk or a module the layout cannot hold leaves the
/// cache as it was, and the next process parses again.
void keep_parse(const std::string& text, const Module& module);

}  // namespace omnilink::language
