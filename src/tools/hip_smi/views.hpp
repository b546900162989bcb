// SPDX-License-Identifier: MIT
// Printing a Snapshot: the status table, JSON (schema kSchemaVersion) and CSV,
// and the topology view. Pure functions of the snapshot: golden tests pin them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model.hpp"

namespace weft::smi {

// Keeps the agents named by `ids` (indices, bus IDs, UUIDs, kinds) and their
// processes and links; an error names an id that matches nothing.
std::optional<std::string> select_agents(Snapshot& s, const std::vector<std::string>& ids);

std::string status_table(const Snapshot& s, const std::string& version);
Json status_json(const Snapshot& s, const std::string& version);
std::string status_csv_header();
std::string status_csv_rows(const Snapshot& s);

std::string topo_table(const Snapshot& s, const std::string& version);
Json topo_json(const Snapshot& s, const std::string& version);
std::string topo_csv(const Snapshot& s);

// `-L`: one line per agent.
std::string list_text(const Snapshot& s);

// `--query`: the named fields of every agent as CSV rows. check_query_fields
// names the first unknown field (nullopt when all are known).
std::optional<std::string> check_query_fields(const std::vector<std::string>& fields);
std::string query_csv_header(const std::vector<std::string>& fields, bool units);
std::string query_csv_rows(const Snapshot& s, const std::vector<std::string>& fields, bool units);
// The field names with their units and meaning, for docs and --help-query.
std::string query_fields_help();

// Shared formatting. display_name shortens CPU names for tables ("AMD EPYC 9654
// 96-Core Processor" → "AMD EPYC 9654 96-Core"); JSON and CSV keep the kernel's.
std::string display_name(const Agent& a);
std::string csv_field(const std::string& text);
std::string mib(uint64_t bytes);

}  // namespace weft::smi
