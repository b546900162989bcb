// SPDX-License-Identifier: MIT
// bench/cuda_overhead: the cost weft adds on an NVIDIA GPU. The same operations
// side by side, in one process and one run, through
//   driver  raw CUDA driver calls (libcuda through a dlsym'd table, no weft logic)
//   cudart  the CUDA runtime (cudart_side.cu, built by nvcc, cudart linked statically)
//   weft    the HIP API of libamdhip64 (weft's core + its NVIDIA driver)
//   layer   weft's NVIDIA driver alone (Queue::submit etc., no HIP core)
// and prints one table of medians with ratios. `--cold MODE` is the child used
// for the cold-start rows (a fresh process per sample).
//
// Usage: cuda_overhead [--quick] [--calls]     (kernels.cubin next to the binary)
//   --calls  only the per-call rows (launches, launch + sync, event round trip):
//            what the H200 runs alternate between two libamdhip64 builds
#include <hip/hip_runtime_api.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api.hpp"
#include "device.hpp"

extern "C" {
int rt_init();
int rt_stream_create(void** s);
int rt_stream_sync(void* s);
int rt_device_sync();
int rt_launch(void* s, float* p, int n);
int rt_malloc(void** p, size_t n);
int rt_free(void* p);
int rt_host_alloc(void** p, size_t n);
int rt_host_free(void* p);
int rt_memcpy_async(void* dst, const void* src, size_t n, void* s);
int rt_event_create(void** e);
int rt_event_record_sync(void* e, void* s);
int rt_library_load_unload(const void* image);
}

// The registration ABI hipcc's module constructors call (<<<>>> and hipLaunchKernel
// launch what they registered); the bench registers kernels.cubin by hand.
extern "C" {
void** __hipRegisterFatBinary(const void* data);
void __hipRegisterFunction(void** modules, const void* hostFunction, char* deviceFunction,
                           const char* deviceName, unsigned int threadLimit, uint3* tid, uint3* bid,
                           dim3* blockDim, dim3* gridDim, int* wSize);
}

namespace weft::cuda {
std::unique_ptr<Driver> make_driver();
}

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
bool g_quick = false;
bool g_calls_only = false;

// Stands for bench_kernel's host stub: the address hipLaunchKernel is given.
void registered_kernel_stub() {}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "cuda_overhead: %s\n", what.c_str());
  std::exit(1);
}
void check_cu(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) die(std::string(what) + " failed: CUresult " + std::to_string(r));
}
void check_rt(int r, const char* what) {
  if (r != 0) die(std::string(what) + " failed: cudaError " + std::to_string(r));
}
void check_hip(hipError_t r, const char* what) {
  if (r != hipSuccess) die(std::string(what) + " failed: " + hipGetErrorName(r));
}
void check_ok(const weft::Status& s, const char* what) {
  if (!s.ok()) die(std::string(what) + " failed: " + s.message());
}

uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

std::filesystem::path binary_dir() {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path();
}

std::vector<std::byte> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) die("cannot read " + path.string());
  std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(c.size());
  std::memcpy(out.data(), c.data(), c.size());
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Median over `reps` batches of the per-call time (µs) of `batch` calls of f;
// `after` runs outside the timed region after each batch (a sync).
double per_call_us(int reps, int batch, const std::function<void()>& f,
                   const std::function<void()>& after) {
  std::vector<double> samples;
  for (int r = 0; r < reps + 2; ++r) {  // two warm-up batches
    auto t0 = Clock::now();
    for (int i = 0; i < batch; ++i) f();
    auto t1 = Clock::now();
    after();
    if (r >= 2)
      samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / batch);
  }
  return median(samples);
}

