#include "slurm/task_spec.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

namespace omnilink::slurm {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
constexpr const char* kFormat = "omnilink-slurm-task";
constexpr int kVersion = 2;
}  // namespace

fs::path slurm_dir(const fs::path& store, const std::string& campaign_id) { return store / campaign_id / "slurm"; }

fs::path delivered_shard(const fs::path& delivery_dir, std::uint32_t index) { return delivery_dir / ("shard-" + std::to_string(index)); }

void write_task_spec(const fs::path& file, const TaskSpec& spec) {
  const json out{{"format", kFormat},
                 {"version", kVersion},
                 {"verb", to_string(spec.kind)},
                 {"campaign", spec.campaign},
                 {"omnilink", spec.omnilink.string()},
                 {"arguments", spec.arguments},
                 {"shard_count", spec.shard_count},
                 {"delivery_dir", spec.delivery_dir.string()},
                 {"deadline_ms", spec.deadline_ms ? json(*spec.deadline_ms) : json(nullptr)}};
  const fs::path aside = file.string() + ".tmp";
  {
    std::ofstream f(aside, std::ios::trunc);
    f << out.dump(2) << "\n";
    if (!f.flush()) throw TaskSpecError("cannot write " + aside.string());
  }
  fs::rename(aside, file);
}

TaskSpec read_task_spec(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw TaskSpecError(file.string() + ": cannot be read");
  const json j = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) throw TaskSpecError(file.string() + ": not JSON");
  if (j.value("format", "") != kFormat) throw TaskSpecError(file.string() + ": \"format\" is not \"" + kFormat + "\"");
  if (j.value("version", 0) != kVersion)
    throw TaskSpecError(file.string() + ": version " + j.value("version", json()).dump() + ", this omnilink reads version " +
                        std::to_string(kVersion));
  const auto field = [&]<class T>(const char* name, T& into) {
    try {
      into = j.at(name).get<T>();
    } catch (const json::exception& e) {
      throw TaskSpecError(file.string() + ": \"" + name + "\": " + e.what());
    }
  };
  TaskSpec spec;
  std::string omnilink, delivery_dir;
  json deadline;
  std::string verb;
  field("verb", verb);
  field("campaign", spec.campaign);
  field("omnilink", omnilink);
  field("arguments", spec.arguments);
  field("shard_count", spec.shard_count);
  field("delivery_dir", delivery_dir);
  field("deadline_ms", deadline);
  spec.omnilink = omnilink;
  spec.delivery_dir = delivery_dir;
  const std::optional<store::CampaignKind> kind = store::parse_campaign_kind(verb);
  if (!kind) throw TaskSpecError(file.string() + ": \"verb\" is neither \"campaign\" nor \"sweep\"");
  spec.kind = *kind;
  if (spec.shard_count == 0) throw TaskSpecError(file.string() + ": \"shard_count\" is 0");
  if (spec.arguments.empty()) throw TaskSpecError(file.string() + ": \"arguments\" is empty (the campaign or sweep file comes first)");
  if (deadline.is_number_integer()) spec.deadline_ms = deadline.get<std::int64_t>();
  if (spec.sweep() != spec.deadline_ms.has_value())
    throw TaskSpecError(file.string() + ": \"deadline_ms\" is a number for a sweep, and null for a campaign");
  if (!spec.omnilink.is_absolute() || !spec.delivery_dir.is_absolute())
    throw TaskSpecError(file.string() + ": \"omnilink\" and \"delivery_dir\" must be absolute paths");
  return spec;
}

}  // namespace omnilink::slurm
