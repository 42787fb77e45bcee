// The Catch2 main shared by the test executables. A test name or filter that matches no test case
// fails (Catch's `--warn NoTests`) instead of passing with nothing run: ctest runs each case by its
// name, and a name ctest cut in two (it splits at `;`) would otherwise pass without running.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <vector>

int main(int argc, char* argv[]) {
  std::vector<char*> args(argv, argv + argc);
  static char warn[] = "--warn";
  static char no_tests[] = "NoTests";
  args.insert(args.begin() + 1, {warn, no_tests});
  return Catch::Session().run(static_cast<int>(args.size()), args.data());
}
