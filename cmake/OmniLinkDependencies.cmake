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

# The omnilink CLI is linked statically where the toolchain and the libraries' archives allow
# (OMNILINK_STATIC_CLI): `omnilink validate` is started once per trace by sweeps and scripts, and on
# a small history the dynamic loader (symbol lookup, one mapping per library) is a quarter of the
# process's time (docs/performance.md). Modules link the three shared libraries below through
# omnilink_<name> targets, which give the library's archive instead to a target whose OMNILINK_STATIC
# property is set; every other target (tests, benchmarks) keeps the shared library.
option(OMNILINK_STATIC_CLI "Link the omnilink CLI statically when the toolchain and static archives allow" ON)
function(omnilink_library_with_archive name imported archive)
  find_library(OMNILINK_ARCHIVE_${name} NAMES ${archive})
  add_library(omnilink_${name} INTERFACE)
  if(OMNILINK_ARCHIVE_${name})
    target_link_libraries(omnilink_${name} INTERFACE
      "$<IF:$<BOOL:$<TARGET_PROPERTY:OMNILINK_STATIC>>,${OMNILINK_ARCHIVE_${name}},${imported}>")
    # Headers are the shared library's either way.
    target_include_directories(omnilink_${name} SYSTEM INTERFACE $<TARGET_PROPERTY:${imported},INTERFACE_INCLUDE_DIRECTORIES>)
  else()
    target_link_libraries(omnilink_${name} INTERFACE ${imported})
    set(OMNILINK_MISSING_ARCHIVES ${OMNILINK_MISSING_ARCHIVES} ${archive} PARENT_SCOPE)
  endif()
endfunction()
set(OMNILINK_MISSING_ARCHIVES "")
omnilink_library_with_archive(sqlite3 SQLite::SQLite3 libsqlite3.a)
omnilink_library_with_archive(tree_sitter PkgConfig::TreeSitter libtree-sitter.a)
omnilink_library_with_archive(boost_filesystem Boost::filesystem libboost_filesystem.a)
