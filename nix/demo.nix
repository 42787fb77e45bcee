# `nix run .#campaign [-- ARGS...]`: run the demo campaign shipped in the package.
{ writeShellApplication, omnilink }:

writeShellApplication {
  name = "omnilink-campaign-demo";
  runtimeInputs = [ omnilink ];
  text = ''
    exec omnilink campaign "${omnilink}/share/omnilink/campaigns/demo.json" "$@"
  '';
}
