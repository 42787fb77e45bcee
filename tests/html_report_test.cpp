// The HTML report (docs/sweep.md, "HTML report"): `omnilink sweep --html` and `omnilink report`
// write the same pages; every string from a trace, spec or store reaches them as text, never as
// markup; and Debian's headless Chromium opens them from disk with no console message, every
// element the report promises, and a screenshot saved for a person to look at. The browser cases
// are SKIPPED without Chromium (scripts/setup installs it).
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>

#include "campaign/run_plan.hpp"
#include "store/store.hpp"
#include "support/campaign_support.hpp"
#include "support/trace_builder.hpp"
#include "checkers/validate.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using Catch::Matchers::Contains;
using nlohmann::json;
using testing::ScratchDir;
using testing::TraceBuilder;
namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), {}};
}

// What Chromium made of a page: the DOM it parsed (serialised again), every console message it
// logged, and a screenshot.
struct BrowserView {
  std::string dom;
  std::vector<std::string> console;  // "message", source: URL (line)
  fs::path screenshot;
};

fs::path chromium_or_skip() {
  const ToolLocation chromium = find_chromium();
  if (!chromium.found()) testing::skip_test("chromium not found (scripts/setup installs Debian's chromium; see `omnilink doctor`)");
  return *chromium.path;
}

// Opens `page` from disk in headless Chromium twice: once dumping the DOM with console messages
// logged (Chromium logs each at INFO as `CONSOLE:<line>] "<message>", source: ...`), once taking a
// screenshot into `screenshot`.
BrowserView open_in_chromium(const fs::path& chromium, const fs::path& page, const fs::path& profile, const fs::path& screenshot) {
  const std::vector<std::string> common{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                        "--no-first-run", "--user-data-dir=" + profile.string()};
  ProcessOptions options;
  options.timeout = std::chrono::seconds(120);
  const std::string url = "file://" + fs::absolute(page).string();

  std::vector<std::string> dump = common;
  dump.insert(dump.end(), {"--enable-logging=stderr", "--v=1", "--dump-dom", url});
  const ProcessResult dumped = run_process(chromium, dump, options);
  INFO(dumped.describe() << "\n" << dumped.err.substr(0, 4000));
  REQUIRE(dumped.ok());
  BrowserView view;
  view.dom = dumped.out;
  static const std::regex console_line(R"(:CONSOLE(?::|\()\d+\)?\] (.*))");
  std::istringstream lines(dumped.err);
  for (std::string line; std::getline(lines, line);)
    if (std::smatch m; std::regex_search(line, m, console_line)) view.console.push_back(m[1]);

  std::vector<std::string> shot = common;
  shot.insert(shot.end(), {"--window-size=1280,1600", "--screenshot=" + screenshot.string(), url});
  const ProcessResult shot_result = run_process(chromium, shot, options);
  INFO(shot_result.describe() << "\n" << shot_result.err.substr(0, 4000));
  REQUIRE(shot_result.ok());
  view.screenshot = screenshot;
  return view;
}

// A screenshot is a PNG Chromium drew: its signature, and more than a blank page's few bytes.
void check_screenshot(const fs::path& png) {
  REQUIRE(fs::exists(png));
  const std::string bytes = read_text(png);
  CHECK(bytes.starts_with("\x89PNG\r\n\x1a\n"));
  CHECK(bytes.size() > 10'000);
}

// Where screenshots are kept for a person to look at after the run (the build tree).
fs::path screenshot_dir() {
  const fs::path dir = fs::path(OMNILINK_TEST_OUTPUT_DIR) / "html_report_screenshots";
  fs::create_directories(dir);
  return dir;
}

// The elements a page must have: id="..." attributes as Chromium parsed them.
void check_elements(const std::string& dom, const std::vector<std::string>& ids) {
  for (const auto& id : ids) {
    INFO("element id " << id);
    CHECK_THAT(dom, Contains("id=\"" + id + "\""));
  }
}

// The signature pages a report directory holds.
std::vector<fs::path> signature_pages(const fs::path& dir) {
  std::vector<fs::path> pages;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().starts_with("signature-")) pages.push_back(entry.path());
  std::sort(pages.begin(), pages.end());
  return pages;
}

