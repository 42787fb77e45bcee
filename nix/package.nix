# The omnilink package: CLI, header-only harness (+ CMake package config),
# TLA+ specs, demo campaign and example harness executables.
{
  lib,
  stdenv,
  cmake,
  ninja,
  lld,
  makeWrapper,
  boost,
  msgpack-cxx,
  nlohmann_json,
  cli11,
  sqlite,
  concurrentqueue,
  onetbb,
  rocksdb,
  wiredtiger,
  pkg-config,
  tree-sitter,
  tree-sitter-grammars,
  catch2, # Catch2 v2 (catch2_3 is v3)
  gdb,
  binutils-unwrapped, # addr2line: names where a harness crashed
  rr,
  tlaplus,
  jdk_headless,
  withBench ? false,
}:

stdenv.mkDerivation (finalAttrs: {
  pname = "omnilink";
  version = "0.1.0"; # keep in sync with project() in CMakeLists.txt

  # The repository minus the packaging, so editing nix/ or flake.nix does not
  # rebuild the C++ code.
  src = lib.fileset.toSource {
    root = ../.;
    fileset = lib.fileset.difference ../. (
      lib.fileset.unions [
        ./.
        ../flake.nix
        (lib.fileset.maybeMissing ../flake.lock)
      ]
    );
  };

  strictDeps = true;

  # ninja present => the cmake hook uses the Ninja generator, and checkPhase runs `ninja test`.
  nativeBuildInputs = [
    cmake
    ninja
    lld # links the CLI with its code layout (cmake/OmniLinkCodeLayout.cmake)
    makeWrapper
    pkg-config
  ];

  buildInputs = [
    cli11
    nlohmann_json
    sqlite
    tree-sitter # the runtime the embedded checker's TLA+ grammar runs on
    # Only the example harnesses use these.
    concurrentqueue
    onetbb
    rocksdb
    wiredtiger
  ];

  # The header-only omnilink::harness links msgpack-cxx, so a consumer's
  # find_package(OmniLink) re-finds it (OmniLinkConfig.cmake), and msgpack-cxx's
  # own config re-finds Boost: both must reach downstream builds.
  propagatedBuildInputs = [
    boost # also used directly (Boost.Filesystem etc.)
    msgpack-cxx
  ];

  cmakeFlags = [
    # Batches of sources, as scripts/setup builds (cmake/OmniLinkBuildTime.cmake): the CLI11, JSON
    # and Boost code each source instantiates is compiled once per batch, not once per file.
    (lib.cmakeBool "CMAKE_UNITY_BUILD" true)
    (lib.cmakeBool "OMNILINK_BUILD_TESTS" finalAttrs.finalPackage.doCheck)
    (lib.cmakeBool "OMNILINK_BUILD_EXAMPLES" true) # installed under libexec/omnilink/examples
    (lib.cmakeBool "OMNILINK_BUILD_BENCH" withBench)
    (lib.cmakeBool "OMNILINK_STATIC_EXAMPLES" false) # no static glibc in the default stdenv
    (lib.cmakeBool "OMNILINK_STATIC_CLI" false) # likewise: the CLI links libstdc++ in, the rest shared
    # The TLA+ grammar's sources (its generated src/parser.c), which CMake compiles in: nixpkgs'
    # build of the same community grammar that scripts/setup fetches from npm.
    (lib.cmakeFeature "OMNILINK_TLAPLUS_GRAMMAR_DIR" "${tree-sitter-grammars.tree-sitter-tlaplus.src}")
  ];

  doCheck = true;
  checkInputs = [ catch2 ];
  # Tests that drive gdb find it on PATH. Tests needing TLC or rr skip themselves
  # when those are absent (rr is left out: recording needs host perf-counter access).
  nativeCheckInputs = [
    gdb
    binutils-unwrapped
  ];
  env.CTEST_OUTPUT_ON_FAILURE = "1";

  # omnilink looks for its external tools via OMNILINK_* variables, then PATH.
  # Pin the TLC jar (a user's own OMNILINK_TLC_JAR still wins) and put rr, gdb
  # and a JVM (to run TLC) on PATH.
  postInstall = ''
    wrapProgram $out/bin/omnilink \
      --set-default OMNILINK_TLC_JAR ${tlaplus}/share/java/tla2tools.jar \
      --prefix PATH : ${
        lib.makeBinPath [
          rr
          gdb
          binutils-unwrapped
          jdk_headless
        ]
      }
  '';

  meta = {
    description = "Model-checked (TLA+/TLC) and record/replay (rr) testing of concurrent C++ code";
    mainProgram = "omnilink";
    # rr supports only these.
    platforms = [
      "x86_64-linux"
      "aarch64-linux"
    ];
  };
})
