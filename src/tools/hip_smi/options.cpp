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

std::optional<std::string> parse_options(int argc, char** argv, Options& out) {
  if (const char* root = std::getenv("HIP_SMI_ROOT")) out.root = root;
  bool command_seen = false;
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
    } else if (arg == "-V" || arg == "--version") {
      out.version = true;
    } else if (arg == "--json") {
      out.format = Format::kJson;
    } else if (arg == "--csv") {
      out.format = Format::kCsv;
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
      out.command = arg == "topo"     ? Command::kTopo
                    : arg == "doctor" ? Command::kDoctor
                                      : Command::kStatus;
    } else {
      return "unknown argument '" + std::string(argv[k]) + "' (see hip-smi --help)";
    }
  }
  return std::nullopt;
}

}  // namespace weft::smi
