// SPDX-License-Identifier: MIT
// hip-smi's pure pieces: the kernel text formats, naming rules, JSON and CSV
// writing, agent selection.
#define CATCH_CONFIG_MAIN
#include "parse.hpp"

#include <catch2/catch.hpp>

#include "json.hpp"
#include "options.hpp"
#include "probe_weft.hpp"
#include "sysroot.hpp"
#include "views.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace weft::smi;

TEST_CASE("gfx names follow major, hex minor, hex stepping") {
  CHECK(gfx_name(90010) == "gfx90a");
  CHECK(gfx_name(90402) == "gfx942");
  CHECK(gfx_name(110000) == "gfx1100");
  CHECK(gfx_name(110502) == "gfx1152");
  CHECK(gfx_name(100300) == "gfx1030");
  CHECK(gfx_name(0).empty());
}

TEST_CASE("pp_dpm levels: the starred line is current, S: is not a level") {
  DpmLevels l = parse_dpm_levels("0: 500Mhz\n1: 1300Mhz *\n2: 2100Mhz\n");
  CHECK(l.mhz == std::vector<uint32_t>{500, 1300, 2100});
  REQUIRE(l.current);
  CHECK(*l.current == 1300);
  CHECK(*l.max() == 2100);

  DpmLevels sleep = parse_dpm_levels("S: 19Mhz *\n0: 600Mhz\n1: 2900Mhz\n");
  CHECK(sleep.mhz == std::vector<uint32_t>{600, 2900});
  CHECK(*sleep.current == 19);

  DpmLevels none = parse_dpm_levels("0: 500Mhz\n1: 1300Mhz\n");
  CHECK_FALSE(none.current);
  CHECK_FALSE(parse_dpm_levels("").max());
}

TEST_CASE("range lists round-trip") {
  CHECK(parse_range_list("0-3,8,10-11\n") == std::vector<int>{0, 1, 2, 3, 8, 10, 11});
  CHECK(parse_range_list("").empty());
  CHECK(parse_range_list("5") == std::vector<int>{5});
  CHECK(format_range_list({0, 1, 2, 3, 8, 10, 11}) == "0-3,8,10-11");
  CHECK(format_range_list({3, 1, 2, 2}) == "1-3");
  CHECK(format_range_list({}).empty());
}

TEST_CASE("/proc/stat: total of the first eight fields, idle plus iowait") {
  auto t = parse_proc_stat("cpu  100 5 50 800 20 1 2 3 40 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n");
  REQUIRE(t);
  CHECK(t->total == 100 + 5 + 50 + 800 + 20 + 1 + 2 + 3);
  CHECK(t->idle == 820);
  CHECK_FALSE(parse_proc_stat("intr 1 2 3\n"));
}

TEST_CASE("meminfo in bytes, node files too") {
  auto m =
      parse_meminfo("MemTotal:       1000 kB\nMemAvailable:    500 kB\nHugePages_Total:       0\n");
  CHECK(m["MemTotal"] == 1024000);
  CHECK(m["MemAvailable"] == 512000);
  CHECK(m["HugePages_Total"] == 0);
  auto n = parse_meminfo("Node 1 MemTotal:       2 kB\nNode 1 MemFree:  1 kB\n");
  CHECK(n["MemTotal"] == 2048);
  CHECK(n["MemFree"] == 1024);
}

TEST_CASE("KFD properties parse by key") {
  Properties p("cpu_cores_count 0\nsimd_count 1216\nunique_id 18446744073709551615\n");
  CHECK(p.get("simd_count") == 1216);
  CHECK(p.get("unique_id") == UINT64_MAX);
  CHECK(p.get("missing", 7) == 7);
  CHECK_FALSE(p.has("num_xcc"));
}

TEST_CASE("PCI bus IDs") {
  CHECK(format_bdf(0, 0x0500) == "0000:05:00.0");
  CHECK(format_bdf(1, (0xc5 << 8) | (0 << 3) | 1) == "0001:c5:00.1");
  CHECK(normalize_bdf("00000000:9A:00.0") == "0000:9a:00.0");
  CHECK(normalize_bdf("18:00.0") == "0000:18:00.0");
  CHECK(normalize_bdf("0000:03:00.0") == "0000:03:00.0");
}

TEST_CASE("link speeds and numbers") {
  CHECK(*parse_link_speed("16.0 GT/s PCIe") == 16.0);
  CHECK(*parse_link_speed("2.5 GT/s") == 2.5);
  CHECK_FALSE(parse_link_speed("Unknown"));
  CHECK(*parse_u64("0x1002") == 0x1002);
  CHECK(*parse_int("-1") == -1);
  CHECK_FALSE(parse_u64("12abc"));
  CHECK_FALSE(parse_int(""));
}

