# Turns a TLA+ module into a C++ source returning its text (so omnilink needs no install path
# to find the modules it writes beside a validation). Inputs: INPUT, OUTPUT, FUNCTION.
file(READ "${INPUT}" text)
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by checkers/embed_module.cmake. Do not edit.\n"
  "#include <string>\nnamespace omnilink::checkers {\n"
  "const std::string& ${FUNCTION}() {\n  static const std::string text = R\"OMNILINK_TLA(${text})OMNILINK_TLA\";\n  return text;\n}\n}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
