# Finds the libraries omnilink builds against (Debian bookworm packages, or nixpkgs).

# msgpack-cxx names its CMake package and target differently across versions:
# 4.x (Debian bookworm) exports `msgpackc-cxx` from package `msgpack`, 6.x exports `msgpack-cxx`.
find_package(msgpack-cxx CONFIG QUIET)
if(NOT msgpack-cxx_FOUND)
  find_package(msgpack CONFIG REQUIRED)
endif()
if(TARGET msgpack-cxx)
  set(OMNILINK_MSGPACK_TARGET msgpack-cxx)
elseif(TARGET msgpackc-cxx)
  set(OMNILINK_MSGPACK_TARGET msgpackc-cxx)
else()
  message(FATAL_ERROR "msgpack-cxx found but it exports neither msgpack-cxx nor msgpackc-cxx")
endif()

find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
# Boost >= 1.89 has no separate boost_system library (it became header-only).
find_package(Boost 1.74 REQUIRED COMPONENTS filesystem OPTIONAL_COMPONENTS system)
find_package(SQLite3 REQUIRED)
# The tree-sitter runtime that runs the TLA+ grammar (language/).
find_package(PkgConfig REQUIRED)
pkg_check_modules(TreeSitter REQUIRED IMPORTED_TARGET tree-sitter)
