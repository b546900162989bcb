// SPDX-License-Identifier: MIT
// Loading CPU code objects (docs/code-objects.md). The bytes go to a memfd that
// dlopen maps through /proc/self/fd; the descriptor stays open while the object
// is loaded, so no two live modules ever share a path (glibc reuses an already
// loaded object of the same name).
#include "module.hpp"

#include "device.hpp"
#include "object_check.hpp"

#define WEFT_CPU_CODE_OBJECT_ABI_ONLY
#include <hip/weft/cpu_code_object.h>
#include <weft/codeobj/elf.hpp>
#include <weft/common/log.hpp>

#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace weft::cpu {
namespace {

using codeobj::ElfFile;

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = codeobj::kElfMachineX86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = codeobj::kElfMachineAarch64;
#else
constexpr uint16_t kHostMachine = 0;
#endif

Status invalid(std::string message) {
  return Status(hipErrorInvalidImage, "CPU code object: " + message);
}

// Code objects call weftSyncThreads & co. from this library. When the program
// opened weft with RTLD_LOCAL (ctypes, plugins) those names are not in the
// global scope, so promote this library once before the first load.
void make_runtime_symbols_global() {
  static std::once_flag once;
  std::call_once(once, [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&weftSyncThreads), &info) && info.dli_fname)
      dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
  });
}

Status write_all(int fd, std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return Status(hipErrorOutOfMemory,
                    std::string("writing the code object: ") + std::strerror(errno));
    bytes = bytes.subspan(static_cast<size_t>(n));
  }
  return Status();
}

Result<Ref<LoadedObject>> open_object(std::span<const std::byte> image) {
  make_runtime_symbols_global();
  int fd = memfd_create("weft-cpu-code-object", MFD_CLOEXEC);
  if (fd < 0)
    return Status(hipErrorOutOfMemory, std::string("memfd_create: ") + std::strerror(errno));
  if (Status s = write_all(fd, image); !s.ok()) {
    ::close(fd);
    return s;
  }
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    ::close(fd);
    return invalid(std::string("dlopen failed: ") + (why ? why : "unknown error"));
  }
  return make_ref<LoadedObject>(handle, fd);
}

}  // namespace

LoadedObject::~LoadedObject() {
  if (handle_) dlclose(handle_);
  if (fd_ >= 0) ::close(fd_);
}

// The block-loop pass (tools/weftcc/passes/block_loops) records why it left a kernel to
// the fiber engine as the string `__weft_cpu_fiber_reason.<kernel>`: read from the file's
// bytes (bounded by its symbol and a loaded segment), not from the mapping.
static std::string fiber_reason(const ElfFile& elf, std::span<const std::byte> image,
                                const std::string& kernel) {
  const codeobj::ElfSymbol* sym = elf.symbol("__weft_cpu_fiber_reason." + kernel);
  if (!sym || sym->size == 0 || sym->size > 4096) return {};
  for (const codeobj::ElfSegment& seg : elf.segments) {
    if (seg.type != 1 /* PT_LOAD */ || sym->value < seg.vaddr ||
        sym->value - seg.vaddr + sym->size > seg.filesz)
      continue;
    uint64_t at = seg.offset + (sym->value - seg.vaddr);
    if (at > image.size() || sym->size > image.size() - at) return {};
    std::string text(reinterpret_cast<const char*>(image.data() + at), sym->size);
    return text.substr(0, text.find('\0'));
  }
  return {};
}

