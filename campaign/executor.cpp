#include "campaign/executor.hpp"

#include "campaign/engine.hpp"
#include "campaign/session.hpp"

namespace omnilink::campaign {

bool LocalExecutor::run() {
  Engine engine(session_.config(), session_.store(), session_.id(), source_, session_.recording(), session_.engine_settings(), progress_);
  return engine.run();
}

}  // namespace omnilink::campaign
