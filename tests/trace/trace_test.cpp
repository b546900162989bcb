// SPDX-License-Identifier: MIT
// WEFT_TRACE: runs tests/trace/trace_workload as a child with the variable set
// (weft reads it when the library loads), then parses the trace with a strict
// JSON parser and checks it against the Trace Event Format: required fields per
// phase, properly nested complete events per thread, device work on named
// device tracks, flows from API slices to device slices, windows, the cap.
#include "hip_test.hpp"
#include "strict_json.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

using strict_json::Value;

// Runs the workload in `mode` with the extra environment; returns its exit status.
constexpr int kSkipped = 77;  // the workload's agent cannot run its kernels

int run_workload(const std::string& mode, const std::vector<std::string>& extra_env) {
  const char* exe = std::getenv("WEFT_TRACE_WORKLOAD");
  REQUIRE(exe != nullptr);
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "WEFT_TRACE", 10) != 0) env_text.emplace_back(*e);
  env_text.insert(env_text.end(), extra_env.begin(), extra_env.end());
  std::vector<char*> envp;
  for (auto& s : env_text) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string arg0 = exe, arg1 = mode;
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid;
  REQUIRE(posix_spawn(&pid, exe, nullptr, nullptr, argv, envp.data()) == 0);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string temp_path(const std::string& tag) {
  return (std::filesystem::temp_directory_path() /
          ("weft-trace-test-" + std::to_string(getpid()) + "-" + tag + ".json"))
      .string();
}

Value load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(path);
  return strict_json::parse(text.str());
}

int64_t ns(const Value& us) { return std::llround(us.number() * 1000.0); }

struct Slice {
  int64_t pid, tid, begin, end;
  std::string name, cat;
  const Value* event;
};

struct Trace {
  std::vector<Slice> slices;
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names;
  std::vector<std::string> process_names;
  std::map<int64_t, std::vector<const Value*>> flow_starts, flow_ends;
  Value root;
};

bool is_device(const Slice& s) { return s.cat != "api"; }

// Checks the required fields of every event; collects slices, names and flows.
Trace index_trace(Value root) {
  Trace t;
  t.root = std::move(root);
  REQUIRE(t.root.is_object());
  REQUIRE(t.root["traceEvents"].is_array());
  for (const Value& e : t.root["traceEvents"].array()) {
    REQUIRE(e.is_object());
    REQUIRE(e["ph"].is_string());
    REQUIRE(e["pid"].is_number());
    const std::string& ph = e["ph"].string();
    INFO("event phase " << ph);
    if (ph == "X") {
      REQUIRE(e["name"].is_string());
      REQUIRE(e["cat"].is_string());
      REQUIRE(e["tid"].is_number());
      REQUIRE(e["ts"].is_number());
      REQUIRE(e["dur"].is_number());
      REQUIRE(e["dur"].number() >= 0);
      REQUIRE(e["args"].is_object());
      int64_t begin = ns(e["ts"]);
      t.slices.push_back(Slice{int64_t(e["pid"].number()), int64_t(e["tid"].number()), begin,
                               begin + ns(e["dur"]), e["name"].string(), e["cat"].string(), &e});
    } else if (ph == "M") {
      REQUIRE(e["name"].is_string());
      REQUIRE(e["args"].is_object());
      const std::string& what = e["name"].string();
      if (what == "thread_name") {
        REQUIRE(e["tid"].is_number());
        REQUIRE(e["args"]["name"].is_string());
        t.thread_names[{int64_t(e["pid"].number()), int64_t(e["tid"].number())}] =
            e["args"]["name"].string();
      } else if (what == "process_name") {
        REQUIRE(e["args"]["name"].is_string());
        t.process_names.push_back(e["args"]["name"].string());
      } else {
        REQUIRE(what == "thread_sort_index");
        REQUIRE(e["args"]["sort_index"].is_number());
      }
    } else if (ph == "s" || ph == "f") {
      REQUIRE(e["name"].is_string());
      REQUIRE(e["cat"].is_string());
      REQUIRE(e["id"].is_number());
      REQUIRE(e["tid"].is_number());
      REQUIRE(e["ts"].is_number());
      if (ph == "f") REQUIRE(e["bp"].string() == "e");
      (ph == "s" ? t.flow_starts : t.flow_ends)[int64_t(e["id"].number())].push_back(&e);
    } else {
      FAIL("unexpected phase " << ph);
    }
  }
  return t;
}

