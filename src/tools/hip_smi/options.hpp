// SPDX-License-Identifier: MIT
// hip-smi's command line.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace weft::smi {

enum class Command { kStatus, kTopo, kDoctor, kList, kQuery };
enum class Format { kTable, kJson, kCsv };

struct Options {
  Command command = Command::kStatus;
  Format format = Format::kTable;
  std::vector<std::string> ids;         // --id: indices, bus IDs, UUIDs or kinds
  std::optional<double> watch_seconds;  // -l / --watch
  std::optional<long> count;            // -n / --count: samples in watch mode
  int timeout_ms = 2000;
  int sample_ms = 50;
  std::string root;  // --root, else HIP_SMI_ROOT
  bool timestamp = true;
  bool help = false;
  bool help_query = false;  // --help-query: the --query field names
  bool version = false;
  // --query FIELDS (Command::kQuery) and --format csv[,noheader][,nounits].
  std::vector<std::string> query_fields;
  bool csv_header = true;
  bool csv_units = true;
};

// Fills `out`; returns an error message for bad usage.
std::optional<std::string> parse_options(int argc, char** argv, Options& out);
std::string usage_text();
const char* command_name(Command c);

}  // namespace weft::smi