// A store with one campaign whose one failing run logged strings that are markup: a queue that
// dequeued the second element first. The target's name carries markup too.
constexpr const char* kScript = "<script>alert('x')</script>";
constexpr const char* kQuoted = "a & \"b\" <i>";
constexpr const char* kTarget = "queue\"<b>&amp;";

fs::path hostile_store(const ScratchDir& dir) {
  const fs::path store_dir = dir / "store";
  auto store = store::Store::open(store_dir);
  const std::string campaign_id = store.create_campaign(store::CampaignKind::campaign, "hostile", (dir / "hostile.json").string(), "{}");
  store::RunRecord run;
  run.campaign = campaign_id;
  run.id = "r1";
  run.target = kTarget;
  run.threads = 2;
  run.ops = 3;
  run.number = 1;
  run.status = store::RunStatus::ok;
  run.rr_mode = store::RecordingMode::off;
  run.dir = store::run_directory(store_dir, campaign_id, run.id).string();
  run.started_ms = store::now_ms();
  run.finished_ms = run.started_ms;

  using F = TraceBuilder;
  TraceBuilder b(2);
  b.op(0, "Enqueue", 1, 2, F::fields("elem", std::string(kScript))).op(0, "Enqueue", 3, 4, F::fields("elem", std::string(kQuoted)));
  b.op(1, "Dequeue", 5, 6, F::fields("elem", std::string(kQuoted), "ok", true));
  b.write(run.dir);

  checkers::ValidateOptions o;
  o.run_dir = run.dir;
  o.spec = fs::path(OMNILINK_SOURCE_DIR) / "tla" / "specs" / "LinearizableQueue.tla";
  o.checker = checkers::Checker::native;
  o.confirm_failures = false;
  const auto result = checkers::validate_run(o);
  INFO(result.summary());
  REQUIRE(result.verdict == Verdict::fail);

  store.add_runs({run});
  store::ValidationRecord v;
  v.verdict = result.verdict;
  v.spec = o.spec.string();
  v.operations = result.operations;
  v.created_ms = store::now_ms();
  store.add_validation(campaign_id, run.id, v);
  store.set_campaign_status(campaign_id, store::CampaignStatus::finished);
  return store_dir;
}

}  // namespace

