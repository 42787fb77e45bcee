# `nix run .#campaign [-- OUT_DIR]`: the demo, as the README's first command runs it
# (scripts/run-demo, installed under share/omnilink). Once the campaign engine lands this becomes
# `omnilink campaign share/omnilink/campaigns/demo.json`.
{ writeShellApplication, omnilink }:

writeShellApplication {
  name = "omnilink-demo";
  runtimeInputs = [ omnilink ];
  text = ''
    export OMNILINK_EXAMPLES_DIR="${omnilink}/libexec/omnilink/examples"
    export OMNILINK_SPECS_DIR="${omnilink}/share/omnilink/tla/specs"
    exec "${omnilink}/share/omnilink/run-demo" "$@"
  '';
}
