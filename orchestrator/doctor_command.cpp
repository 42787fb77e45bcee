#include "orchestrator/doctor_command.hpp"

#include "language/parse_cache.hpp"
#include "language/syntax.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "orchestrator/version.hpp"
#include "platform/build_id.hpp"
#include "platform/rr_probe.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"

namespace omnilink::cli {
namespace {

// Runs `exe args` and returns the first line it printed (stdout, else stderr).
std::string version_of(const std::filesystem::path& exe, const std::vector<std::string>& args) {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(30);
  ProcessResult r = run_process(exe, args, options);
  if (!r.started) return "(cannot run: " + r.start_error + ")";
  std::string line = summarize_output(r.out);
  return line.empty() ? summarize_output(r.err) : line;
}

// TLC has no version flag: it prints "TLC2 Version ..." first whenever it starts, then (with no
// spec given) complains and exits non-zero. A jar that prints no such line is not TLC.
std::string tlc_version(const std::filesystem::path& java, const std::filesystem::path& jar) {
  std::string line = version_of(java, {"-cp", jar.string(), "tlc2.TLC"});
  return line.starts_with("TLC2 Version") ? line : "(not TLC? it printed: " + line + ")";
}

struct Report {
  ToolLocation location;
  std::string version;
};

nlohmann::json to_json(const Report& r) {
  nlohmann::json j{{"tool", r.location.tool}, {"env_var", r.location.env_var}, {"found", r.location.found()}};
  if (r.location.found()) {
    j["path"] = r.location.path->string();
    j["source"] = r.location.source;
    j["version"] = r.version;
  } else {
    j["problem"] = r.location.explain_missing();
  }
  return j;
}

// Where parsed specs are kept between runs, or why they are not.
std::string parse_cache_line() {
  if (const auto dir = language::parse_cache_dir()) return dir->string();
  if (!platform::executable_build_id()) return "off (this executable has no build ID to key entries by)";
  const char* env = std::getenv("OMNILINK_CACHE_DIR");
  return env != nullptr && *env == '\0' ? "off (OMNILINK_CACHE_DIR is empty)" : "off (no OMNILINK_CACHE_DIR, XDG_CACHE_HOME or HOME)";
}

}  // namespace

void DoctorCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("doctor", "Report which external tools (gdb, java, TLC, rr, addr2line) omnilink can use");
}

void DoctorCommand::add_options() {
  sub_->add_flag("--json", json_, "Print the report as JSON");
  sub_->footer(
      "Environment variables:\n"
      "  OMNILINK_GDB       gdb executable\n"
      "  OMNILINK_JAVA      java executable (else $JAVA_HOME/bin/java, else PATH)\n"
      "  OMNILINK_TLC_JAR   tla2tools.jar (TLC)\n"
      "  OMNILINK_RR        rr executable (rr.soft for software counters on VMs)\n"
      "  OMNILINK_ADDR2LINE addr2line executable (binutils; names the frames of a crash)\n"
      "  OMNILINK_CHROMIUM  chromium executable (optional: the HTML report's browser test)\n"
      "  OMNILINK_TOOLS_DIR prefix of hand-built tools (default ~/.local/omnilink-tools:\n"
      "                     tla2tools.jar, rr/bin/rr)");
}

