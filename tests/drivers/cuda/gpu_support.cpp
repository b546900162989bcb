// SPDX-License-Identifier: MIT
#include "gpu_support.hpp"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

namespace weft::cuda {
std::unique_ptr<Driver> make_driver();
}

namespace gpu_test {
namespace {

struct Discovery {
  std::unique_ptr<weft::Driver> driver;
  std::vector<weft::Ref<weft::Device>> devices;
};

Discovery& discovery() {
  static Discovery* d = [] {
    auto* out = new Discovery();  // leaked: devices outlive every test
    out->driver = weft::cuda::make_driver();
    out->devices = out->driver->devices();
    return out;
  }();
  return *d;
}

std::filesystem::path binary_dir() {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::current_path() : self.parent_path();
}

}  // namespace

weft::cuda::CudaDevice* gpu() {
  auto& d = discovery();
  if (d.devices.empty()) {
    hip_test::skip("no NVIDIA GPU: " + d.driver->status_note());
    return nullptr;
  }
  return static_cast<weft::cuda::CudaDevice*>(d.devices[0].get());
}

const std::vector<weft::Ref<weft::Device>>& all_gpus() { return discovery().devices; }

std::vector<std::byte> kernel_file(const std::string& name) {
  const char* dir = std::getenv("WEFT_CUDA_TEST_KERNELS");
  auto path = (dir && *dir ? std::filesystem::path(dir) : binary_dir()) / name;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    hip_test::skip("test kernel " + path.string() + " missing (built only when nvcc is found)");
    return {};
  }
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(chars.size());
  std::memcpy(out.data(), chars.data(), chars.size());
  return out;
}

weft::Ref<weft::Module> kernels() {
  static weft::Ref<weft::Module>* module = nullptr;
  if (module) return *module;
  auto* device = gpu();
  if (!device) return nullptr;
  auto image = kernel_file("kernels.cubin");
  if (image.empty()) return nullptr;
  module = new weft::Ref<weft::Module>(value_of(device->load_module(image)));
  return *module;
}

weft::Ref<weft::Kernel> kernel(const char* name) {
  auto module = kernels();
  if (!module) return nullptr;
  return value_of(module->kernel(name));
}

ArgPacker::ArgPacker(const weft::Kernel& kernel) : info_(kernel.info()) {
  bytes_.resize(info_.kernarg_size);
}

void ArgPacker::put(const void* data, size_t size) {
  REQUIRE(next_ < info_.args.size());
  const auto& arg = info_.args[next_++];
  REQUIRE(arg.size == size);
  std::memcpy(bytes_.data() + arg.offset, data, size);
}

weft::DispatchOp dispatch(const weft::Ref<weft::Kernel>& kernel, dim3 grid, dim3 block,
                          std::vector<std::byte> args, uint32_t shared) {
  weft::DispatchOp op;
  op.kernel = kernel;
  op.dims.grid = grid;
  op.dims.block = block;
  op.dims.dynamic_shared_bytes = shared;
  op.kernarg = std::move(args);
  return op;
}

}  // namespace gpu_test
