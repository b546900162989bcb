// SPDX-License-Identifier: MIT
// hip-smi: status of every agent weft can see (docs/hip-smi.md).
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

#include "collect.hpp"
#include "doctor.hpp"
#include "options.hpp"
#include "views.hpp"

#ifndef HIP_SMI_VERSION
#define HIP_SMI_VERSION "0.0.0"
#endif

namespace weft::smi {
namespace {

const std::string kVersion = HIP_SMI_VERSION;

void emit(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

int status_loop(const Options& o, Collector& collector) {
  bool watch = o.watch_seconds.has_value() || o.count.has_value();
  auto interval = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(o.watch_seconds.value_or(1.0)));
  bool clear = o.format == Format::kTable && watch && ::isatty(STDOUT_FILENO);
  auto next = Clock::now();
  for (long n = 0;; ++n) {
    Snapshot s = collector.sample();
    if (auto error = select_agents(s, o.ids)) {
      std::fprintf(stderr, "hip-smi: %s\n", error->c_str());
      return 2;
    }
    if (o.command == Command::kQuery) {
      emit((n == 0 && o.csv_header ? query_csv_header(o.query_fields, o.csv_units) : "") +
           query_csv_rows(s, o.query_fields, o.csv_units));
    } else if (o.command == Command::kList) {
      emit(list_text(s));
    } else switch (o.format) {
        case Format::kJson: emit(status_json(s, kVersion).dump(watch ? -1 : 2) + "\n"); break;
        case Format::kCsv: emit((n == 0 ? status_csv_header() : "") + status_csv_rows(s)); break;
        case Format::kTable:
          emit((clear ? "\033[H\033[2J" : (n > 0 ? "\n" : "")) + status_table(s, kVersion));
          break;
      }
    if (!watch || (o.count && n + 1 >= *o.count)) return 0;
    next += interval;
    auto now = Clock::now();
    if (next > now) std::this_thread::sleep_for(next - now);
    else next = now;  // a slow sample: start the next one now, do not pile up
  }
}

int run(int argc, char** argv) {
  Options o;
  if (auto error = parse_options(argc, argv, o)) {
    std::fprintf(stderr, "hip-smi: %s\n", error->c_str());
    return 2;
  }
  if (o.help) {
    emit(usage_text());
    return 0;
  }
  if (o.help_query) {
    emit(
        "Fields of --query (unit with --format=csv, left out with nounits):\n\n| field | unit | "
        "meaning |\n|---|---|---|\n" +
        query_fields_help());
    return 0;
  }
  if (o.command == Command::kQuery) {
    if (auto error = check_query_fields(o.query_fields)) {
      std::fprintf(stderr, "hip-smi: %s\n", error->c_str());
      return 2;
    }
  }
  if (o.version) {
    emit(fmt::format("hip-smi {} (weft), output schema {}\n", kVersion, kSchemaVersion));
    return 0;
  }
  // Lives until _exit: worker threads that missed their deadline may still read through it.
  auto* root = new SysRoot(o.root);
  if (root->is_fixture() && !root->exists("/")) {
    std::fprintf(stderr, "hip-smi: --root %s: no such directory\n", o.root.c_str());
    return 2;
  }
  CollectOptions c;
  c.timeout = std::chrono::milliseconds(o.timeout_ms);
  c.cpu_window = std::chrono::milliseconds(o.sample_ms);
  c.timestamp = o.timestamp;
  c.links = o.command == Command::kTopo;
  auto* collector = new Collector(*root, c);

  if (o.command == Command::kStatus || o.command == Command::kQuery || o.command == Command::kList)
    return status_loop(o, *collector);

  Snapshot s = collector->sample();
  if (o.command == Command::kDoctor) {
    DoctorReport r = run_doctor(*root, s, collector->nvml(Clock::now()), collector->nvml_enabled());
    if (o.format == Format::kJson) emit(doctor_json(r, kVersion).dump(2) + "\n");
    else emit(doctor_text(r, kVersion));
    return r.ok ? 0 : 1;
  }
  if (auto error = select_agents(s, o.ids)) {
    std::fprintf(stderr, "hip-smi: %s\n", error->c_str());
    return 2;
  }
  switch (o.format) {
    case Format::kJson: emit(topo_json(s, kVersion).dump(2) + "\n"); break;
    case Format::kCsv: emit(topo_csv(s)); break;
    case Format::kTable: emit(topo_table(s, kVersion)); break;
  }
  return 0;
}

}  // namespace
}  // namespace weft::smi

int main(int argc, char** argv) {
  int rc = weft::smi::run(argc, argv);
  std::fflush(stdout);
  std::fflush(stderr);
  // A device query that missed its deadline may still be running on a detached
  // thread: leave without joining it or running static destructors under it.
  ::_exit(rc);
}
