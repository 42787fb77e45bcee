# `nix run .#campaign [-- STORE_DIR [CAMPAIGN OPTIONS...]]`: the demo, as the README's first command
# runs it: share/omnilink/run-demo, i.e. `omnilink campaign share/omnilink/campaigns/demo.json`,
# which finds the installed example harnesses and specs beside the omnilink executable.
{ writeShellApplication, omnilink }:

writeShellApplication {
  name = "omnilink-demo";
  runtimeInputs = [ omnilink ];
  text = ''
    exec "${omnilink}/share/omnilink/run-demo" "$@"
  '';
}
