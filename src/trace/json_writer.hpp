// SPDX-License-Identifier: MIT
// Renders records as Trace Event Format JSON (the Chrome/Perfetto "JSON object"
// form): "X" complete events with ts/dur in microseconds, "s"/"f" flow events,
// "M" metadata events naming the process, threads and tracks.
#pragma once

#include "trace/session.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace weft::trace {

struct WriteContext {
  int pid = 0;
  uint64_t origin_ns = 0;  // the trace's ts 0
};

// Appends `text` as a JSON string literal (quoted, escaped; invalid UTF-8 bytes
// become U+FFFD so every parser accepts the file).
void append_json_string(std::string& out, std::string_view text);
// Appends the record's events, each preceded by ",\n" unless `first` (then cleared).
void append_record(std::string& out, const Record& record, const WriteContext& context,
                   bool& first);
void append_track_name(std::string& out, const TrackName& track, const WriteContext& context,
                       bool& first);
void append_process_name(std::string& out, std::string_view name, const WriteContext& context,
                         bool& first);

}  // namespace weft::trace
