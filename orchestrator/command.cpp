#include "orchestrator/command.hpp"

#include "platform/special_file.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace omnilink::cli {

std::string Command::name() const {
  if (sub_ == nullptr) return "";
  std::string name = sub_->get_name();
  for (const CLI::App* sub : sub_->get_subcommands())
    if (sub->parsed()) name += " " + sub->get_name();
  return name;
}

void Command::attach(CLI::App& app) {
  add_to(app);
  sub_->preparse_callback([this](std::size_t) { add_options(); });
}

std::ostream& Command::complain() const { return std::cerr << "omnilink " << name() << ": "; }

bool write_report(const Command& command, const std::string& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) command.complain() << "cannot write " << file << "\n";
  return static_cast<bool>(out);
}

void require_spec_files(const std::string& spec, const std::string& mc) {
  if (!mc.empty() && spec.empty()) throw CommandError(kExitUsage, "--mc needs --spec");
  for (const std::string& file : {spec, mc}) {
    if (file.empty()) continue;
    if (const auto what = platform::not_a_regular_file(file, "a spec")) throw CommandError(kExitUsage, file + ": " + *what);
    if (std::error_code ec; !std::filesystem::is_regular_file(file, ec)) throw CommandError(kExitUsage, file + ": no such file");
  }
}

}  // namespace omnilink::cli
