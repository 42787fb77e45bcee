// The arithmetic behind "fixed" (findings/signature_history): the Wilson interval of a measured
// failure rate, and how many clean runs rule a rate out; the statuses it gives. A unit test, no
// harness runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "findings/signature_history.hpp"

using namespace omnilink;

TEST_CASE("fixed: runs without a signature that its measured failure rate would not have passed") {
  // The Wilson interval of 0 successes in 10 at 95% is about 0 to 0.278.
  CHECK(findings::wilson_upper(0, 10, 0.95) == Approx(0.2775).margin(0.001));
  CHECK(findings::wilson_lower(5, 10, 0.95) == Approx(0.2366).margin(0.001));
  CHECK(findings::wilson_lower(0, 0, 0.95) == 0);
  // At a rate of one half, 5 clean runs leave a 1/32 chance: below 5%, so 5 runs.
  CHECK(findings::runs_to_rule_out(0.5, 0.95) == 5);
  CHECK(findings::runs_to_rule_out(0.01, 0.95) == 299);
  CHECK(findings::runs_to_rule_out(0, 0.95) == 0);
}

TEST_CASE("signature statuses are named once each, listed in report order, and news is new or regressed") {
  std::set<std::string> names;
  for (const auto status : findings::kSignatureStatuses) {
    CHECK(names.insert(findings::to_string(status)).second);
    CHECK(nlohmann::json(status) == findings::to_string(status));
  }
  CHECK(names == std::set<std::string>{"new", "regressed", "recurring", "quiet", "fixed"});
  // Reports sort by the enum: news first, what was not seen last.
  CHECK(std::is_sorted(findings::kSignatureStatuses.begin(), findings::kSignatureStatuses.end()));
  CHECK(findings::is_news(findings::SignatureStatus::new_));
  CHECK(findings::is_news(findings::SignatureStatus::regressed));
  CHECK_FALSE(findings::is_news(findings::SignatureStatus::recurring));
  CHECK(findings::seen_now(findings::SignatureStatus::recurring));
  CHECK_FALSE(findings::seen_now(findings::SignatureStatus::quiet));
  CHECK_FALSE(findings::seen_now(findings::SignatureStatus::fixed));
}
