// The static HTML report (docs/sweep.md, "HTML report") of the campaigns of one name in a store: a
// sweep file's nights, or a campaign and its earlier runs of the same file. index.html shows those
// campaigns over time (runs, failures, runs per hour) and the signature table; signature-<id>.html,
// one per signature, its evidence runs with their `omnilink replay` commands, the failing core of
// the first one explained (explain/: its timeline, why no order works, the interleaving and
// atomicity hints from its recording, the hints of all explained evidence runs ranked) and, for its
// first run, the timeline of the operations around the failure frontier, the refusal and the spec
// state there (for a crash: the frames where it struck). The pages open from disk with no server and load
// nothing; every string from a trace, spec, file or store is escaped (report/html.hpp); paths are
// relative to the store. Which signatures and statuses to show is the caller's
// (findings::signature_history); this module only reads the store and the runs' files.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "store/store.hpp"
#include "findings/signature_history.hpp"

namespace omnilink::report {

/// Writes OUT/index.html and a page per signature into `out` (created if needed; other files in it
/// are left alone) and returns the files written, index first. Throws std::runtime_error naming a
/// file it cannot write.
std::vector<std::filesystem::path> write_html_report(store::Store& store, const std::string& name,
                                                     const std::vector<findings::SignatureHistory>& signatures,
                                                     const std::filesystem::path& out);

/// The page file of a signature: "signature-<id>.html" (ids are hex digits, checked).
std::string signature_page_name(const std::string& signature_id);

}  // namespace omnilink::report
