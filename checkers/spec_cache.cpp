#include "checkers/spec_cache.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "language/syntax.hpp"
#include "history/problem.hpp"

namespace omnilink::checkers {
namespace fs = std::filesystem;

bool ReadSpec::current() const {
  std::error_code ec;
  return std::all_of(sources.begin(), sources.end(), [&](const auto& s) { return fs::last_write_time(s.first, ec) == s.second && !ec; });
}

ReadSpec& read_spec(const ValidateOptions& options) {
  thread_local std::map<std::string, ReadSpec> cache;
  const std::string key = fs::absolute(options.spec).string() + "\n" + (options.mc ? fs::absolute(*options.mc).string() : "") + "\n" + options.next;
  if (auto it = cache.find(key); it != cache.end() && it->second.current()) return it->second;
  cache.erase(key);
  ReadSpec read;
  try {
    read.loaded = language::LoadedSpec::load(options.spec, options.mc);
    read.interface = language::spec_interface(*read.loaded, options.next);
  } catch (const language::SpecError& e) {  // a syntax error too
    throw history::ValidationError(std::string("the spec is not valid TLA+: ") + e.what());
  } catch (const language::FragmentError& e) {
    throw history::ValidationError(std::string("omnilink cannot read the spec's operations: ") + e.what());
  }
  for (const fs::path& file : read.loaded->source_files()) {
    std::error_code ec;
    read.sources.emplace_back(file, fs::last_write_time(file, ec));
  }
  return cache.emplace(key, std::move(read)).first->second;
}

}  // namespace omnilink::checkers