// Complete events on one thread must nest: each one either ends before the next
// starts or contains it entirely.
void check_nesting(const Trace& t) {
  std::map<std::pair<int64_t, int64_t>, std::vector<const Slice*>> by_thread;
  for (const Slice& s : t.slices) by_thread[{s.pid, s.tid}].push_back(&s);
  for (auto& [thread, slices] : by_thread) {
    std::sort(slices.begin(), slices.end(), [](const Slice* a, const Slice* b) {
      return a->begin != b->begin ? a->begin < b->begin : a->end > b->end;
    });
    std::vector<const Slice*> open;
    for (const Slice* s : slices) {
      while (!open.empty() && open.back()->end <= s->begin) open.pop_back();
      if (!open.empty()) {
        INFO("thread " << thread.second << ": " << s->name << " [" << s->begin << ", " << s->end
                       << "] inside " << open.back()->name << " [" << open.back()->begin << ", "
                       << open.back()->end << "]");
        REQUIRE(s->end <= open.back()->end);
      }
      open.push_back(s);
    }
  }
}

// The innermost slice on (pid, tid) that contains `ts`.
const Slice* enclosing(const Trace& t, int64_t pid, int64_t tid, int64_t ts) {
  const Slice* best = nullptr;
  for (const Slice& s : t.slices)
    if (s.pid == pid && s.tid == tid && s.begin <= ts && ts <= s.end &&
        (!best || s.end - s.begin < best->end - best->begin))
      best = &s;
  return best;
}

void check_flows(const Trace& t) {
  REQUIRE(t.flow_starts.size() == t.flow_ends.size());
  for (auto& [id, starts] : t.flow_starts) {
    INFO("flow " << id);
    REQUIRE(starts.size() == 1);
    REQUIRE(t.flow_ends.count(id) == 1);
    REQUIRE(t.flow_ends.at(id).size() == 1);
    const Value& s = *starts[0];
    const Value& f = *t.flow_ends.at(id)[0];
    const Slice* from =
        enclosing(t, int64_t(s["pid"].number()), int64_t(s["tid"].number()), ns(s["ts"]));
    const Slice* to =
        enclosing(t, int64_t(f["pid"].number()), int64_t(f["tid"].number()), ns(f["ts"]));
    REQUIRE(from != nullptr);
    REQUIRE(to != nullptr);
    CHECK(from->cat == "api");
    CHECK(is_device(*to));
    CHECK(to->begin == ns(f["ts"]));
  }
}

std::vector<const Slice*> named(const Trace& t, const std::string& part, const std::string& cat) {
  std::vector<const Slice*> out;
  for (const Slice& s : t.slices)
    if (s.cat == cat && s.name.find(part) != std::string::npos) out.push_back(&s);
  return out;
}

const Value& args_of(const Slice* s) { return (*s->event)["args"]; }

}  // namespace

TEST_CASE("the strict JSON parser accepts valid and rejects invalid documents") {
  CHECK(strict_json::parse(R"({"a":[1,-2.5e3,true,false,null,"\u00e9\ud83d\ude00\n"]})")["a"]
            .array()
            .size() == 6);
  CHECK(strict_json::parse("\"\xc3\xa9\"").string() == "\xc3\xa9");
  for (const char* bad :
       {"", "{", "[1,]", "{\"a\":1,}", "01", "1.", "[1] x", "{'a':1}", "\"\x01\"", "\"\\ud800\"",
        "\"\xff\"", "\"\xc0\xaf\"", "NaN", "{\"a\":1,\"a\":2}", "[1 2]"}) {
    INFO("input: " << bad);
    CHECK_THROWS_AS(strict_json::parse(bad), strict_json::Error);
  }
}