int DoctorCommand::run() {
  Report gdb{find_gdb(), ""};
  Report java{find_java(), ""};
  Report tlc{find_tlc_jar(), ""};
  Report rr{find_rr(), ""};
  Report addr2line{find_addr2line(), ""};
  Report chromium{find_chromium(), ""};  // optional: not part of `ok`
  if (gdb.location.found()) gdb.version = version_of(*gdb.location.path, {"--version"});
  if (addr2line.location.found()) addr2line.version = version_of(*addr2line.location.path, {"--version"});
  if (chromium.location.found()) chromium.version = version_of(*chromium.location.path, {"--version"});
  // Optional, and looked up on PATH only, as `campaign --executor slurm` does.
  const auto sbatch = find_on_path("sbatch");
  // (sbatch waits a minute for a SLURM_CONF that is not there: that case is told without it.)
  const char* slurm_conf = std::getenv("SLURM_CONF");
  const bool conf_missing = slurm_conf != nullptr && !std::filesystem::exists(slurm_conf);
  const std::string slurm_version = !sbatch        ? ""
                                    : conf_missing ? "SLURM_CONF names " + std::string(slurm_conf) + ", which does not exist"
                                                   : version_of(*sbatch, {"--version"});
  // sbatch reads the cluster's configuration before anything, --version included: without one
  // (SLURM_CONF, /etc/slurm/slurm.conf, DNS SRV records) it says why instead.
  const bool slurm_usable = slurm_version.starts_with("slurm");
  if (java.location.found()) java.version = version_of(*java.location.path, {"-version"});
  if (tlc.location.found()) {
    tlc.version = java.location.found() ? tlc_version(*java.location.path, *tlc.location.path)
                                        : "(unknown: no java to run it)";
  }
  std::optional<RrCapability> rr_cap;
  if (rr.location.found()) {
    rr_cap = probe_rr(*rr.location.path);
    rr.version = rr_cap->version;
  }

  const bool tlc_ok = tlc.location.found() && tlc.version.starts_with("TLC2 Version");
  const bool all_ok = gdb.location.found() && java.location.found() && tlc_ok && rr_cap && rr_cap->can_record() &&
                      rr_cap->replays && addr2line.location.found();
  if (json_) {
    nlohmann::json j{{"omnilink_version", kVersion}, {"tools_dir", tools_dir().string()}, {"ok", all_ok},
                     {"native_checker", {{"grammar", language::grammar_description()}}}};
    if (const auto cache = language::parse_cache_dir()) j["native_checker"]["parse_cache"] = cache->string();
    else j["native_checker"]["parse_cache"] = nullptr;
    for (const Report* r : {&gdb, &java, &tlc, &rr, &addr2line, &chromium}) j["tools"][r->location.tool] = to_json(*r);
    j["tools"]["slurm"] = {{"found", sbatch.has_value()}, {"configured", slurm_usable}};
    if (sbatch) j["tools"]["slurm"].update({{"path", sbatch->string()}, {slurm_usable ? "version" : "problem", slurm_version}});
    if (rr_cap) {
      j["tools"]["rr"]["record"] = rr_cap->records;
      j["tools"]["rr"]["record_soft_counters"] = rr_cap->records_soft;
      if (!rr_cap->records) j["tools"]["rr"]["record_error"] = rr_cap->record_error;
      if (!rr_cap->records_soft) j["tools"]["rr"]["record_soft_counters_error"] = rr_cap->soft_error;
      j["tools"]["rr"]["replay"] = rr_cap->replays;
      if (!rr_cap->replays) j["tools"]["rr"]["replay_error"] = rr_cap->replay_error;
    }
    std::cout << j.dump(2) << "\n";
    return all_ok ? kExitOk : kExitProblem;
  }

  std::cout << "omnilink " << kVersion << "\n"
            << "  native checker: built in (TLA+ grammar " << language::grammar_description() << "); TLC confirms its failures\n"
            << "  parse cache: " << parse_cache_line() << "\n";
  auto print = [](const Report& r) {
    const ToolLocation& l = r.location;
    std::cout << "  " << l.tool << std::string(l.tool.size() < 10 ? 10 - l.tool.size() : 1, ' ');
    if (l.found()) {
      std::cout << "ok       " << l.path->string() << "  (from " << l.source << ")\n"
                << "            version: " << r.version << "\n";
    } else {
      std::cout << "MISSING  " << l.explain_missing() << "\n";
    }
  };
  for (const Report* r : {&gdb, &java, &tlc, &rr}) print(*r);
  if (rr_cap) {
    std::cout << "            record:    " << (rr_cap->records ? "yes (hardware counters)" : "no: " + rr_cap->record_error) << "\n"
              << "            record -W: " << (rr_cap->records_soft ? "yes (software counters)" : "no: " + rr_cap->soft_error) << "\n"
              << "            replay:    " << (rr_cap->replays ? "yes" : "no: " + rr_cap->replay_error) << "\n";
  }
  print(addr2line);
  print(chromium);
  std::cout << "  slurm     "
            << (!sbatch         ? std::string("not found (optional: `campaign --executor slurm` needs sbatch, squeue and scancel on PATH)")
                : slurm_usable ? "ok       " + sbatch->string() + "  (from PATH)\n            version: " + slurm_version
                               : "NO CLUSTER " + sbatch->string() + ": " + slurm_version + " (set SLURM_CONF)")
            << "\n";
  std::cout << "  tools dir: " << tools_dir().string() << " (OMNILINK_TOOLS_DIR)\n";
  if (!all_ok) {
    std::cout << "Some tools are missing or unusable: the native checker validates without them, but confirming its\n"
                 "failures and specs outside its fragment need java and TLC; recording needs an rr that records and\n"
                 "replays here; replay needs gdb; naming where a harness crashed needs addr2line (binutils).\n"
                 "See `omnilink doctor --help` for the variables that point omnilink at them.\n";
  }
  return all_ok ? kExitOk : kExitProblem;
}

}  // namespace omnilink::cli
