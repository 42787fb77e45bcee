#include "orchestrator/command_errors.hpp"

#include <filesystem>
#include <iostream>

#include "campaign/file_reader.hpp"
#include "campaign/session.hpp"
#include "language/modules.hpp"
#include "language/syntax.hpp"
#include "store/store.hpp"
#include "trace/run_dir.hpp"

namespace omnilink::cli {

int run_command(Command& command) {
  const auto fail = [&](int code, const std::exception& e) {
    command.complain() << e.what() << "\n";
    return code;
  };
  try {
    return command.run();
  } catch (const CommandError& e) {
    return fail(e.exit_code(), e);
  } catch (const campaign::SessionFailed& e) {  // part way: the campaign is left for --resume
    return fail(kExitIncomplete, e);
  } catch (const campaign::SessionError& e) {
    return fail(kExitUsage, e);
  } catch (const campaign::CampaignFileError& e) {
    return fail(kExitUsage, e);
  } catch (const store::StoreError& e) {
    return fail(kExitUsage, e);
  } catch (const trace::RunDirError& e) {
    return fail(kExitUsage, e);
  } catch (const language::SpecError& e) {  // a syntax error too
    return fail(kExitProblem, e);
  } catch (const language::FragmentError& e) {
    return fail(kExitProblem, e);
  } catch (const std::filesystem::filesystem_error& e) {  // a full disk, a directory it may not write
    return fail(kExitProblem, e);
  } catch (const std::exception& e) {  // what no verb expected: said, never a crash
    return fail(kExitIncomplete, e);
  }
}

}  // namespace omnilink::cli