TEST_CASE("WEFT_TRACE records a multi-thread, multi-stream program as a valid trace") {
  std::string path = temp_path("streams");
  int rc = run_workload("streams", {"WEFT_TRACE=" + path});
  if (rc == kSkipped) {
    std::filesystem::remove(path);
    return hip_test::skip("the agent cannot run single-source kernels");
  }
  REQUIRE(rc == 0);
  Trace t = index_trace(load(path));

  check_nesting(t);
  check_flows(t);
  REQUIRE(t.process_names.size() == 1);
  CHECK(t.root["otherData"]["dropped_events"].number() == 0);

  // Every slice's track is named; device tracks say which agent and stream.
  std::set<int64_t> api_threads;
  for (const Slice& s : t.slices) {
    INFO(s.name << " on tid " << s.tid);
    REQUIRE(t.thread_names.count({s.pid, s.tid}) == 1);
    if (is_device(s)) {
      CHECK(t.thread_names.at({s.pid, s.tid}).find(" / ") != std::string::npos);
      CHECK(s.begin <= s.end);
      CHECK(ns(args_of(&s)["queued_us"]) <= s.begin);
    } else {
      api_threads.insert(s.tid);
      CHECK(args_of(&s)["result"].string() == "hipSuccess");
      CHECK(args_of(&s)["args"].is_string());
    }
  }
  CHECK(api_threads.size() >= 3);  // main thread, producer, consumer

  // The device work the program did, with its arguments. Two launches each
  // directly, two each through the graph (launched twice).
  auto scales = named(t, "trace_scale", "kernel");
  auto adds = named(t, "trace_add", "kernel");
  CHECK(scales.size() == 3);
  CHECK(adds.size() == 3);
  for (const Slice* k : scales) {
    CHECK(args_of(k)["grid"].array()[0].number() == 16);
    CHECK(args_of(k)["block"].array()[0].number() == 256);
  }
  const double bytes = 4096 * sizeof(int);
  for (const char* kind : {"copy HtoD", "copy DtoH", "copy DtoD"}) {
    auto copies = named(t, kind, "copy");
    INFO(kind);
    REQUIRE(!copies.empty());
    for (const Slice* c : copies) CHECK(args_of(c)["bytes"].number() == bytes);
  }
  CHECK(named(t, "copy DtoH", "copy").size() == 5);  // 2 async, 2 in graph launches, 1 hipMemcpy
  auto fills = named(t, "fill", "fill");
  REQUIRE(fills.size() == 2);
  for (const Slice* f : fills) CHECK(args_of(f)["bytes"].number() == bytes);
  CHECK(named(t, "event record", "event").size() == 1);
  CHECK(named(t, "event wait", "event").size() == 1);

  // Each graph launch is one slice on the stream's track around its nodes.
  auto graphs = named(t, "graph launch", "graph");
  REQUIRE(graphs.size() == 2);
  for (const Slice* g : graphs) {
    CHECK(args_of(g)["nodes"].number() == 3);
    int inside = 0;
    for (const Slice& s : t.slices)
      if (&s != g && s.tid == g->tid && g->begin <= s.begin && s.end <= g->end) ++inside;
    CHECK(inside == 3);
  }
  // The API calls, each a slice, the asynchronous ones with a flow to their work.
  for (const char* api : {"hipLaunchKernelGGL", "hipMemcpyAsync", "hipMemsetAsync",
                          "hipMemsetD32Async", "hipEventRecord", "hipStreamWaitEvent",
                          "hipGraphLaunch", "hipStreamSynchronize", "hipMemcpy"}) {
    INFO(api);
    CHECK(!named(t, api, "api").empty());
  }
  CHECK(t.flow_starts.size() >= 14);  // every op submitted from an API call, a graph launch as one
}

TEST_CASE("hipProfilerStart/Stop open and close the recording window") {
  std::string path = temp_path("window");
  int rc = run_workload("window", {"WEFT_TRACE=" + path});
  if (rc == kSkipped) {
    std::filesystem::remove(path);
    return hip_test::skip("the agent cannot run single-source kernels");
  }
  REQUIRE(rc == 0);
  Trace t = index_trace(load(path));
  check_nesting(t);
  check_flows(t);
  CHECK(named(t, "inside_window", "kernel").size() == 1);
  CHECK(named(t, "before_window", "kernel").empty());
  CHECK(named(t, "after_window", "kernel").empty());
  CHECK(named(t, "hipMalloc", "api").empty());  // before the window
  CHECK(named(t, "hipFree", "api").empty());    // after it
  CHECK(named(t, "hipDeviceSynchronize", "api").size() == 1);
  CHECK(t.root["otherData"]["windows"].number() == 1);
}

TEST_CASE("without WEFT_TRACE hipProfilerStart/Stop succeed") {
  int rc = run_workload("window", {});
  if (rc == kSkipped) return hip_test::skip("the agent cannot run single-source kernels");
  REQUIRE(rc == 0);
}

TEST_CASE("a full trace buffer drops events, counts them and stays valid") {
  std::string path = temp_path("cap");
  int rc = run_workload("streams", {"WEFT_TRACE=" + path, "WEFT_TRACE_MAX_EVENTS=10"});
  if (rc == kSkipped) {
    std::filesystem::remove(path);
    return hip_test::skip("the agent cannot run single-source kernels");
  }
  REQUIRE(rc == 0);
  Trace t = index_trace(load(path));
  CHECK(t.slices.size() <= 10);
  CHECK(t.root["otherData"]["dropped_events"].number() > 0);
  CHECK(t.root["otherData"]["max_events"].number() == 10);
}

TEST_CASE("a WEFT_TRACE path that cannot be written leaves the program working") {
  int rc = run_workload("window", {"WEFT_TRACE=/nonexistent-dir/trace.json"});
  if (rc == kSkipped) return hip_test::skip("the agent cannot run single-source kernels");
  REQUIRE(rc == 0);
}
