// SPDX-License-Identifier: MIT
// hip-smi's pure pieces: the kernel text formats, naming rules, JSON and CSV
// writing, agent selection.
#define CATCH_CONFIG_MAIN
#include "parse.hpp"

#include <catch2/catch.hpp>

#include "json.hpp"
#include "sysroot.hpp"
#include "views.hpp"

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
