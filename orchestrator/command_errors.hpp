// The CLI's one error path: runs the selected verb and, when it throws, prints
// "omnilink VERB: what" once and returns the exit code that kind of error has (command.hpp):
// usage or configuration (3) for input that is wrong as given (a campaign file, a store, a run
// directory, a session that cannot start), a problem found (1) for a spec or a file system that
// failed the command, could not finish (2) for a session that failed part way.
#pragma once

#include "orchestrator/command.hpp"

namespace omnilink::cli {

/// The verb's exit code, or that of what it threw, after saying what.
int run_command(Command& command);

}  // namespace omnilink::cli
