#include "checkers/checker_options.hpp"

namespace omnilink::checkers {

std::optional<Checker> parse_checker(const std::string& name) {
  if (name == "native") return Checker::native;
  if (name == "tlc") return Checker::tlc;
  if (name == "auto") return Checker::automatic;
  if (name == "both") return Checker::both;
  return std::nullopt;
}

std::string checker_name(Checker checker) {
  switch (checker) {
    case Checker::native: return "native";
    case Checker::tlc: return "tlc";
    case Checker::automatic: return "auto";
    case Checker::both: return "both";
  }
  return "?";
}

}  // namespace omnilink::checkers
