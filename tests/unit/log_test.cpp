// SPDX-License-Identifier: MIT
// The log module's pieces: line format, categories, run-time level and mask
// (what hipExtSetLoggingParams and hipExtEnable/DisableLogging call), and the
// settings parser's fallbacks and warnings.
#include <weft/common/env.hpp>
#include <weft/common/log.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <string>

namespace wlog = weft::log;
namespace env = weft::env;

TEST_CASE("Unit_Log_LineFormat") {
  CHECK(wlog::format_line(wlog::Level::kInfo, wlog::kApi,
                          "hipMalloc ( 0x1, 4 ) = hipSuccess : 1 us", 1234567, 42, 43) ==
        ":3:weft:api  : 0001234567 us: [pid:42 tid:43] hipMalloc ( 0x1, 4 ) = hipSuccess : 1 us\n");
  CHECK(wlog::format_line(wlog::Level::kError, wlog::kKernel | wlog::kCopy, "x", 12345678901, 1,
                          2) == ":1:weft:kern : 12345678901 us: [pid:1 tid:2] x\n");
}

TEST_CASE("Unit_Log_CategoriesHaveAmdBitValues") {
  CHECK(wlog::kApi == 0x1);
  CHECK(wlog::kKernel == 0x80);
  CHECK(wlog::kCopy == 0x100);
  CHECK(wlog::kInit == 0x800);
  CHECK(wlog::kMemory == 0x20000);
  CHECK(wlog::kMemoryPool == 0x40000);
  CHECK(wlog::category_name(wlog::kCopy) == "copy");
  CHECK(wlog::category_name(wlog::kMemory) == "mem");
  CHECK(wlog::category_name(0) == "misc");
}

TEST_CASE("Unit_Log_ApiCategoryFromName") {
  CHECK(wlog::api_category("hipLaunchKernel") == wlog::kKernel);
  CHECK(wlog::api_category("hipModuleLaunchKernel") == wlog::kKernel);
  CHECK(wlog::api_category("hipGraphLaunch") == wlog::kCommand);
  CHECK(wlog::api_category("hipGraphAddKernelNode") == 0u);
  CHECK(wlog::api_category("hipMemcpy2DAsync") == wlog::kCopy);
  CHECK(wlog::api_category("hipMemsetD32") == wlog::kCopy);
  CHECK(wlog::api_category("hipMalloc") == wlog::kMemory);
  CHECK(wlog::api_category("hipHostFree") == wlog::kMemory);
  CHECK(wlog::api_category("hipMallocAsync") == wlog::kMemoryPool);
  CHECK(wlog::api_category("hipMemPoolCreate") == wlog::kMemoryPool);
  CHECK(wlog::api_category("hipStreamSynchronize") == wlog::kWait);
  CHECK(wlog::api_category("hipModuleLoadData") == wlog::kCode);
  CHECK(wlog::api_category("hipGetDeviceCount") == 0u);
}

TEST_CASE("Unit_Log_RunTimeLevelAndMask") {
  const wlog::Level saved_level = wlog::level();
  const uint32_t saved_mask = wlog::mask();
  wlog::set_level(3);
  wlog::set_mask(wlog::kCopy);
  CHECK(wlog::level() == wlog::Level::kInfo);
  CHECK(wlog::enabled(wlog::Level::kInfo, wlog::kCopy));
  CHECK_FALSE(wlog::enabled(wlog::Level::kInfo, wlog::kApi));
  CHECK(wlog::enabled(wlog::Level::kInfo, wlog::kApi | wlog::kCopy));
  CHECK_FALSE(wlog::enabled(wlog::Level::kDebug, wlog::kCopy));
  // Errors and warnings ignore the mask.
  wlog::set_mask(0);
  CHECK(wlog::enabled(wlog::Level::kError, wlog::kApi));
  CHECK(wlog::enabled(wlog::Level::kWarning, wlog::kApi));
  CHECK_FALSE(wlog::enabled(wlog::Level::kInfo, wlog::kApi));

  wlog::set_enabled(false);
  CHECK(wlog::level() == wlog::Level::kOff);
  CHECK_FALSE(wlog::enabled(wlog::Level::kError, wlog::kApi));
  wlog::set_enabled(true);
  CHECK(wlog::level() == wlog::Level::kInfo);  // level kept while disabled

  wlog::set_level(0);
  wlog::set_enabled(true);  // enabling with nothing chosen turns on level 3
  CHECK(wlog::level() == wlog::Level::kInfo);
  wlog::set_level(99);
  CHECK(wlog::level() == wlog::Level::kExtraDebug);
  wlog::set_level(-4);
  CHECK(wlog::level() == wlog::Level::kOff);

  wlog::set_level(static_cast<int>(saved_level));
  wlog::set_mask(saved_mask);
}

