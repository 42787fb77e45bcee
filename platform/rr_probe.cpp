#include "platform/rr_probe.hpp"

#include <cstdlib>
#include <sstream>

#include "platform/subprocess.hpp"

namespace omnilink {
namespace fs = std::filesystem;
namespace {

std::string first_meaningful_line(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
  return "";
}

// Records /bin/true into a fresh directory; returns "" on success or rr's complaint.
std::string try_record(const fs::path& rr, const fs::path& scratch, bool soft) {
  std::vector<std::string> args{"record"};
  if (soft) args.push_back("-W");
  args.insert(args.end(), {"-o", (scratch / (soft ? "soft" : "plain")).string(), "--", "/bin/true"});
  ProcessOptions options;
  options.timeout = std::chrono::seconds(60);
  ProcessResult r = run_process(rr, args, options);
  if (r.ok()) return "";
  std::string why = first_meaningful_line(r.err);
  return why.empty() ? r.describe() : why;
}

}  // namespace

RrCapability probe_rr(const fs::path& rr) {
  RrCapability cap;
  ProcessResult v = run_process(rr, {"--version"});
  cap.version = first_meaningful_line(v.out + v.err);

  std::string scratch_template = (fs::temp_directory_path() / "omnilink-rr-probe-XXXXXX").string();
  if (::mkdtemp(scratch_template.data()) == nullptr) {
    cap.record_error = cap.soft_error = "cannot create a scratch directory in " + fs::temp_directory_path().string();
    return cap;
  }
  const fs::path scratch = scratch_template;
  cap.record_error = try_record(rr, scratch, false);
  cap.records = cap.record_error.empty();
  cap.soft_error = try_record(rr, scratch, true);
  cap.records_soft = cap.soft_error.empty();
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return cap;
}

}  // namespace omnilink