TEST_CASE("amdgpu.ids needs device and revision to match") {
  const char* ids =
      "# comment\n1.0.0\n744C,\tC8,\tAMD Radeon RX 7900 XTX\n744C,\tCC,\tAMD Radeon RX 7900 XT\n"
      "74A1,\t00,\tAMD Instinct MI300X, OAM\n";
  CHECK(lookup_amdgpu_ids(ids, 0x744c, 0xc8) == "AMD Radeon RX 7900 XTX");
  CHECK(lookup_amdgpu_ids(ids, 0x744c, 0xcc) == "AMD Radeon RX 7900 XT");
  CHECK(lookup_amdgpu_ids(ids, 0x744c, 0x00).empty());
  CHECK(lookup_amdgpu_ids(ids, 0x74a1, 0x00) == "AMD Instinct MI300X, OAM");
}

TEST_CASE("byte counts of 2^62 and more are unknown, never 16 EB") {
  CHECK(*sane_bytes(1024) == 1024);
  CHECK_FALSE(sane_bytes(~0ull));
  CHECK_FALSE(sane_bytes(1ull << 62));
}

TEST_CASE("natural order puts node2 before node10") {
  CHECK(natural_less("node2", "node10"));
  CHECK_FALSE(natural_less("node10", "node2"));
  CHECK(natural_less("a", "b"));
  CHECK(natural_less("hwmon1", "hwmon1a"));
}

TEST_CASE("JSON keeps key order, escapes, prints null for unknowns") {
  Json j = Json::object();
  j["b"] = 1;
  j["a"] = std::optional<double>();
  j["s"] = "quote\" back\\ nl\n tab\t \x01";
  j["d"] = 12.5;
  j["big"] = uint64_t{18446744073709551615ull};
  Json arr = Json::array();
  arr.push_back(1);
  arr.push_back("x");
  j["arr"] = arr;
  CHECK(
      j.dump() ==
      R"({"b":1,"a":null,"s":"quote\" back\\ nl\n tab\t \u0001","d":12.5,"big":18446744073709551615,"arr":[1,"x"]})");
  CHECK(Json::object().dump(2) == "{}");
}

TEST_CASE("CSV quotes only where needed") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
}

TEST_CASE("agent selection by index, kind, bus ID and UUID") {
  Snapshot s;
  for (int k = 0; k < 3; ++k) {
    Agent a;
    a.index = k;
    a.key = "k" + std::to_string(k);
    a.kind = k < 2 ? AgentKind::kGpu : AgentKind::kCpu;
    if (k < 2) a.bus_id = k == 0 ? "0000:05:00.0" : "0000:26:00.0";
    if (k == 1) a.uuid = "GPU-ABC";
    s.agents.push_back(a);
  }
  s.processes.push_back(Process{"k0", 0, 1, "p", "compute", {}});
  s.processes.push_back(Process{"k1", 1, 2, "q", "compute", {}});

  Snapshot by_bus = s;
  REQUIRE_FALSE(select_agents(by_bus, {"26:00.0"}));
  REQUIRE(by_bus.agents.size() == 1);
  CHECK(by_bus.agents[0].index == 1);
  CHECK(by_bus.processes.size() == 1);

  Snapshot by_kind = s;
  REQUIRE_FALSE(select_agents(by_kind, {"CPU", "0"}));
  CHECK(by_kind.agents.size() == 2);

  Snapshot by_uuid = s;
  REQUIRE_FALSE(select_agents(by_uuid, {"gpu-abc"}));
  CHECK(by_uuid.agents.size() == 1);

  Snapshot none = s;
  CHECK(select_agents(none, {"7"}));
}

TEST_CASE("JSON strings: well-formed UTF-8 passes, other bytes become \\u00XX") {
  auto quoted = [](std::string_view text) {
    std::string out;
    append_json_string(out, text);
    return out;
  };
  CHECK(quoted("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
        "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  CHECK(quoted("Gold \xe9"
               "dition") == "\"Gold \\u00e9dition\"");                      // Latin-1 byte
  CHECK(quoted("cut \xe2\x82") == "\"cut \\u00e2\\u0082\"");                // truncated sequence
  CHECK(quoted("\xc0\xaf") == "\"\\u00c0\\u00af\"");                        // overlong '/'
  CHECK(quoted("\xed\xa0\x80") == "\"\\u00ed\\u00a0\\u0080\"");             // a UTF-16 surrogate
  CHECK(quoted("\xf4\x90\x80\x80") == "\"\\u00f4\\u0090\\u0080\\u0080\"");  // above U+10FFFF
  CHECK(quoted("tab\tdel\x7f") == "\"tab\\tdel\\u007f\"");
}

