// SPDX-License-Identifier: MIT
// Loading CPU code objects (docs/code-objects.md). The bytes go to a memfd that
// dlopen maps through /proc/self/fd; the descriptor stays open while the object
// is loaded, so no two live modules ever share a path (glibc reuses an already
// loaded object of the same name).
#include "module.hpp"

#include "device.hpp"

#define WEFT_CPU_CODE_OBJECT_ABI_ONLY
#include <hip/weft/cpu_code_object.h>
#include <weft/codeobj/elf.hpp>

#include "util/log.hpp"

#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace weft::cpu {
namespace {

using codeobj::ElfFile;

constexpr uint32_t kMaxKernels = 1u << 20;
constexpr uint32_t kMaxArgs = 4096;

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = codeobj::kElfMachineX86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = codeobj::kElfMachineAarch64;
#else
constexpr uint16_t kHostMachine = 0;
#endif

Status invalid(std::string message) { return Status(hipErrorInvalidImage, "CPU code object: " + message); }

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
    if (n <= 0) return Status(hipErrorOutOfMemory, std::string("writing the code object: ") + std::strerror(errno));
    bytes = bytes.subspan(static_cast<size_t>(n));
  }
  return Status();
}

Result<Ref<LoadedObject>> open_object(std::span<const std::byte> image) {
  make_runtime_symbols_global();
  int fd = memfd_create("weft-cpu-code-object", MFD_CLOEXEC);
  if (fd < 0) return Status(hipErrorOutOfMemory, std::string("memfd_create: ") + std::strerror(errno));
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

Status check_record(const weftCpuKernelRecord& r, size_t index) {
  if (!r.entry || !r.name) return invalid("kernel record " + std::to_string(index) + " has no entry or name");
  if (r.arg_count > kMaxArgs || (r.arg_count && !r.args))
    return invalid("kernel record " + std::to_string(index) + " has a bad argument table");
  if (r.kernarg_align == 0 || (r.kernarg_align & (r.kernarg_align - 1)))
    return invalid("kernel record " + std::to_string(index) + " has a bad kernarg alignment");
  for (uint32_t i = 0; i < r.arg_count; ++i)
    if (uint64_t(r.args[i].offset) + r.args[i].size > r.kernarg_size)
      return invalid(std::string("argument ") + std::to_string(i) + " of " + r.name + " lies outside its kernarg");
  return Status();
}

}  // namespace

LoadedObject::~LoadedObject() {
  if (handle_) dlclose(handle_);
  if (fd_ >= 0) ::close(fd_);
}