// The same, for several paths at once, interleaved batch by batch (A B C A B C …)
// so drifts in clocks or background load hit every path alike. Paths that are
// null get no sample. Returns one median per path.
std::vector<std::optional<double>> per_call_us_interleaved(
    int reps, int batch, const std::vector<std::function<void()>>& calls,
    const std::vector<std::function<void()>>& afters) {
  std::vector<std::vector<double>> samples(calls.size());
  for (int r = 0; r < reps + 2; ++r) {
    for (size_t p = 0; p < calls.size(); ++p) {
      if (!calls[p]) continue;
      auto t0 = Clock::now();
      for (int i = 0; i < batch; ++i) calls[p]();
      auto t1 = Clock::now();
      if (afters[p]) afters[p]();
      if (r >= 2)
        samples[p].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / batch);
    }
  }
  std::vector<std::optional<double>> out;
  for (auto& v : samples)
    out.push_back(v.empty() ? std::nullopt : std::optional<double>(median(v)));
  return out;
}

// Median bandwidth (GB/s) of `bytes` moved by f (which includes its sync).
double bandwidth_gbs(int reps, double bytes, const std::function<void()>& f) {
  std::vector<double> samples;
  f();  // warm-up
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    f();
    double s = std::chrono::duration<double>(Clock::now() - t0).count();
    samples.push_back(bytes / s / 1e9);
  }
  return median(samples);
}

// ---- One row of the table ------------------------------------------------------------

struct Row {
  std::string name;
  std::string unit;  // "us" (lower is better) or "GB/s" (higher is better)
  std::optional<double> driver, cudart, weft, layer;
  std::string target;
};

std::string cell(const std::optional<double>& v) {
  if (!v) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof(buf), *v >= 100 ? "%.0f" : *v >= 10 ? "%.1f" : "%.2f", *v);
  return buf;
}

std::string ratio(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b || *b == 0) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", *a / *b);
  return buf;
}

void print_table(const std::vector<Row>& rows) {
  std::printf(
      "\n| operation | unit | driver API | cudart | weft HIP | weft driver layer | "
      "weft/driver | weft/cudart | target |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
  for (const auto& r : rows) {
    const auto& w = r.weft ? r.weft : r.layer;
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name.c_str(), r.unit.c_str(),
                cell(r.driver).c_str(), cell(r.cudart).c_str(), cell(r.weft).c_str(),
                cell(r.layer).c_str(), ratio(w, r.driver).c_str(), ratio(w, r.cudart).c_str(),
                r.target.c_str());
  }
  std::printf(
      "\nRatios use the weft HIP column, or the driver-layer column where the HIP "
      "path is n/a.\n");
}

// ---- Cold start: a fresh process per sample -------------------------------------------

int cold_child(const std::string& mode) {
  auto image = read_file(binary_dir() / "kernels.cubin");
  float* none = nullptr;
  int n = 0;
  void* params[] = {&none, &n};
  if (mode == "driver") {
    const weft::cuda::Api* cu = weft::cuda::api();
    if (!cu) die(weft::cuda::load_error());
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    check_cu(cu->cuInit(0), "cuInit");
    check_cu(cu->cuDeviceGet(&dev, 0), "cuDeviceGet");
    check_cu(cu->cuDevicePrimaryCtxRetain(&ctx, dev), "retain");
    check_cu(cu->cuCtxSetCurrent(ctx), "set");
    check_cu(cu->cuModuleLoadData(&mod, image.data()), "load");
    check_cu(cu->cuModuleGetFunction(&f, mod, "bench_kernel"), "function");
    check_cu(cu->cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr), "launch");
    check_cu(cu->cuStreamSynchronize(nullptr), "sync");
  } else if (mode == "cudart") {
    check_rt(rt_launch(nullptr, none, n), "cudaLaunchKernel");
    check_rt(rt_device_sync(), "cudaDeviceSynchronize");
  } else if (mode == "weft") {
    hipModule_t mod;
    hipFunction_t f;
    check_hip(hipModuleLoadData(&mod, image.data()), "hipModuleLoadData");
    check_hip(hipModuleGetFunction(&f, mod, "bench_kernel"), "hipModuleGetFunction");
    check_hip(hipModuleLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr), "launch");
    check_hip(hipDeviceSynchronize(), "hipDeviceSynchronize");
  } else if (mode == "layer") {
    auto driver = weft::cuda::make_driver();
    auto devices = driver->devices();
    if (devices.empty()) die(driver->status_note());
    auto module = devices[0]->load_module(image);
    auto queue = devices[0]->create_queue(weft::QueueOptions{});
    if (!module.ok() || !queue.ok()) die("layer setup failed");
    auto kernel = module.value()->kernel("bench_kernel");
    weft::DispatchOp op;
    op.kernel = kernel.value();
    op.dims.grid = dim3(1);
    op.dims.block = dim3(32);
    op.kernarg.resize(16);
    check_ok(queue.value()->submit(std::move(op)), "submit");
    check_ok(queue.value()->synchronize(), "sync");
  } else {
    die("unknown cold mode " + mode);
  }
  std::printf("%llu\n", static_cast<unsigned long long>(monotonic_ns()));
  std::fflush(stdout);
  std::_Exit(0);  // teardown is not part of "start to first kernel done"
}

