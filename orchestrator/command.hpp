// A CLI verb. Each verb is one class (DoctorCommand, TraceCommand, ...): it registers its
// subcommand and options on the CLI11 app, and runs when selected.
//
// Exit codes shared by all verbs: 0 success; 1 the command ran and found a problem (a bad trace, a
// missing tool); 2 it could not finish (interrupted, a session that failed part way); 3 usage or
// configuration error. (Verbs may add codes; they are documented in README.md and docs/.)
//
// One error path: a verb that cannot go on throws (CommandError, or the error of the module that
// failed), and main prints "omnilink VERB: what" once and exits with the code the error's kind
// has (command_errors.hpp). A verb prints only what it goes on after, through complain().
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

namespace omnilink::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitProblem = 1;
inline constexpr int kExitIncomplete = 2;
inline constexpr int kExitUsage = 3;

/// Why a verb stops: what main prints after "omnilink VERB: ", and the exit code.
class CommandError : public std::runtime_error {
 public:
  CommandError(int exit_code, const std::string& what) : std::runtime_error(what), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

class Command {
 public:
  virtual ~Command() = default;
  /// Adds the verb to `app`: its subcommand now (add_to), its options only once the command line
  /// names this verb, before its arguments are read (add_options, from CLI11's pre-parse
  /// callback): a process runs one verb, and the options of all eighteen cost 1.3 ms and 44 page
  /// faults at every start (a small history's whole check takes about 7 ms).
  void attach(CLI::App& app);
  // Adds the verb's subcommand (stored in sub_) to `app`: its name and description.
  virtual void add_to(CLI::App& app) = 0;
  // Adds the verb's options (and subcommands) to sub_.
  virtual void add_options() = 0;
  virtual int run() = 0;
  // Whether this verb was selected on the command line.
  bool selected() const { return sub_ != nullptr && sub_->parsed(); }
  /// "campaign", "store rebuild": how its messages name it.
  std::string name() const;
  /// std::cerr after "omnilink VERB: ", for what the verb says and goes on after.
  std::ostream& complain() const;

 protected:
  CLI::App* sub_ = nullptr;
};

/// Writes a report file the verb was asked for; false after complaining that it cannot.
bool write_report(const Command& command, const std::string& file, const std::string& text);

/// The --spec and --mc a verb was given (either may be empty): each a regular file, else a
/// CommandError (usage) naming it: missing, or a device, FIFO or directory as what it is.
void require_spec_files(const std::string& spec, const std::string& mc);

}  // namespace omnilink::cli
