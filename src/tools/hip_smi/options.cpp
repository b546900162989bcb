// SPDX-License-Identifier: MIT
// Command-line parsing and the help text.
#include "options.hpp"

#include <cstdlib>
#include <string_view>

#include "parse.hpp"

namespace weft::smi {

std::string usage_text() {
  return R"(Usage: hip-smi [COMMAND] [OPTIONS]

Status of every agent weft can see: host CPU, AMD GPUs, NVIDIA GPUs, AMD NPUs.

Commands:
  (none), status     one row per agent, then the processes using them
  topo               agents, NUMA affinity and the links between agents
  doctor             explain why an expected agent is missing or unusable

Options:
  --json             JSON output (schema in docs/hip-smi.md; JSON lines with --watch)
  --csv              CSV output, one row per agent (topo: one row per link)
  -L, --list         one line per agent: index, kind, name, target, bus ID, UUID
  --query FIELDS     comma-separated fields, one CSV row per agent, for scripts
                     (names as nvidia-smi's where they exist: name, memory.used,
                     utilization.gpu, ...; hip-smi --help-query lists them)
  --format csv[,noheader][,nounits]
                     with --query: leave out the header row, the units
  -i, --id LIST      agents to show, comma-separated: indices, bus IDs (0000:03:00.0
                     or 03:00.0), UUIDs, or kinds (gpu, npu, cpu)
  -l, -w, --watch SEC
                     repeat every SEC seconds (fractions allowed) until interrupted
  -n, --count N      stop after N samples (with --watch)
  --timeout-ms MS    give every device query at most MS milliseconds (default 2000);
                     a device that does not answer is shown as not responding
  --sample-ms MS     window for the CPU load from /proc/stat (default 50; 0 = since boot)
  --root DIR         read sysfs, procfs and /dev under DIR (tests; also HIP_SMI_ROOT)
  --no-timestamp     leave the time out of the output (reproducible output)
  -V, --version      print the version and the output schema version
  -h, --help         print this help

hip-smi needs no root and no group membership: it reads sysfs, procfs and NVML.
Environment: HIP_SMI_ROOT (as --root), HIP_SMI_NVML_LIB (NVML library to load).
)";
}

const char* command_name(Command c) {
  switch (c) {
    case Command::kStatus: return "status";
    case Command::kTopo: return "topo";
    case Command::kDoctor: return "doctor";
    case Command::kList: return "-L";
    case Command::kQuery: return "--query";
  }
  return "?";
}

std::optional<std::string> parse_options(int argc, char** argv, Options& out) {
  if (const char* root = std::getenv("HIP_SMI_ROOT")) out.root = root;
  bool command_seen = false;
  bool json = false, csv = false, format_seen = false;
  for (int k = 1; k < argc; ++k) {
    std::string_view arg = argv[k];
    std::string inline_value;
    bool has_inline = false;
    if (arg.substr(0, 2) == "--") {
      auto eq = arg.find('=');
      if (eq != std::string_view::npos) {
        inline_value = std::string(arg.substr(eq + 1));
        arg = arg.substr(0, eq);
        has_inline = true;
      }
    } else if (arg.size() > 2 && arg[0] == '-' &&
               (arg[1] == 'i' || arg[1] == 'l' || arg[1] == 'w' || arg[1] == 'n')) {
      inline_value = std::string(arg.substr(2));  // -l1, -i0,1
      arg = arg.substr(0, 2);
      has_inline = true;
    }
    auto value = [&](std::string& v) -> bool {
      if (has_inline) {
        v = inline_value;
        return true;
      }
      if (k + 1 >= argc) return false;
      v = argv[++k];
      return true;
    };
    auto number = [&](std::string_view name, double& v) -> std::optional<std::string> {
      std::string text;
      if (!value(text)) return std::string(name) + " needs a value";
      auto parsed = parse_double(text);
      if (!parsed || *parsed < 0)
        return std::string(name) + ": not a non-negative number: '" + text + "'";
      v = *parsed;
      return std::nullopt;
    };
    std::string text;
    double n = 0;
    if (arg == "-h" || arg == "--help" || arg == "help") {
      out.help = true;
    } else if (arg == "--help-query") {
      out.help_query = true;
    } else if (arg == "-V" || arg == "--version") {
      out.version = true;
    } else if (arg == "--json") {
      json = true;
      out.format = Format::kJson;
    } else if (arg == "--csv") {
      csv = true;
      out.format = Format::kCsv;
    } else if (arg == "-L" || arg == "--list") {
      if (command_seen)
        return "-L cannot be combined with " + std::string(command_name(out.command));
      command_seen = true;
      out.command = Command::kList;
    } else if (arg == "--query" || arg == "--query-gpu") {
      if (command_seen)
        return "--query cannot be combined with " + std::string(command_name(out.command));
      command_seen = true;
      out.command = Command::kQuery;
      if (!value(text) || trim(text).empty())
        return "--query needs a list of fields (see hip-smi --help)";
      for (std::string_view f : split(text, ','))
        if (!trim(f).empty()) out.query_fields.emplace_back(trim(f));
    } else if (arg == "--format") {
      if (!value(text)) return "--format needs a value such as csv,noheader,nounits";
      format_seen = true;
      bool has_csv = false;
      for (std::string_view f : split(text, ',')) {
        f = trim(f);
        if (f == "csv") has_csv = true;
        else if (f == "noheader") out.csv_header = false;
        else if (f == "nounits") out.csv_units = false;
        else return "--format: unknown item '" + std::string(f) + "' (csv, noheader, nounits)";
      }
      if (!has_csv) return "--format: only csv is supported (--format=csv[,noheader][,nounits])";
    } else if (arg == "--no-timestamp") {
      out.timestamp = false;
    } else if (arg == "-i" || arg == "--id") {
      if (!value(text)) return "--id needs a list of agents";
      for (std::string_view id : split(text, ','))
        if (!trim(id).empty()) out.ids.emplace_back(trim(id));
    } else if (arg == "-l" || arg == "-w" || arg == "--watch" || arg == "--loop") {
      if (auto e = number("--watch", n)) return e;
      out.watch_seconds = n;
    } else if (arg == "-n" || arg == "--count") {
      if (auto e = number("--count", n)) return e;
      if (n < 1) return "--count must be at least 1";
      out.count = static_cast<long>(n);
    } else if (arg == "--timeout-ms") {
      if (auto e = number("--timeout-ms", n)) return e;
      out.timeout_ms = static_cast<int>(n);
    } else if (arg == "--sample-ms") {
      if (auto e = number("--sample-ms", n)) return e;
      out.sample_ms = static_cast<int>(n);
    } else if (arg == "--root") {
      if (!value(out.root)) return "--root needs a directory";
    } else if (!command_seen && (arg == "status" || arg == "topo" || arg == "doctor")) {
      command_seen = true;
      out.command = arg == "topo"   ? Command::kTopo
                  : arg == "doctor" ? Command::kDoctor
                                    : Command::kStatus;
    } else {
      return "unknown argument '" + std::string(argv[k]) + "' (see hip-smi --help)";
    }
  }
  // One output format: asked for two, hip-smi would have to guess which one a
  // script parses.
  if (json && csv) return "--json and --csv cannot be combined: choose one output format";
  if ((out.command == Command::kList || out.command == Command::kQuery) && (json || csv))
    return std::string(command_name(out.command)) +
           " has its own output format; leave out --json/--csv";
  if (format_seen && out.command != Command::kQuery) return "--format applies to --query only";
  return std::nullopt;
}

}  // namespace weft::smi
