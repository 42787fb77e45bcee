# Parse-checks flake.nix and nix/*.nix with nix-instantiate when Nix is installed; otherwise prints
# SKIPPED, which the test's SKIP_REGULAR_EXPRESSION turns into a skip (the flake cannot be built on
# machines without Nix).
find_program(NIX_INSTANTIATE nix-instantiate)
if(NOT NIX_INSTANTIATE)
  message("SKIPPED: nix-instantiate not found; the flake is not parse-checked on this machine")
  return()
endif()
file(GLOB nix_files "${SOURCE_DIR}/nix/*.nix")
foreach(f "${SOURCE_DIR}/flake.nix" ${nix_files})
  execute_process(COMMAND ${NIX_INSTANTIATE} --parse "${f}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${f} does not parse:\n${err}")
  endif()
endforeach()
