{
  description = "OmniLink: model-checked (TLA+/TLC) and record/replay (rr) testing of concurrent C++ code";

  # Current stable channel; `nix flake update` moves the pin (flake.lock).
  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-26.05";

  outputs =
    { self, nixpkgs }:
    let
      # rr, which omnilink drives for record/replay, only supports these.
      systems = [
        "x86_64-linux"
        "aarch64-linux"
      ];
      # Plain helper instead of flake-utils: no extra inputs to pin.
      forAllSystems = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
      # This flake's own packages for the same system as `pkgs`.
      ownPackages = pkgs: self.packages.${pkgs.stdenv.hostPlatform.system};
    in
    {
      packages = forAllSystems (pkgs: {
        default = pkgs.callPackage ./nix/package.nix { };
        campaign = pkgs.callPackage ./nix/demo.nix { omnilink = (ownPackages pkgs).default; };
      });

      apps = forAllSystems (pkgs: {
        default = {
          type = "app";
          program = pkgs.lib.getExe (ownPackages pkgs).default;
          meta.description = "The omnilink CLI";
        };
        campaign = {
          type = "app";
          program = pkgs.lib.getExe (ownPackages pkgs).campaign;
          meta.description = "Run the omnilink demo (optional argument: output directory)";
        };
      });

      devShells = forAllSystems (pkgs: {
        default = pkgs.mkShell {
          # Compiler, cmake hook and every library/test dependency of the package.
          inputsFrom = [ (ownPackages pkgs).default ];
          # Tools for working on omnilink; rr, TLC and the JDK reach the package only via its wrapper.
          packages = with pkgs; [
            cmake
            ninja
            clang-tools # clangd, clang-format, clang-tidy
            gdb
            rr
            tlaplus
            jdk_headless
          ];
          # What the wrapped binary gets, so a locally built ./build/omnilink finds TLC too.
          env.OMNILINK_TLC_JAR = "${pkgs.tlaplus}/share/java/tla2tools.jar";
          # The TLA+ grammar's sources, which CMake compiles into the embedded checker.
          env.OMNILINK_TLAPLUS_GRAMMAR_DIR = "${pkgs.tree-sitter-grammars.tree-sitter-tlaplus.src}";
          # Debug (-O0) and sanitizer builds: _FORTIFY_SOURCE only warns without optimisation.
          hardeningDisable = [ "fortify" ];
        };
      });
    };
}
