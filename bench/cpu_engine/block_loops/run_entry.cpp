// SPDX-License-Identifier: MIT
// Runs one kernel of a block_loops bench object (kernels.cpp, built with the pass) by
// calling its entry directly on this thread, without weft: for instruction counts
// (valgrind --tool=callgrind), which do not depend on the machine's load. The grid is run
// as ranges of `per_call` blocks, one entry call each, as a worker of the CPU engine runs
// its share of a launch.
//
//   bench_block_loops_entry OBJECT KERNEL [BLOCKS] [PER_CALL] [REPEAT]
//
// KERNEL: warp_sum, block_sum (256-thread blocks, one float per thread), vector_add, saxpy
// (256-thread blocks), sgemm (16x16 blocks of an n x n product, n = 16 * sqrt(BLOCKS)),
// empty_kernel. Instructions per block: the difference of two runs' totals over the
// difference of their BLOCKS (the fixed cost of loading cancels out). The grid runs once,
// then REPEAT more times (default 0), timed: the wall time per block of those passes.
#define WEFT_CPU_CODE_OBJECT_ABI_ONLY
#include <hip/weft/cpu_code_object.h>

#include <dlfcn.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "bench_block_loops_entry: %s\n", why.c_str());
  std::exit(2);
}

// Packs the arguments at the record's offsets.
struct Kernarg {
  std::vector<unsigned char> bytes;
  const weftCpuKernelRecord* record;
  unsigned next = 0;
  explicit Kernarg(const weftCpuKernelRecord* r) : bytes(r->kernarg_size + 16), record(r) {}
  template <typename T>
  Kernarg& add(T value) {
    if (next >= record->arg_count) fail(std::string("too many arguments for ") + record->name);
    const weftCpuKernelArg& a = record->args[next++];
    if (a.size != sizeof(T)) fail(std::string("argument size mismatch for ") + record->name);
    std::memcpy(bytes.data() + a.offset, &value, sizeof(T));
    return *this;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) fail("usage: OBJECT KERNEL [BLOCKS] [PER_CALL] [REPEAT]");
  const std::string kernel = argv[2];
  const uint64_t blocks = argc > 3 ? std::strtoull(argv[3], nullptr, 0) : 4096;
  const uint64_t per_call = argc > 4 ? std::strtoull(argv[4], nullptr, 0) : blocks;
  const int repeat = argc > 5 ? std::atoi(argv[5]) : 0;
  if (blocks == 0 || per_call == 0 || repeat < 0) fail("BLOCKS and PER_CALL must be > 0");
  void* object = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!object) fail(dlerror());
  auto* table = static_cast<const weftCpuCodeObject*>(dlsym(object, WEFT_CPU_CODE_OBJECT_SYMBOL));
  if (!table || table->magic != WEFT_CPU_CODE_OBJECT_MAGIC) fail("no CPU code object table");
  const weftCpuKernelRecord* record = nullptr;
  for (const weftCpuKernelRecord* r = table->begin; r != table->end; ++r)
    if (kernel == r->name) record = r;
  if (!record) fail("no kernel " + kernel);

  dim3 grid(unsigned(blocks), 1, 1), block(256, 1, 1);
  std::vector<float> a, b, c;
  Kernarg args(record);
  if (kernel == "warp_sum" || kernel == "block_sum") {
    a.assign(blocks * 256, 1.0f);
    c.assign(blocks * 256, 0.0f);
    args.add<const float*>(a.data()).add<float*>(c.data());
  } else if (kernel == "vector_add") {
    a.assign(blocks * 256, 1.0f);
    b.assign(blocks * 256, 2.0f);
    c.assign(blocks * 256, 0.0f);
    args.add<const float*>(a.data()).add<const float*>(b.data()).add<float*>(c.data());
    args.add<int>(int(blocks * 256));
  } else if (kernel == "saxpy") {
    a.assign(blocks * 256, 1.0f);
    c.assign(blocks * 256, 2.0f);
    args.add<float>(1.5f).add<const float*>(a.data()).add<float*>(c.data());
    args.add<int>(int(blocks * 256));
  } else if (kernel == "sgemm") {
    const unsigned side = unsigned(std::lround(std::sqrt(double(blocks))));
    if (uint64_t(side) * side != blocks) fail("sgemm: BLOCKS must be a square");
    const int n = int(side * 16);
    a.assign(size_t(n) * n, 1.0f);
    b.assign(size_t(n) * n, 0.5f);
    c.assign(size_t(n) * n, 0.0f);
    args.add<const float*>(a.data()).add<const float*>(b.data()).add<float*>(c.data());
    args.add<int>(n);
    grid = dim3(side, side, 1);
    block = dim3(16, 16, 1);
  } else if (kernel != "empty_kernel") {
    fail("unknown kernel " + kernel);
  }
  if (args.next != record->arg_count) fail("missing arguments for " + kernel);

  uint32_t stop = 0;
  weftKernelContext ctx{};
  ctx.blockDim = block;
  ctx.gridDim = grid;
  ctx.mode = WEFT_KERNEL_LOOP;
  ctx.stop = &stop;
  auto grid_once = [&] {
    for (uint64_t first = 0; first < blocks; first += per_call) {
      ctx.blockBegin = first;
      ctx.blockEnd = first + per_call < blocks ? first + per_call : blocks;
      record->entry(&ctx, args.bytes.data());
    }
  };
  grid_once();
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; ++r) grid_once();
  const double elapsed =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  const double ns = repeat ? elapsed / (double(blocks) * repeat) : 0;
  double sum = 0;
  for (float v : c) sum += v;
  std::printf("%s: %llu blocks, %llu per call, %.1f ns per block, checksum %.1f\n", kernel.c_str(),
              static_cast<unsigned long long>(blocks), static_cast<unsigned long long>(per_call),
              ns, sum);
  return 0;
}
