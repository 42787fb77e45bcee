// Where omnilink finds what it ships: the example harnesses and the TLA+ specs, looked up by bare
// name from campaign files (so examples/campaigns/*.json work from the build tree and when
// installed). In order: the environment variable, the install layout beside the executable
// (../libexec/omnilink/examples, ../share/omnilink/tla/specs), then the build tree.
#pragma once

#include <filesystem>
#include <vector>

namespace omnilink::cli {

std::vector<std::filesystem::path> bundled_harness_dirs();  // $OMNILINK_EXAMPLES_DIR first
std::vector<std::filesystem::path> bundled_spec_dirs();     // $OMNILINK_SPECS_DIR first

}  // namespace omnilink::cli
