#include "campaign/spec_names.hpp"

#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "language/modules.hpp"

namespace omnilink::campaign {

std::vector<std::string> undefined_spec_names(const CampaignConfig& config) {
  std::vector<std::string> problems;
  // Targets often share a spec (a campaign's configurations of one system): each is read once.
  std::map<std::pair<std::filesystem::path, std::optional<std::filesystem::path>>, std::unique_ptr<language::LoadedSpec>> read;
  for (const TargetConfig& t : config.targets) {
    auto [it, first] = read.try_emplace({t.spec, t.mc});
    if (first) {
      try {
        it->second = language::LoadedSpec::load(t.spec, t.mc);
      } catch (const std::exception&) {
      }
    }
    if (it->second == nullptr) continue;
    language::LoadedSpec* spec = it->second.get();
    // Whether the name is defined, whatever the embedded checker makes of its body.
    auto defined = [](auto&& find) {
      try {
        return find() != nullptr;
      } catch (const std::exception&) {
        return true;
      }
    };
    const std::string where = " is not defined in " + t.spec.filename().string();
    if (!defined([&] { return spec->spec_definition_structure(t.init); }))
      problems.push_back("target '" + t.name + "': init '" + t.init + "'" + where);
    if (!defined([&] { return spec->spec_definition_structure(t.next); }))
      problems.push_back("target '" + t.name + "': next '" + t.next + "'" + where);
    if (t.view && !spec->mc_defines(*t.view) && !defined([&] { return spec->mc_definition(*t.view); }))
      problems.push_back("target '" + t.name + "': view '" + *t.view + "' is not defined in " +
                         (t.mc ? t.mc->filename().string() : std::string("its MC module (it has none)")));
  }
  return problems;
}

}  // namespace omnilink::campaign
