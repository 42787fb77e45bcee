# Turns a TLA+ module into a C++ source returning its text (so omnilink needs no install path
# to find the modules it writes beside a validation). Inputs: INPUT, OUTPUT, FUNCTION.
# The text is a char array in the section of the other embedded modules (omnilink_tla_texts), out
# of the string pool a run reads (language/embed_library.cmake says why).
file(READ "${INPUT}" text)
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by checkers/embed_module.cmake. Do not edit.\n"
  "#include <string>\nnamespace omnilink::checkers {\nnamespace {\n"
  "__attribute__((section(\"omnilink_tla_texts\"))) const char kText[] = R\"OMNILINK_TLA(${text})OMNILINK_TLA\";\n}\n"
  "const std::string& ${FUNCTION}() {\n  static const std::string text(kText, sizeof kText - 1);\n  return text;\n}\n}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
