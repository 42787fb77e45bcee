# Turns the community modules of language/library/ into a C++ table of their texts, so that the
# embedded checker finds them without an install path. Inputs: INPUTS (.tla files separated by |), OUTPUT.
#
# Each text is a char array in a section of its own (omnilink_tla_texts), not a string literal:
# literals share the executable's pool of strings with every message a run prints, and 55 KB of
# module texts that a validation rarely reads would stand between them, one more 64 KiB window of
# resident memory for every small run (docs/performance.md, "Code layout").
set(arrays "")
set(entries "")
string(REPLACE "|" ";" inputs "${INPUTS}")
foreach(input IN LISTS inputs)
  get_filename_component(name "${input}" NAME_WE)
  file(READ "${input}" text)
  string(APPEND arrays "__attribute__((section(\"omnilink_tla_texts\"))) const char k${name}[] = R\"OMNILINK_TLA(${text})OMNILINK_TLA\";\n")
  string(APPEND entries "    {\"${name}\", std::string(k${name}, sizeof k${name} - 1)},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from language/library/*.tla by language/embed_library.cmake. Do not edit.\n"
  "#include <map>\n#include <string>\nnamespace omnilink::language {\nnamespace {\n${arrays}}\n"
  "const std::map<std::string, std::string>& library_module_texts() {\n"
  "  static const std::map<std::string, std::string> texts{\n${entries}  };\n  return texts;\n}\n}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
