// The running executable's identity as its linker stamped it: the GNU build ID, a hash of the
// whole linked program. Anything kept on disk that only this exact build may read back (the parse
// cache) is keyed by it, so a rebuild never reads what an older build wrote.
#pragma once

#include <optional>
#include <string>

namespace omnilink::platform {

/// The executable's GNU build ID (the NT_GNU_BUILD_ID note) in lower-case hex, or nullopt when it
/// was linked without one (`-Wl,--build-id=none`; some toolchains omit it by default).
const std::optional<std::string>& executable_build_id();

}  // namespace omnilink::platform