// The sweeps below stop at their first failure. The injected bug fails about half its runs alone
// and far fewer with another sweep on the same two cores (all of 30 passed once under ctest -j2),
// so they may run 100.
TEST_CASE("a sweep's HTML report and `omnilink report` write the same pages: campaigns, signatures, the frontier timeline") {
  ScratchDir dir;
  std::ofstream(dir / "sweep.json") << testing::stack_sweep().dump(2);
  const ProcessResult swept = testing::omnilink_cli({"sweep", (dir / "sweep.json").string(), "--store", (dir / "store").string(), "--plain",
                                                     "--max-runs", "100", "--max-failures", "1", "--html", (dir / "sweep-html").string()});
  INFO(swept.describe() << "\n" << swept.out << swept.err);
  REQUIRE(swept.exit_code == 1);  // the planted bug is new

  const ProcessResult reported = testing::omnilink_cli({"report", "nightly", "--store", (dir / "store").string(), "--html", (dir / "report-html").string()});
  INFO(reported.describe() << "\n" << reported.out << reported.err);
  REQUIRE(reported.exit_code == 0);
  CHECK_THAT(reported.out, Contains("signature page(s) for 'nightly'"));

  const auto pages = signature_pages(dir / "sweep-html");
  REQUIRE(pages.size() == 1);  // one bug, one signature
  REQUIRE(signature_pages(dir / "report-html").size() == 1);
  CHECK(read_text(dir / "sweep-html" / "index.html") == read_text(dir / "report-html" / "index.html"));
  CHECK(read_text(pages[0]) == read_text(dir / "report-html" / pages[0].filename()));

  const std::string index = read_text(dir / "sweep-html" / "index.html");
  CHECK_THAT(index, Contains("<code>nightly-1</code>"));
  CHECK_THAT(index, Contains("href=\"" + pages[0].filename().string() + "\""));
  CHECK_THAT(index, Contains("class=\"status-new\">new"));
  // Paths are relative to the store: no page names the scratch directory.
  CHECK_THAT(index, !Contains(dir.path().string()));

  const std::string page = read_text(pages[0]);
  CHECK_THAT(page, !Contains(dir.path().string()));
  CHECK_THAT(page, Contains("not recorded (rr off)"));  // how to get a replayable failure instead
  CHECK_THAT(page, Contains("class=\"bar refused"));  // the operation the spec refused, drawn
  CHECK_THAT(page, Contains("class=\"bar linearized"));
  CHECK_THAT(page, Contains("id=\"refusal\""));
  CHECK_THAT(page, Contains("id=\"symptom-table\""));
  CHECK_THAT(page, Contains("Pop("));
  // The failing core, as the sweep's validation explained it: drawn, listed, and why it fails.
  CHECK_THAT(page, Contains("id=\"core\""));
  CHECK_THAT(page, Contains("Failing core: "));
  CHECK_THAT(page, Contains("id=\"core-operations\""));
  CHECK_THAT(page, Contains("id=\"core-refusal\""));
  CHECK_THAT(page, Contains("No interleaving: "));  // rr off: why there is none
  // No page loads or runs anything.
  for (const std::string& html : {index, page}) {
    CHECK_THAT(html, !Contains("<script"));
    CHECK_THAT(html, !Contains("src="));
    CHECK_THAT(html, !Contains("<link"));
  }

  // `omnilink report` of an unknown campaign is a usage error naming it.
  const ProcessResult unknown = testing::omnilink_cli({"report", "nope", "--store", (dir / "store").string(), "--html", (dir / "x").string()});
  CHECK(unknown.exit_code == 3);
  CHECK_THAT(unknown.err, Contains("'nope'"));
}

TEST_CASE("strings from a trace and a store that are markup render as text") {
  ScratchDir dir;
  const fs::path store = hostile_store(dir);
  const ProcessResult reported = testing::omnilink_cli({"report", "hostile", "--store", store.string(), "--html", (dir / "html").string()});
  INFO(reported.describe() << "\n" << reported.out << reported.err);
  REQUIRE(reported.exit_code == 0);
  const auto pages = signature_pages(dir / "html");
  REQUIRE(pages.size() == 1);
  for (const fs::path& file : {dir / "html" / "index.html", pages[0]}) {
    const std::string html = read_text(file);
    INFO(file.string());
    CHECK_THAT(html, !Contains("<script"));
    CHECK_THAT(html, !Contains("<i>"));
    CHECK_THAT(html, !Contains("<b>"));
    CHECK_THAT(html, Contains("queue&quot;&lt;b&gt;&amp;amp;"));  // the target, as text
  }
  const std::string page = read_text(pages[0]);
  // The values, in the operations' calls and the spec state, as TLA+ strings made text.
  CHECK_THAT(page, Contains("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;"));
  CHECK_THAT(page, Contains("a &amp; \\&quot;b\\&quot; &lt;i&gt;"));
  // Thread 0's two enqueues, linearized before the refused dequeue, are drawn beside it; the spec
  // is named by its file, not by a path of the machine that validated it.
  CHECK_THAT(page, Contains("id=\"op-T0.0\""));
  CHECK_THAT(page, Contains("id=\"op-T0.1\""));
  CHECK_THAT(page, Contains("<code>LinearizableQueue.tla:"));
  CHECK_THAT(page, !Contains(OMNILINK_SOURCE_DIR));
}