std::optional<double> cold_start_ms(const std::string& mode, int samples) {
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::vector<double> ms;
  for (int i = 0; i < samples; ++i) {
    int fds[2];
    if (pipe(fds) != 0) die("pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::string flag = "--cold";
    char* argv[] = {self.data(), flag.data(), const_cast<char*>(mode.c_str()), nullptr};
    pid_t pid;
    uint64_t t0 = monotonic_ns();
    if (posix_spawn(&pid, self.c_str(), &actions, nullptr, argv, environ) != 0) die("spawn");
    close(fds[1]);
    char buf[64] = {};
    ssize_t got = read(fds[0], buf, sizeof(buf) - 1);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    posix_spawn_file_actions_destroy(&actions);
    if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
    ms.push_back((std::strtoull(buf, nullptr, 10) - t0) / 1e6);
  }
  return median(ms);
}

// ---- The warm benchmarks --------------------------------------------------------------

struct Setup {
  const weft::cuda::Api* cu = nullptr;
  CUstream cu_stream = nullptr;
  CUfunction cu_kernel = nullptr;
  void* rt_stream = nullptr;
  hipStream_t hip_stream = nullptr;
  hipFunction_t hip_kernel = nullptr;  // null when weft's module API is not there
  bool registered = false;             // kernels.cubin registered as a fat binary
  weft::Ref<weft::Device> layer_device;
  weft::Ref<weft::Queue> layer_queue;
  weft::Ref<weft::Kernel> layer_kernel;
  std::unique_ptr<weft::Driver> layer_driver;
  std::vector<std::byte> image;
};

Setup setup() {
  Setup s;
  s.image = read_file(binary_dir() / "kernels.cubin");
  // HIP first: weft picks the GPU as device 0 and retains the primary context.
  check_hip(hipSetDevice(0), "hipSetDevice");
  hipDeviceProp_t p{};
  check_hip(hipGetDeviceProperties(&p, 0), "hipGetDeviceProperties");
  if (std::strncmp(p.gcnArchName, "sm_", 3) != 0) die("device 0 is not an NVIDIA GPU");
  std::printf("device 0: %s (%s), %d SMs\n", p.name, p.gcnArchName, p.multiProcessorCount);
  check_hip(hipStreamCreateWithFlags(&s.hip_stream, hipStreamNonBlocking), "hipStreamCreate");
  hipModule_t module = nullptr;
  hipError_t loaded = hipModuleLoadData(&module, s.image.data());
  if (loaded == hipSuccess) {
    check_hip(hipModuleGetFunction(&s.hip_kernel, module, "bench_kernel"), "hipModuleGetFunction");
  } else {
    std::printf("weft HIP module path unavailable (hipModuleLoadData: %s): HIP launch rows n/a\n",
                hipGetErrorName(loaded));
  }
  {  // kernels.cubin as a registered fat binary, as a hipcc-built program has it.
    struct Wrapper {
      uint32_t magic, version;
      const void* binary;
      const void* unused;
    };
    static Wrapper wrapper{0x48495046, 1, nullptr, nullptr};  // "HIPF"
    wrapper.binary = s.image.data();
    void** handle = __hipRegisterFatBinary(&wrapper);
    static char name[] = "bench_kernel";
    if (handle)
      __hipRegisterFunction(handle, reinterpret_cast<const void*>(&registered_kernel_stub), name,
                            name, ~0u, nullptr, nullptr, nullptr, nullptr, nullptr);
    s.registered = handle != nullptr;
  }
  // Raw driver calls on the same (primary) context.
  s.cu = weft::cuda::api();
  if (!s.cu) die(weft::cuda::load_error());
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  check_cu(s.cu->cuInit(0), "cuInit");
  check_cu(s.cu->cuDeviceGet(&dev, 0), "cuDeviceGet");
  check_cu(s.cu->cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check_cu(s.cu->cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  check_cu(s.cu->cuStreamCreateWithPriority(&s.cu_stream, CU_STREAM_NON_BLOCKING, 0),
           "cuStreamCreate");
  check_cu(s.cu->cuModuleLoadData(&mod, s.image.data()), "cuModuleLoadData");
  check_cu(s.cu->cuModuleGetFunction(&s.cu_kernel, mod, "bench_kernel"), "cuModuleGetFunction");
  // cudart.
  check_rt(rt_init(), "cudaFree(0)");
  check_rt(rt_stream_create(&s.rt_stream), "cudaStreamCreate");
  // weft's driver layer.
  s.layer_driver = weft::cuda::make_driver();
  auto devices = s.layer_driver->devices();
  if (devices.empty()) die(s.layer_driver->status_note());
  s.layer_device = devices[0];
  auto queue = s.layer_device->create_queue(weft::QueueOptions{});
  auto lmod = s.layer_device->load_module(s.image);
  if (!queue.ok() || !lmod.ok()) die("driver layer setup failed");
  s.layer_queue = queue.value();
  s.layer_kernel = lmod.value()->kernel("bench_kernel").value();
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--cold") return cold_child(argv[2]);
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--quick") g_quick = true;
    if (std::string(argv[i]) == "--calls") g_calls_only = true;
  }
  const int reps = g_quick ? 5 : 21;
  Setup s = setup();
  const weft::cuda::Api& cu = *s.cu;
  std::vector<Row> rows;

  float* none = nullptr;
  int n = 0;
  void* params[] = {&none, &n};
  auto cu_launch = [&] {
    check_cu(cu.cuLaunchKernel(s.cu_kernel, 1, 1, 1, 32, 1, 1, 0, s.cu_stream, params, nullptr),
             "cuLaunchKernel");
  };
  auto rt_launch_ = [&] { check_rt(rt_launch(s.rt_stream, none, n), "cudaLaunchKernel"); };
  auto hip_launch = [&] {
    check_hip(
        hipModuleLaunchKernel(s.hip_kernel, 1, 1, 1, 32, 1, 1, 0, s.hip_stream, params, nullptr),
        "hipModuleLaunchKernel");
  };
  auto hip_launch_null = [&] {
    check_hip(hipModuleLaunchKernel(s.hip_kernel, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr),
              "hipModuleLaunchKernel");
  };
  void* registered_args[] = {&none, &n};
  auto hip_launch_registered = [&] {
    check_hip(hipLaunchKernel(reinterpret_cast<const void*>(&registered_kernel_stub), dim3(1),
                              dim3(32), registered_args, 0, s.hip_stream),
              "hipLaunchKernel");
  };
  auto layer_launch = [&] {
    weft::DispatchOp op;
    op.kernel = s.layer_kernel;
    op.dims.grid = dim3(1);
    op.dims.block = dim3(32);
    op.kernarg.resize(12);
    std::memcpy(op.kernarg.data(), &none, 8);
    std::memcpy(op.kernarg.data() + 8, &n, 4);
    check_ok(s.layer_queue->submit(std::move(op)), "Queue::submit");
  };
  auto cu_sync = [&] { check_cu(cu.cuStreamSynchronize(s.cu_stream), "cuStreamSynchronize"); };
  auto rt_sync = [&] { check_rt(rt_stream_sync(s.rt_stream), "cudaStreamSynchronize"); };
  auto hip_sync = [&] { check_hip(hipStreamSynchronize(s.hip_stream), "hipStreamSynchronize"); };
  auto hip_null_sync = [&] { check_hip(hipStreamSynchronize(nullptr), "hipStreamSynchronize"); };
  auto layer_sync = [&] { check_ok(s.layer_queue->synchronize(), "Queue::synchronize"); };
  const bool hip = s.hip_kernel != nullptr;

  unsigned char blob[12];
  std::memcpy(blob, &none, 8);
  std::memcpy(blob + 8, &n, 4);
  size_t blob_size = sizeof(blob);
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, blob, CU_LAUNCH_PARAM_BUFFER_SIZE, &blob_size,
                   CU_LAUNCH_PARAM_END};
  auto cu_launch_extra = [&] {
    check_cu(cu.cuLaunchKernel(s.cu_kernel, 1, 1, 1, 32, 1, 1, 0, s.cu_stream, nullptr, extra),
             "cuLaunchKernel");
  };
  using Fn = std::function<void()>;
  {  // Asynchronous launches: host time per call, batches of 1000, paths interleaved.
    const int batch = 1000;
    const bool reg = s.registered;
    auto m = per_call_us_interleaved(
        reps, batch,
        {cu_launch, rt_launch_, hip ? Fn(hip_launch) : Fn(), layer_launch, cu_launch_extra,
         hip ? Fn(hip_launch_null) : Fn(), reg ? Fn(hip_launch_registered) : Fn()},
        {cu_sync, rt_sync, hip_sync, layer_sync, cu_sync, hip_null_sync, hip_sync});
    rows.push_back(Row{"kernel launch (async, per call)", "us", m[0], m[1], m[2], m[3],
                       "weft <= 1.05x driver"});
    rows.push_back(
        Row{"(driver API launch, `extra` buffer form)", "us", m[4], {}, {}, {}, "reference"});
    rows.push_back(Row{"kernel launch on the null stream",
                       "us",
                       m[0],
                       m[1],
                       m[5],
                       {},
                       "(core's legacy ordering)"});
    rows.push_back(Row{"kernel launch, hipLaunchKernel (registered)",
                       "us",
                       m[0],
                       m[1],
                       m[6],
                       {},
                       "weft <= 1.05x driver"});
  }
  {  // Launch + stream synchronize.
    const int batch = 200;
    auto m = per_call_us_interleaved(
        reps, batch,
        {[&] {
      cu_launch();
      cu_sync();
         },
         [&] {
      rt_launch_();
      rt_sync();
        },
        hip ? Fn([&] {
          hip_launch();
          hip_sync();
        })
            : Fn(),
        [&] {
      layer_launch();
      layer_sync();
        }},
        {Fn(), Fn(), Fn(), Fn()});
    rows.push_back(
        Row{"launch + stream sync", "us", m[0], m[1], m[2], m[3], "weft <= 1.05x driver"});
  }
  {  // Event record + synchronize on an idle stream.
    const int batch = 500;
    CUevent ce;
    check_cu(cu.cuEventCreate(&ce, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    void* re = nullptr;
    check_rt(rt_event_create(&re), "cudaEventCreate");
    hipEvent_t he;
    check_hip(hipEventCreateWithFlags(&he, hipEventDisableTiming), "hipEventCreate");
    weft::EventOptions untimed;
    untimed.timing = false;
    auto le = s.layer_device->create_event(untimed).value();
    auto m = per_call_us_interleaved(
        reps, batch,
        {[&] {
      check_cu(cu.cuEventRecord(ce, s.cu_stream), "cuEventRecord");
      check_cu(cu.cuEventSynchronize(ce), "cuEventSynchronize");
         },
         [&] { check_rt(rt_event_record_sync(re, s.rt_stream), "cudaEventRecord"); },
         [&] {
      check_hip(hipEventRecord(he, s.hip_stream), "hipEventRecord");
      check_hip(hipEventSynchronize(he), "hipEventSynchronize");
        },
        [&] {
      check_ok(s.layer_queue->submit(weft::EventRecordOp{le}), "record");
      check_ok(le->synchronize(), "sync");
        }},
        {Fn(), Fn(), Fn(), Fn()});
    rows.push_back(
        Row{"event record + sync", "us", m[0], m[1], m[2], m[3], "weft <= 1.05x driver"});
  }
  if (g_calls_only) {
    print_table(rows);
    return 0;
  }
  {  // Copies: bandwidth of one large copy + sync.
    const size_t big = size_t(256) << 20, d2d = size_t(1) << 30;
    const int creps = g_quick ? 3 : 7;
    void *dev = nullptr, *dev2 = nullptr, *pinned = nullptr;
    check_hip(hipMalloc(&dev, d2d), "hipMalloc");
    check_hip(hipMalloc(&dev2, d2d), "hipMalloc");
    check_hip(hipHostMalloc(&pinned, big, 0), "hipHostMalloc");
    std::vector<char> pageable(big, 1);
    struct Kind {
      const char* name;
      void* dst;
      const void* src;
      size_t bytes;
      double counted;
      const char* target;
    };
    Kind kinds[] = {
        {"pinned H2D 256 MiB", dev, pinned, big, double(big), "weft >= 0.97x cudart"},
        {"pinned D2H 256 MiB", pinned, dev, big, double(big), "weft >= 0.97x cudart"},
        {"pageable H2D 256 MiB", dev, pageable.data(), big, double(big), "weft >= 0.97x cudart"},
        {"pageable D2H 256 MiB", pageable.data(), dev, big, double(big), "weft >= 0.97x cudart"},
        {"D2D 1 GiB (read+write)", dev2, dev, d2d, 2.0 * d2d, "weft >= 0.97x cudart"},
    };
    for (const Kind& k : kinds) {
      Row r{k.name, "GB/s", {}, {}, {}, {}, k.target};
      r.driver = bandwidth_gbs(creps, k.counted, [&] {
        check_cu(cu.cuMemcpyAsync(CUdeviceptr(k.dst), CUdeviceptr(k.src), k.bytes, s.cu_stream),
                 "cuMemcpyAsync");
        cu_sync();
      });
      r.cudart = bandwidth_gbs(creps, k.counted, [&] {
        check_rt(rt_memcpy_async(k.dst, k.src, k.bytes, s.rt_stream), "cudaMemcpyAsync");
        rt_sync();
      });
      r.weft = bandwidth_gbs(creps, k.counted, [&] {
        check_hip(hipMemcpyAsync(k.dst, k.src, k.bytes, hipMemcpyDefault, s.hip_stream),
                  "hipMemcpyAsync");
        hip_sync();
      });
      rows.push_back(r);
    }
    check_hip(hipFree(dev), "hipFree");
    check_hip(hipFree(dev2), "hipFree");
    check_hip(hipHostFree(pinned), "hipHostFree");
  }
  {  // Loading a small cubin (load + unload).
    const int batch = 20;
    auto nothing = [] {};
    Row r{"module load + unload (small cubin)", "us", {}, {}, {}, {}, "-"};
    r.driver = per_call_us(
        reps, batch,
        [&] {
      CUmodule m;
      check_cu(cu.cuModuleLoadData(&m, s.image.data()), "cuModuleLoadData");
      check_cu(cu.cuModuleUnload(m), "cuModuleUnload");
        },
        nothing);
    r.cudart = per_call_us(
        reps, batch,
        [&] { check_rt(rt_library_load_unload(s.image.data()), "cudaLibraryLoadData"); }, nothing);
    if (hip)
      r.weft = per_call_us(
          reps, batch,
          [&] {
        hipModule_t m;
        check_hip(hipModuleLoadData(&m, s.image.data()), "hipModuleLoadData");
        check_hip(hipModuleUnload(m), "hipModuleUnload");
          },
          nothing);
    r.layer = per_call_us(
        reps, batch,
        [&] {
      auto m = s.layer_device->load_module(s.image);
      if (!m.ok()) die(m.status().message());
        },
        nothing);
    rows.push_back(r);
  }
  {  // Cold start: process start to first kernel done.
    const int samples = g_quick ? 3 : 7;
    Row r{"cold start to first kernel done", "ms", {}, {}, {}, {}, "weft <= cudart"};
    r.driver = cold_start_ms("driver", samples);
    r.cudart = cold_start_ms("cudart", samples);
    if (hip) r.weft = cold_start_ms("weft", samples);
    r.layer = cold_start_ms("layer", samples);
    rows.push_back(r);
  }
  print_table(rows);
  return 0;
}