namespace {
std::optional<std::string> parse_args(std::vector<std::string> args, Options& o) {
  std::vector<char*> argv;
  static char name[] = "hip-smi";
  argv.push_back(name);
  for (std::string& a : args) argv.push_back(a.data());
  return parse_options(int(argv.size()), argv.data(), o);
}
}  // namespace

TEST_CASE("options: one output format; --query and --format as nvidia-smi's") {
  Options o;
  auto error = parse_args({"--json", "--csv"}, o);
  REQUIRE(error);
  CHECK(error->find("--json and --csv cannot be combined") != std::string::npos);

  Options q;
  REQUIRE_FALSE(parse_args({"--query=name,memory.used", "--format=csv,noheader,nounits"}, q));
  CHECK(q.command == Command::kQuery);
  CHECK(q.query_fields == std::vector<std::string>{"name", "memory.used"});
  CHECK_FALSE(q.csv_header);
  CHECK_FALSE(q.csv_units);

  Options l;
  REQUIRE_FALSE(parse_args({"-L"}, l));
  CHECK(l.command == Command::kList);

  Options bad;
  CHECK(parse_args({"--query=name", "--format=json"}, bad));
  Options bad2;
  CHECK(parse_args({"--format=csv"}, bad2));
  Options bad3;
  CHECK(parse_args({"--query=name", "--json"}, bad3));
  Options bad4;
  CHECK(parse_args({"-L", "topo"}, bad4));
  CHECK(check_query_fields({"name", "memory.used", "pci.bus_id"}) == std::nullopt);
  CHECK(check_query_fields({"name", "gpu.banana"}));
}

TEST_CASE("query rows: units, [N/A] for unknown values, nounits") {
  Snapshot s;
  Agent a;
  a.index = 0;
  a.kind = AgentKind::kGpu;
  a.name = "Card, Pro";
  a.memory_used_bytes = uint64_t(3) << 30;
  a.memory_total_bytes = uint64_t(8) << 30;
  a.key = "gpu0";
  s.agents.push_back(a);
  std::vector<std::string> f = {"index", "name", "memory.used", "memory.free", "power.draw"};
  CHECK(query_csv_header(f, true) ==
        "index, name, memory.used [MiB], memory.free [MiB], power.draw [W]\n");
  CHECK(query_csv_rows(s, f, true) == "0, \"Card, Pro\", 3072 MiB, 5120 MiB, [N/A]\n");
  CHECK(query_csv_rows(s, f, false) == "0, \"Card, Pro\", 3072, 5120, [N/A]\n");
  CHECK(list_text(s) == "gpu 0: Card, Pro\n");
}

TEST_CASE("weft registrations: live ones listed, stale and reused pids ignored") {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("hip_smi_weft_" + std::to_string(::getpid()));
  fs::remove_all(root);
  auto write = [&](const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  };
  auto stat_line = [](int pid, const std::string& comm, const std::string& start) {
    std::string fields;
    for (int k = 3; k < 22; ++k) fields += k == 3 ? "S " : "0 ";
    return std::to_string(pid) + " (" + comm + ") " + fields + start + " 0 0\n";
  };
  write("run/user/1000/weft/10", "pid=10\nstart=500\nname=a\n");
  write("proc/10/stat", stat_line(10, "a) b", "500"));  // a name with ') ' in it
  write("proc/10/comm", "a) b\n");
  write("proc/10/status", "VmRSS:\t  1024 kB\n");
  write("tmp/weft-1000/10",
        "pid=10\nstart=500\nname=a\n");  // the same process in both folders: once
  write("tmp/weft-1000/11", "pid=11\nstart=600\nname=gone\n");  // no /proc/11
  write("tmp/weft-1000/12", "pid=12\nstart=700\nname=old\n");
  write("proc/12/stat", stat_line(12, "new", "701"));  // pid reused
  write("tmp/weft-1000/junk", "x\n");
  SysRoot sys(root.string());
  std::vector<Process> found = weft_processes(sys, "cpu");
  REQUIRE(found.size() == 1);
  CHECK(found[0].pid == 10);
  CHECK(found[0].name == "a) b");
  CHECK(found[0].agent_key == "cpu");
  CHECK(found[0].memory_used_bytes == std::optional<uint64_t>(1024 * 1024));
  fs::remove_all(root);
}