class ModuleBuilder {
 public:
  // The loaded object is read only where the checks placed its segments: the
  // kernel records (each pointer bounds-checked) and the data symbols.
  static Result<Ref<Module>> build(const ElfFile& elf, std::span<const std::byte> image,
                                   const CheckedObject& checked, Ref<LoadedObject> object) {
    link_map* map = nullptr;
    if (dlinfo(object->handle(), RTLD_DI_LINKMAP, &map) != 0 || !map)
      return invalid("dlinfo failed");
    const uintptr_t base = map->l_addr;
    WEFT_ASSIGN_OR_RETURN(std::vector<CheckedKernel> kernels, check_loaded_records(checked, base));

    auto module = make_ref<CpuModule>();
    module->object_ = object;
    for (CheckedKernel& k : kernels) {
      KernelInfo info = std::move(k.info);
      const codeobj::ElfSymbol* sym = elf.symbol_at(k.function_vaddr);
      info.name = sym ? std::string(sym->name) : k.written_name;
      info.max_threads_per_block =
          std::min<uint32_t>(info.max_threads_per_block ? info.max_threads_per_block : 1024,
                             CpuDevice::kMaxThreadsPerBlock);
      std::string reason = fiber_reason(elf, image, info.name);
      auto kernel = make_ref<CpuKernel>(std::move(info), k.entry, object, std::move(reason));
      module->kernels_.emplace(kernel->info().name, kernel);
      module->kernels_.emplace(k.written_name, kernel);
    }
    for (const CheckedGlobal& g : checked.globals) {
      auto* address = reinterpret_cast<std::byte*>(base + g.vaddr);
      module->globals_.emplace(g.name, CpuGlobal{address, static_cast<size_t>(g.size)});
    }
    return Ref<Module>(module);
  }
};

Result<Ref<Module>> CpuModule::load(std::span<const std::byte> image) {
  // PTX, NVIDIA fat binaries: code for another kind of agent, not a broken one.
  if (!codeobj::is_elf(image))
    return Status(hipErrorNoBinaryForGpu,
                  "CPU code object: the image is not a host ELF shared object");
  WEFT_ASSIGN_OR_RETURN(ElfFile elf, codeobj::parse_elf(image));
  if (elf.type != codeobj::kElfTypeDyn) return invalid("not a shared object (ET_DYN)");
  if (elf.machine != kHostMachine)
    return Status(hipErrorNoBinaryForGpu, "CPU code object: built for ELF machine " +
                                              std::to_string(elf.machine) + ", not this host");
  // All of it before dlopen: ld.so and the table walk trust what they read.
  WEFT_ASSIGN_OR_RETURN(CheckedObject checked, check_cpu_object(elf));
  WEFT_ASSIGN_OR_RETURN(Ref<LoadedObject> object, open_object(image));
  return ModuleBuilder::build(elf, image, checked, std::move(object));
}

Result<Ref<Kernel>> CpuModule::kernel(std::string_view name) {
  auto it = kernels_.find(std::string(name));
  if (it == kernels_.end())
    return Status(hipErrorNotFound, "CPU code object has no kernel named " + std::string(name));
  return Ref<Kernel>(it->second);
}

Result<std::vector<std::string>> CpuModule::kernel_names() {
  // Each kernel is filed under two names (linker and written); list its own name once.
  std::vector<std::string> names;
  for (const auto& [name, kernel] : kernels_)
    if (name == kernel->info().name) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::span<std::byte>> CpuModule::global(std::string_view name) {
  auto it = globals_.find(std::string(name));
  if (it == globals_.end())
    return Status(hipErrorNotFound, "CPU code object has no global named " + std::string(name));
  return std::span<std::byte>(it->second.address, it->second.size);
}

Result<weftKernelEntry> code_object_entry(const Kernel* kernel) {
  const auto* k = dynamic_cast<const CpuKernel*>(kernel);
  if (!k)
    return Status(hipErrorInvalidDeviceFunction, "the kernel was not loaded by the CPU agent");
  if (!k->fiber_reason().empty() && k->first_launch())
    log::info("kernel {} runs on the fiber engine: the block-loop pass left it ({})",
              k->info().name, k->fiber_reason());
  return k->entry();
}

Result<Ref<Module>> CpuDevice::load_module(std::span<const std::byte> image) {
  return CpuModule::load(image);
}

}  // namespace weft::cpu