TEST_CASE("Chromium opens the report pages from disk with no console message and every element", "[browser]") {
  const fs::path chromium = chromium_or_skip();
  ScratchDir dir;
  std::ofstream(dir / "sweep.json") << testing::stack_sweep().dump(2);
  const ProcessResult swept = testing::omnilink_cli({"sweep", (dir / "sweep.json").string(), "--store", (dir / "store").string(), "--plain",
                                                     "--max-runs", "100", "--max-failures", "1", "--html", (dir / "html").string()});
  INFO(swept.describe() << "\n" << swept.out << swept.err);
  REQUIRE(swept.exit_code == 1);
  const auto pages = signature_pages(dir / "html");
  REQUIRE(pages.size() == 1);

  const BrowserView index = open_in_chromium(chromium, dir / "html" / "index.html", dir / "profile", screenshot_dir() / "sweep-index.png");
  CHECK(index.console == std::vector<std::string>{});
  check_elements(index.dom, {"over-time", "campaigns", "signature-table"});
  CHECK_THAT(index.dom, Contains("class=\"over-time\""));
  check_screenshot(index.screenshot);

  const BrowserView page = open_in_chromium(chromium, pages[0], dir / "profile", screenshot_dir() / "sweep-signature.png");
  CHECK(page.console == std::vector<std::string>{});
  check_elements(page.dom, {"title", "facts", "symptom-table", "evidence-runs", "core", "core-operations", "core-refusal", "frontier", "refusal",
                            "frontier-operations", "spec-state"});
  CHECK_THAT(page.dom, Contains("class=\"timeline\""));
  CHECK_THAT(page.dom, Contains("class=\"bar refused"));
  check_screenshot(page.screenshot);
}

TEST_CASE("Chromium shows markup from a trace as text: no element is made of it", "[browser]") {
  const fs::path chromium = chromium_or_skip();
  ScratchDir dir;
  const fs::path store = hostile_store(dir);
  const ProcessResult reported = testing::omnilink_cli({"report", "hostile", "--store", store.string(), "--html", (dir / "html").string()});
  REQUIRE(reported.exit_code == 0);
  const auto pages = signature_pages(dir / "html");
  REQUIRE(pages.size() == 1);
  const BrowserView page = open_in_chromium(chromium, pages[0], dir / "profile", screenshot_dir() / "hostile-signature.png");
  CHECK(page.console == std::vector<std::string>{});
  // Chromium serialises a text node's < as &lt;: an element made of the value would appear as <script>.
  CHECK_THAT(page.dom, !Contains("<script"));
  CHECK_THAT(page.dom, !Contains("<i>"));
  CHECK_THAT(page.dom, Contains("&lt;script&gt;alert('x')&lt;/script&gt;"));
  check_elements(page.dom, {"frontier", "refusal", "spec-state"});
  check_screenshot(page.screenshot);
}

TEST_CASE("the browser check itself sees console errors and elements made of markup", "[browser]") {
  // A control: the same check on a page that logs to the console and injects an element must fail,
  // or a Chromium that logs differently would let every report pass unchecked.
  const fs::path chromium = chromium_or_skip();
  ScratchDir dir;
  std::ofstream(dir / "bad.html") << "<!DOCTYPE html><html><body><p id=\"x\">text</p><i>injected</i>"
                                     "<script>console.error('boom'); missing_function();</script></body></html>\n";
  const BrowserView bad = open_in_chromium(chromium, dir / "bad.html", dir / "profile", dir / "bad.png");
  REQUIRE(bad.console.size() == 2);
  CHECK_THAT(bad.console[0], Contains("boom"));
  CHECK_THAT(bad.console[1], Contains("missing_function"));
  CHECK_THAT(bad.dom, Contains("<i>injected</i>"));
  check_elements(bad.dom, {"x"});
}
