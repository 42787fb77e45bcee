# Turns a TLA+ module into a C++ source returning its text (so omnilink needs no install path
# to find the modules it writes beside a validation). Inputs: INPUT, OUTPUT, FUNCTION.
# The text is a char array out of the string pool (cmake/OmniLinkTlaText.cmake says why).
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/OmniLinkTlaText.cmake)
omnilink_tla_text_array(kText "${INPUT}" array)
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by checkers/embed_module.cmake. Do not edit.\n"
  "#include <string>\nnamespace omnilink::checkers {\nnamespace {\n"
  "${array}}\n"
  "const std::string& ${FUNCTION}() {\n  static const std::string text(kText, sizeof kText - 1);\n  return text;\n}\n}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
