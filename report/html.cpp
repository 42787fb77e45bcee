#include "report/html.hpp"

namespace omnilink::report {

std::string html_page(const std::string& title, const std::string& body) {
  // Colours name what a bar means on every page: linearized (grey), the operation the spec refused
  // (red), the other operations the search could not get past (amber), not reached (white).
  static const char* const kStyle = R"(
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 72em; padding: 0 1em; color: #1d1d1f; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f2f2f4; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.92em; }
pre { background: #f6f6f8; padding: 0.6em; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
.status-new, .status-regressed { color: #b00020; font-weight: bold; }
.status-recurring { color: #8a5a00; } .status-fixed { color: #1b7a2c; } .status-quiet { color: #555; }
.legend span { display: inline-block; margin-right: 1.2em; }
.swatch { display: inline-block; width: 1em; height: 0.8em; margin-right: 0.3em; border: 1px solid #666; vertical-align: middle; }
.scroll { overflow-x: auto; }
svg text { font-family: ui-monospace, monospace; font-size: 11px; }
.linearized { fill: #c8c8cc; } .frontier { fill: #ffc857; } .refused { fill: #e4572e; } .later { fill: #ffffff; }
.bar { stroke: #444; stroke-width: 1; } .bar.pending { stroke-dasharray: 4 2; }
.chart-bar { fill: #4f7cac; } .chart-fail { fill: #e4572e; }
)";
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + html_escape(title) +
         "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
}

}  // namespace omnilink::report
