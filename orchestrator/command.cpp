#include "orchestrator/command.hpp"

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

std::ostream& Command::complain() const { return std::cerr << "omnilink " << name() << ": "; }

bool write_report(const Command& command, const std::string& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) command.complain() << "cannot write " << file << "\n";
  return static_cast<bool>(out);
}

}  // namespace omnilink::cli