class ModuleBuilder {
 public:
  static Result<Ref<Module>> build(const ElfFile& elf, Ref<LoadedObject> object) {
    void* table_address = dlsym(object->handle(), WEFT_CPU_CODE_OBJECT_SYMBOL);
    if (!table_address) return invalid("weft_cpu_code_object is not exported");
    const auto* table = static_cast<const weftCpuCodeObject*>(table_address);
    if (table->magic != WEFT_CPU_CODE_OBJECT_MAGIC) return invalid("bad magic in weft_cpu_code_object");
    if (table->version != WEFT_CPU_CODE_OBJECT_VERSION)
      return invalid("format version " + std::to_string(table->version) + " is not supported (this weft reads " +
                     std::to_string(WEFT_CPU_CODE_OBJECT_VERSION) + ")");
    if (table->kernel_abi_version != WEFT_KERNEL_ABI_VERSION)
      return invalid("built for kernel ABI " + std::to_string(table->kernel_abi_version) + "; this weft runs " +
                     std::to_string(WEFT_KERNEL_ABI_VERSION) + ": rebuild it against this weft's headers");
    if (table->record_size != sizeof(weftCpuKernelRecord)) return invalid("bad kernel record size");
    if ((table->begin == nullptr) != (table->end == nullptr) || table->end < table->begin ||
        size_t(table->end - table->begin) > kMaxKernels)
      return invalid("bad kernel table bounds");

    link_map* map = nullptr;
    if (dlinfo(object->handle(), RTLD_DI_LINKMAP, &map) != 0 || !map) return invalid("dlinfo failed");
    const uintptr_t base = map->l_addr;

    auto module = make_ref<CpuModule>();
    module->object_ = object;
    for (const weftCpuKernelRecord* r = table->begin; r != table->end; ++r) {
      WEFT_RETURN_IF_ERROR(check_record(*r, size_t(r - table->begin)));
      KernelInfo info;
      const codeobj::ElfSymbol* sym = elf.symbol_at(reinterpret_cast<uintptr_t>(r->function) - base);
      info.name = sym ? std::string(sym->name) : std::string(r->name);
      info.kernarg_size = r->kernarg_size;
      info.kernarg_align = r->kernarg_align;
      info.static_shared_bytes = r->static_shared_bytes;
      info.max_threads_per_block = std::min<uint32_t>(r->max_threads_per_block ? r->max_threads_per_block : 1024,
                                                      CpuDevice::kMaxThreadsPerBlock);
      for (uint32_t i = 0; i < r->arg_count; ++i) info.args.push_back({r->args[i].offset, r->args[i].size});
      std::string written = r->name;
      auto kernel = make_ref<CpuKernel>(std::move(info), r->entry, object);
      module->kernels_.emplace(kernel->info().name, kernel);
      module->kernels_.emplace(written, kernel);
    }
    for (const codeobj::ElfSymbol& s : elf.symbols) {
      if (s.section == 0 || s.type != 1 || s.name.empty()) continue;  // defined data objects only
      auto* address = reinterpret_cast<std::byte*>(base + s.value);
      module->globals_.emplace(std::string(s.name), CpuGlobal{address, static_cast<size_t>(s.size)});
    }
    return Ref<Module>(module);
  }
};

Result<Ref<Module>> CpuModule::load(std::span<const std::byte> image) {
  // PTX, NVIDIA fat binaries: code for another kind of agent, not a broken one.
  if (!codeobj::is_elf(image))
    return Status(hipErrorNoBinaryForGpu, "CPU code object: the image is not a host ELF shared object");
  WEFT_ASSIGN_OR_RETURN(ElfFile elf, codeobj::parse_elf(image));
  if (elf.type != codeobj::kElfTypeDyn) return invalid("not a shared object (ET_DYN)");
  if (elf.machine != kHostMachine)
    return Status(hipErrorNoBinaryForGpu,
                  "CPU code object: built for ELF machine " + std::to_string(elf.machine) + ", not this host");
  const codeobj::ElfSymbol* table = elf.symbol(WEFT_CPU_CODE_OBJECT_SYMBOL);
  if (!table || !table->dynamic) {
    // A table that only .symtab knows about is not exported; look in .dynsym only.
    bool exported = false;
    for (const auto& s : elf.symbols)
      if (s.dynamic && s.section != 0 && s.name == WEFT_CPU_CODE_OBJECT_SYMBOL) exported = true;
    if (!exported) return invalid("no exported weft_cpu_code_object table (built with cpu_code_object.h?)");
  }
  WEFT_ASSIGN_OR_RETURN(Ref<LoadedObject> object, open_object(image));
  return ModuleBuilder::build(elf, std::move(object));
}

Result<Ref<Kernel>> CpuModule::kernel(std::string_view name) {
  auto it = kernels_.find(std::string(name));
  if (it == kernels_.end())
    return Status(hipErrorNotFound, "CPU code object has no kernel named " + std::string(name));
  return Ref<Kernel>(it->second);
}

Result<std::span<std::byte>> CpuModule::global(std::string_view name) {
  auto it = globals_.find(std::string(name));
  if (it == globals_.end())
    return Status(hipErrorNotFound, "CPU code object has no global named " + std::string(name));
  return std::span<std::byte>(it->second.address, it->second.size);
}

Result<weftKernelEntry> code_object_entry(const Kernel* kernel) {
  const auto* k = dynamic_cast<const CpuKernel*>(kernel);
  if (!k) return Status(hipErrorInvalidDeviceFunction, "the kernel was not loaded by the CPU agent");
  return k->entry();
}

Result<Ref<Module>> CpuDevice::load_module(std::span<const std::byte> image) {
  return CpuModule::load(image);
}

}  // namespace weft::cpu
