# Turns the community modules of language/library/ into a C++ table of their texts, so that the
# embedded checker finds them without an install path. Inputs: INPUTS (.tla files separated by |), OUTPUT.
# Each text is a char array out of the string pool (cmake/OmniLinkTlaText.cmake says why).
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/OmniLinkTlaText.cmake)
set(arrays "")
set(entries "")
string(REPLACE "|" ";" inputs "${INPUTS}")
foreach(input IN LISTS inputs)
  get_filename_component(name "${input}" NAME_WE)
  omnilink_tla_text_array(k${name} "${input}" array)
  string(APPEND arrays "${array}")
  string(APPEND entries "    {\"${name}\", std::string(k${name}, sizeof k${name} - 1)},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from language/library/*.tla by language/embed_library.cmake. Do not edit.\n"
  "#include <map>\n#include <string>\nnamespace omnilink::language {\nnamespace {\n${arrays}}\n"
  "const std::map<std::string, std::string>& library_module_texts() {\n"
  "  static const std::map<std::string, std::string> texts{\n${entries}  };\n  return texts;\n}\n}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
