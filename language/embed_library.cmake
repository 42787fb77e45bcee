# Turns the community modules of language/library/ into a C++ table of their texts, so that the
# embedded checker finds them without an install path. Inputs: INPUTS (.tla files separated by |), OUTPUT.
set(entries "")
string(REPLACE "|" ";" inputs "${INPUTS}")
foreach(input IN LISTS inputs)
  get_filename_component(name "${input}" NAME_WE)
  file(READ "${input}" text)
  string(APPEND entries "    {\"${name}\", R\"OMNILINK_TLA(${text})OMNILINK_TLA\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from language/library/*.tla by language/embed_library.cmake. Do not edit.\n"
  "#include <map>\n#include <string>\nnamespace omnilink::language {\n"
  "const std::map<std::string, std::string>& library_module_texts() {\n"
  "  static const std::map<std::string, std::string> texts{\n${entries}  };\n  return texts;\n}\n}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
