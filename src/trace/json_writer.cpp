// SPDX-License-Identifier: MIT
#include "trace/json_writer.hpp"

#include "runtime/error_names.hpp"

#include <fmt/format.h>

#include <iterator>

namespace weft::trace {

namespace {

// Microseconds since the origin, to the nanosecond: "ts" and "dur" are µs in the
// format, and ns keep nested slices distinct.
void append_us(std::string& out, uint64_t ns) {
  fmt::format_to(std::back_inserter(out), "{}.{:03}", ns / 1000, ns % 1000);
}

uint64_t since(uint64_t ns, uint64_t origin) { return ns > origin ? ns - origin : 0; }

void begin_event(std::string& out, bool& first) {
  if (!first) out += ",\n";
  first = false;
}

// The length of a valid UTF-8 sequence starting at s[i], or 0.
size_t utf8_length(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  if (n == 2 && c < 0xc2) return 0;                          // overlong
  if (n == 3 && c == 0xe0 && byte(i + 1) < 0xa0) return 0;   // overlong
  if (n == 3 && c == 0xed && byte(i + 1) >= 0xa0) return 0;  // surrogate
  if (n == 4 &&
      (c > 0xf4 || (c == 0xf0 && byte(i + 1) < 0x90) || (c == 0xf4 && byte(i + 1) >= 0x90)))
    return 0;
  return n;
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
      ++i;
    } else if (u < 0x20) {
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", unsigned(u));
      ++i;
    } else if (size_t n = utf8_length(text, i); n != 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += "\\ufffd";
      ++i;
    }
  }
  out += '"';
}

void append_record(std::string& out, const Record& r, const WriteContext& ctx, bool& first) {
  uint64_t begin = since(r.begin_ns, ctx.origin_ns);
  uint64_t dur = r.end_ns > r.begin_ns ? r.end_ns - r.begin_ns : 0;
  begin_event(out, first);
  out += "{\"ph\":\"X\",\"cat\":";
  append_json_string(out, r.category);
  out += ",\"name\":";
  if (r.kind == Record::Kind::kApi) append_json_string(out, r.api_name ? r.api_name : "?");
  else append_json_string(out, r.name);
  fmt::format_to(std::back_inserter(out), ",\"pid\":{},\"tid\":{},\"ts\":", ctx.pid, r.tid);
  append_us(out, begin);
  out += ",\"dur\":";
  append_us(out, dur);
  out += ",\"args\":{";
  if (r.kind == Record::Kind::kApi) {
    out += "\"args\":";
    append_json_string(out, r.args);
    out += ",\"result\":";
    append_json_string(out, error_name(r.result));
  } else {
    out += r.args;  // rendered by the observer: JSON members
    if (!r.args.empty()) out += ',';
    out += "\"queued_us\":";
    append_us(out, since(r.queued_ns, ctx.origin_ns));
    if (r.bytes != 0) {
      fmt::format_to(std::back_inserter(out), ",\"bytes\":{}", r.bytes);
      // GB/s = bytes per ns.
      if (dur != 0)
        fmt::format_to(std::back_inserter(out), ",\"bandwidth_GBps\":{:.3f}",
                       double(r.bytes) / double(dur));
    }
  }
  out += "}}";
  if (r.flow_id == 0) return;
  // The arrow: "s" inside the API slice that submitted the op, "f" bound to the
  // enclosing slice (bp "e"), i.e. the device slice that starts at that ts.
  begin_event(out, first);
  fmt::format_to(
      std::back_inserter(out),
      "{{\"ph\":\"s\",\"cat\":\"flow\",\"name\":\"submit\",\"id\":{},\"pid\":{},\"tid\":{},\"ts\":",
      r.flow_id, ctx.pid, r.flow_tid);
  append_us(out, since(r.flow_ns, ctx.origin_ns));
  out += '}';
  begin_event(out, first);
  fmt::format_to(std::back_inserter(out),
                 "{{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"flow\",\"name\":\"submit\",\"id\":{},"
                 "\"pid\":{},\"tid\":{},\"ts\":",
                 r.flow_id, ctx.pid, r.tid);
  append_us(out, begin);
  out += '}';
}

void append_track_name(std::string& out, const TrackName& track, const WriteContext& ctx,
                       bool& first) {
  begin_event(out, first);
  fmt::format_to(
      std::back_inserter(out),
      "{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":", ctx.pid,
      track.tid);
  append_json_string(out, track.name);
  out += "}}";
  begin_event(out, first);
  fmt::format_to(std::back_inserter(out),
                 "{{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":{},\"tid\":{},\"args\":{{"
                 "\"sort_index\":{}}}}}",
                 ctx.pid, track.tid, track.sort_index);
}

void append_process_name(std::string& out, std::string_view name, const WriteContext& ctx,
                         bool& first) {
  begin_event(out, first);
  fmt::format_to(
      std::back_inserter(out),
      "{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{},\"tid\":0,\"args\":{{\"name\":",
      ctx.pid);
  append_json_string(out, name);
  out += "}}";
}

}  // namespace weft::trace
