#include "history/run_integrity.hpp"

#include <charconv>

#include "omnilink/trace_schema.hpp"

namespace omnilink::history {
namespace schema = omnilink::schema;

std::optional<std::uint32_t> thread_index_of(const std::filesystem::path& file) {
  const std::string name = file.filename().string();
  const std::string_view digits(name.data() + schema::kThreadFilePrefix.size(),
                                name.size() - schema::kThreadFilePrefix.size() - schema::kThreadFileSuffix.size());
  std::uint32_t index = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return index;
}

std::optional<std::string> check_run_integrity(const trace::RunDir& run, const std::vector<ThreadFileSummary>& files) {
  if (!run.meta) return "cannot check the run against its meta.json: " + run.meta_error;
  const trace::RunMeta& meta = *run.meta;
  const std::string meta_file = (run.root / schema::kMetaFile).string();
  const auto trace_version = meta.json.find("trace_version");
  if (trace_version == meta.json.end() || !trace_version->is_number_unsigned())
    return meta_file + ": no trace_version (a non-negative integer)";
  if (files.size() != meta.threads)
    return meta_file + " says " + std::to_string(meta.threads) + " thread(s), " + (run.root / schema::kTraceDir).string() +
           " has " + std::to_string(files.size()) + " thread file(s)";
  // Clean finishes are the harness's own: every thread wrote its end record before meta.json said so.
  const bool finished = trace::finished_by_harness(meta.exit_status);
  for (std::size_t position = 0; position < files.size(); ++position) {
    const ThreadFileSummary& f = files[position];
    const std::string file = f.file.string();
    const auto index = thread_index_of(f.file);
    if (!index) return file + ": not a thread file name (thread-NNNN.msgpack)";
    // Files sort by name: thread-0000 ... thread-(N-1), each once ("thread-01" beside "thread-0001" is not).
    if (*index != position)
      return file + ": thread " + std::to_string(*index) + " where thread " + std::to_string(position) + " was expected: " + meta_file +
             " says the run had threads 0 to " + std::to_string(meta.threads - 1) + ", one file each";
    if (f.header) {
      if (f.header->thread != *index)
        return file + ": its header says thread " + std::to_string(f.header->thread) + ", its name thread " + std::to_string(*index) +
               " (a file from another run?)";
      if (f.header->clock != meta.clock)
        return file + ": clock '" + f.header->clock + "', but " + meta_file + " says '" + meta.clock + "' (a file from another run?)";
      if (f.header->version != trace_version->get<std::uint64_t>())
        return file + ": trace format version " + std::to_string(f.header->version) + ", but " + meta_file + " says " +
               std::to_string(trace_version->get<std::uint64_t>());
    }
    const bool cut_short = f.error && f.error->cut_short;
    if (finished && (cut_short || f.has_pending))
      return file + ": " + (cut_short ? f.error->describe() : std::string("has a pending record")) + ", but " + meta_file +
             " says the run ended '" + trace::to_string(meta.exit_status) + "' (every thread closed its file): the run directory is damaged";
  }
  return std::nullopt;
}

}  // namespace omnilink::history
