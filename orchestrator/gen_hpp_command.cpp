#include "orchestrator/gen_hpp_command.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "language/interface.hpp"
#include "tla/hpp_generator.hpp"

namespace omnilink::cli {

void GenHppCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("gen-hpp", "Generate the C++ operation types of a TLA+ spec (one struct per action of Next)");
}

void GenHppCommand::add_options() {
  sub_->add_option("SPEC", spec_, "The spec module (.tla)")->required();
  sub_->add_option("-o,--output", output_, "Write the header here (default: stdout)");
  sub_->add_option("--next", next_, "The next-state relation to read actions from")->capture_default_str();
  sub_->add_option("--namespace", namespace_, "C++ namespace (default: the module name in lower case)");
}

int GenHppCommand::run() {
  auto loaded = language::LoadedSpec::load(spec_, std::nullopt);
  const std::string header = tla::generate_hpp(language::spec_interface(*loaded, next_), tla::HppOptions{namespace_});
  if (output_.empty()) {
    std::cout << header;
    return kExitOk;
  }
  // Written beside the target and renamed, so a build never sees half a header.
  const std::filesystem::path out(output_);
  const std::filesystem::path tmp = out.string() + ".tmp";
  {
    std::ofstream file(tmp, std::ios::trunc);
    file << header;
    if (!file.flush()) throw CommandError(kExitUsage, "cannot write " + tmp.string());
  }
  std::error_code ec;
  std::filesystem::rename(tmp, out, ec);
  if (ec) throw CommandError(kExitUsage, "cannot write " + out.string() + ": " + ec.message());
  return kExitOk;
}

}  // namespace omnilink::cli
