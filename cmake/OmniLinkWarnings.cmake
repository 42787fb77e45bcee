# Warning flags for omnilink's own targets (not applied to third-party headers, which are
# included as system headers).
add_library(omnilink_warnings INTERFACE)
target_compile_options(omnilink_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor)