namespace {
std::map<std::string, std::string>* fake_env = nullptr;
const char* fake_lookup(const char* name) {
  auto it = fake_env->find(name);
  return it == fake_env->end() ? nullptr : it->second.c_str();
}
env::Settings parse_with(std::map<std::string, std::string> vars) {
  fake_env = &vars;
  env::Settings s = env::parse(fake_lookup);
  fake_env = nullptr;
  return s;
}
}  // namespace

TEST_CASE("Unit_Settings_ValidValues") {
  env::Settings s = parse_with({{"AMD_LOG_LEVEL", "4"},
                                {"AMD_LOG_MASK", "0x180"},
                                {"WEFT_CPU_WORKERS", "3"},
                                {"WEFT_CPU_STACK_SIZE", "65536"},
                                {"AMD_SERIALIZE_KERNEL", "2"},
                                {"WEFT_CPU_AGENT", "0"}});
  CHECK(s.log_level == 4);
  CHECK(s.log_level_set);
  CHECK(s.log_mask == 0x180u);
  CHECK(s.cpu_workers == 3u);
  CHECK(s.cpu_fiber_stack_bytes == 65536u);
  CHECK(s.launch_blocking);
  CHECK_FALSE(s.cpu_agent);
  CHECK(s.warnings.empty());
}

TEST_CASE("Unit_Settings_WeftLogLevelWins") {
  env::Settings s = parse_with({{"AMD_LOG_LEVEL", "1"}, {"WEFT_LOG_LEVEL", "3"}});
  CHECK(s.log_level == 3);
}

TEST_CASE("Unit_Settings_InvalidValuesWarnAndFallBack") {
  env::Settings s = parse_with({{"AMD_LOG_LEVEL", "9"},
                                {"AMD_LOG_MASK", "x"},
                                {"WEFT_CPU_WORKERS", "abc"},
                                {"WEFT_CPU_STACK_SIZE", "1024"},
                                {"AMD_SERIALIZE_KERNEL", "-1"},
                                {"WEFT_CPU_AGENT", "2"},
                                {"HIP_LAUNCH_BLOCKING", "on"}});
  CHECK(s.log_level == 5);
  CHECK(s.log_mask == wlog::kDefaultMask);
  CHECK(s.cpu_workers == 0u);
  CHECK(s.cpu_fiber_stack_bytes == 256u * 1024);
  CHECK_FALSE(s.launch_blocking);
  CHECK(s.cpu_agent);
  REQUIRE(s.warnings.size() == 7);
  CHECK(s.warnings[0] == "AMD_LOG_LEVEL=9 is outside 0..5; using 5");
  CHECK(s.warnings[1] == "AMD_LOG_MASK=x is not an integer; using 0x7fffffff (every category)");
  CHECK(s.warnings[4] == "WEFT_CPU_AGENT=2 is not 0 or 1; using 1 (CPU agent shown)");
  CHECK(s.warnings[5] ==
        "WEFT_CPU_WORKERS=abc is not an integer; using one worker per usable core");
}

TEST_CASE("Unit_Settings_UnsetAndEmptyAreSilent") {
  env::Settings s = parse_with({{"WEFT_CPU_WORKERS", ""}});
  CHECK(s.warnings.empty());
  CHECK_FALSE(s.log_level_set);
  CHECK(s.log_level == 0);
}
