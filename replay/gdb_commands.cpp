#include "replay/gdb_commands.hpp"

#include <cstdio>

namespace omnilink::replay {

std::string breakpoint_condition(const trace::Operation& op) {
  return "header->thread == " + std::to_string(op.thread) + " && header->start == " + std::to_string(op.replay_start());
}

std::string gdb_string_body(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '%') {
      out += "%%";
    } else if (byte < 0x20 || byte >= 0x7f) {
      char octal[5];
      std::snprintf(octal, sizeof octal, "\\%03o", byte);
      out += octal;
    } else {
      out += c;
    }
  }
  return out;
}

std::string stop_at_operation(const trace::Operation& op, const std::string& label) {
  const std::string id = op.id();
  std::string file;
  file += "# omnilink: stop at operation " + id + " when the hook reports its logged start " +
          std::to_string(op.replay_start()) + "\n";
  file += "set pagination off\n";
  file += "set breakpoint pending on\n";
  // Set through Python with its output kept: gdb's "Breakpoint 1 at 0x...: file ..." would print
  // under omnilink's name, before anything was replayed. `commands` applies to it all the same.
  file += "python gdb.execute(\"break omnilink_op_start if " + breakpoint_condition(op) + "\", to_string=True)\n";
  file += "commands\n";
  file += "  silent\n";
  if (!label.empty()) file += "  printf \"omnilink: " + gdb_string_body(label) + "\\n\"\n";
  file += "  printf \"omnilink: stopped at operation " + gdb_string_body(id) + " (thread %u, index %lu, start %lu)\\n\", "
          "header->thread, header->index, header->start\n";
  file += "  printf \"omnilink: logged call " + gdb_string_body(op.call()) + ", timebox [" + std::to_string(op.start) + ", " +
          std::to_string(op.end) + "]\\n\"\n";
  file += "  bt\n";
  file += "end\n";
  return file;
}

std::string stop_at_signal(const std::string& signal_name) {
  // The name goes into Python source: only a signal name's characters are let through.
  std::string name;
  for (const char c : signal_name)
    if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) name += c;
  std::string file;
  file += "# omnilink: run the replay to the signal that ended the run (" + name + "), where gdb stops\n";
  file += "set pagination off\n";
  file += "handle " + name + " stop print\n";
  file += "python\n";
  file += "def omnilink_signal_stop(event):\n";
  file += "    if isinstance(event, gdb.SignalEvent) and event.stop_signal == \"" + name + "\":\n";
  file += "        print(\"omnilink: stopped at signal " + name + ", where it ended the run\")\n";
  file += "        gdb.execute(\"bt\")\n";
  file += "gdb.events.stop.connect(omnilink_signal_stop)\n";
  file += "end\n";
  return file;
}

}  // namespace omnilink::replay
