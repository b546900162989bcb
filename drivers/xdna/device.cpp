// SPDX-License-Identifier: MIT
#include "device.hpp"

#include "errors.hpp"
#include "event.hpp"
#include "module.hpp"
#include "os.hpp"
#include "queue.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace weft::xdna {
namespace {

constexpr size_t kPage = 4096;

size_t host_physical_memory() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_bytes = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_bytes <= 0) return size_t(1) << 30;
  return static_cast<size_t>(pages) * static_cast<size_t>(page_bytes);
}

// BDF "dddd:bb:dd.f" → domain, bus, device; zeros where it does not parse.
void parse_bdf(const std::string& bdf, int& domain, int& bus, int& device) {
  unsigned d = 0, b = 0, s = 0, f = 0;
  if (std::sscanf(bdf.c_str(), "%x:%x:%x.%x", &d, &b, &s, &f) == 4) {
    domain = int(d), bus = int(b), device = int(s);
  }
}

template <typename T>
Status query(const XdnaDevice& device, uint32_t param, T& out, const char* what) {
  uapi::GetInfo info;
  info.param = param;
  info.buffer_size = sizeof(T);
  info.buffer = reinterpret_cast<uintptr_t>(&out);
  return device.ioctl(uapi::kGetInfo, &info, what);
}

}  // namespace

NpuGeneration npu_generation(unsigned device_id, unsigned revision) {
  // PCI vendor 0x1022. The generation follows the device and revision as the
  // amdxdna driver selects them; hip-smi's table (src/tools/hip_smi) agrees.
  if (device_id == 0x1502) return {"NPU1", "aie2"};
  if (device_id == 0x17f0 && revision == 0x10) return {"NPU4", "aie2p"};
  if (device_id == 0x17f0 && revision == 0x11) return {"NPU5", "aie2p"};
  if (device_id == 0x17f0 && revision == 0x20) return {"NPU6", "aie2p"};
  if (device_id == 0x17f0) return {"NPU", "aie2p"};
  return {"NPU", "aie2"};
}

XdnaDevice::XdnaDevice(const NodeFacts& facts, int ordinal, int fd)
    : facts_(facts), ordinal_(ordinal), fd_(fd),
      generation_(npu_generation(facts.device_id, facts.revision)),
      host_bytes_(host_physical_memory()) {
  // SHMEM BOs are host memory mapped here: the host reads and writes device
  // pointers directly, and every allocation is in the runtime's pointer table.
  caps_.runs_host_kernels = false;
  caps_.host_can_access_device_memory = true;
  caps_.owns_unlisted_device_memory = false;
  caps_.timing_events = true;
}

Result<Ref<XdnaDevice>> XdnaDevice::open(const NodeFacts& facts, int ordinal) {
  int fd = os().open(facts.node_path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    return Status(hipErrorNoDevice,
                  "NPU: cannot open " + facts.node_path + ": " + std::strerror(err) +
                      (err == EACCES ? " (add the user to the node's group, often `render`)" : ""));
  }
  Ref<XdnaDevice> device(new XdnaDevice(facts, ordinal, fd));
  WEFT_RETURN_IF_ERROR(
      query(*device, uapi::kQueryAieMetadata, device->metadata_, "GET_INFO(AIE_METADATA)"));
  if (device->metadata_.cols == 0 || device->metadata_.core.row_count == 0)
    return Status(hipErrorNoDevice, "NPU: " + facts.node_path + " reports an AIE array of " +
                                        std::to_string(device->metadata_.cols) + " columns and " +
                                        std::to_string(device->metadata_.core.row_count) +
                                        " core rows");
  // Optional facts: a driver that lacks them still runs kernels.
  (void)query(*device, uapi::kQueryFirmwareVersion, device->firmware_,
              "GET_INFO(FIRMWARE_VERSION)");
  uapi::ClockMetadata clocks{};
  if (query(*device, uapi::kQueryClockMetadata, clocks, "GET_INFO(CLOCK_METADATA)").ok())
    device->clock_mhz_ = clocks.mp_npu_clock.freq_mhz;
  return device;
}

XdnaDevice::~XdnaDevice() {
  for (auto& [address, bo] : allocations_) destroy_bo(bo);
  if (heap_.handle) destroy_bo(heap_);
  os().close(fd_);
}

Status XdnaDevice::ioctl(unsigned long request, void* arg, const char* what) const {
  if (os().ioctl(fd_, request, arg) == 0) return Status();
  return errno_status(what, errno);
}

void XdnaDevice::properties(hipDeviceProp_tR0600& p) const {
  std::memset(&p, 0, sizeof(p));
  // The name hip-smi shows for the same node (src/tools/hip_smi/probe_npu.cpp).
  std::snprintf(p.name, sizeof(p.name), "AMD Ryzen AI %s", generation_.name);
  std::snprintf(p.gcnArchName, sizeof(p.gcnArchName), "%s", generation_.target);
  char uuid[sizeof(p.uuid.bytes) + 1];
  std::snprintf(uuid, sizeof(uuid), "NPU-%-12.12s", facts_.bdf.c_str());
  std::memcpy(p.uuid.bytes, uuid, sizeof(p.uuid.bytes));
  // SHMEM BOs are host memory: the NPU reaches as much as the host has.
  p.totalGlobalMem = host_bytes_;
  // An NPU kernel runs once per launch on its whole column partition: one
  // "thread", one "block", and the HIP core refuses any other launch shape.
  p.warpSize = 1;
  p.maxThreadsPerBlock = 1;
  p.maxThreadsPerMultiProcessor = 1;
  p.maxThreadsDim[0] = p.maxThreadsDim[1] = p.maxThreadsDim[2] = 1;
  p.maxGridSize[0] = p.maxGridSize[1] = p.maxGridSize[2] = 1;
  // The data memory of one core tile (AIE2: 64 KiB).
  p.sharedMemPerBlock = 64 * 1024;
  p.totalConstMem = 0;
  p.memPitch = SIZE_MAX / 2;
  p.textureAlignment = 256;
  p.texturePitchAlignment = 256;
  // docs/xdna.md: multiProcessorCount is the number of AIE columns.
  p.multiProcessorCount = metadata_.cols;
  p.clockRate = static_cast<int>(clock_mhz_ * 1000);  // kHz
  p.major = static_cast<int>(metadata_.version.major);
  p.minor = static_cast<int>(metadata_.version.minor);
  p.integrated = 1;
  p.canMapHostMemory = 1;
  p.unifiedAddressing = 1;
  p.managedMemory = 1;
  p.directManagedMemAccessFromHost = 1;
  p.concurrentKernels = 1;
  parse_bdf(facts_.bdf, p.pciDomainID, p.pciBusID, p.pciDeviceID);
}

MemoryInfo XdnaDevice::memory_info() const {
  MemoryInfo info;
  info.total_bytes = host_bytes_;
  size_t allocated = allocated_bytes_.load(std::memory_order_relaxed);
  info.free_bytes = allocated < host_bytes_ ? host_bytes_ - allocated : 0;
  return info;
}

Result<Bo> XdnaDevice::create_bo(uint32_t type, uint64_t size) {
  uapi::CreateBo create;
  create.size = size;
  create.type = type;
  WEFT_RETURN_IF_ERROR(ioctl(uapi::kCreateBo, &create, "CREATE_BO"));
  Bo bo;
  bo.handle = create.handle;
  bo.type = type;
  bo.size = size;
  uapi::GetBoInfo info;
  info.handle = bo.handle;
  if (Status s = ioctl(uapi::kGetBoInfo, &info, "GET_BO_INFO"); !s.ok()) {
    destroy_bo(bo);
    return s;
  }
  bo.xdna_addr = info.xdna_addr;
  if (type == uapi::kBoDev) {
    // Carved from the heap: reached through the heap's mapping.
    if (!heap_ready_.load(std::memory_order_acquire) || info.xdna_addr < heap_.xdna_addr ||
        info.xdna_addr - heap_.xdna_addr > heap_.size ||
        size > heap_.size - (info.xdna_addr - heap_.xdna_addr)) {
      destroy_bo(bo);
      return Status(hipErrorOperatingSystem,
                    "NPU: CREATE_BO(DEV) placed a BO outside the client heap");
    }
    bo.host = heap_.host + (info.xdna_addr - heap_.xdna_addr);
    return bo;
  }
  size_t map = static_cast<size_t>((size + kPage - 1) / kPage * kPage);
  void* host = os().mmap(nullptr, map, PROT_READ | PROT_WRITE, MAP_SHARED, fd_,
                         static_cast<off_t>(info.map_offset));
  if (host == MAP_FAILED) {
    Status s = errno_status("mmap of a BO", errno);
    destroy_bo(bo);
    return s;
  }
  bo.host = static_cast<std::byte*>(host);
  bo.mapped_bytes = map;
  return bo;
}

void XdnaDevice::destroy_bo(Bo& bo) {
  if (bo.mapped_bytes) os().munmap(bo.host, bo.mapped_bytes);
  if (bo.handle) {
    uapi::GemClose close;
    close.handle = bo.handle;
    (void)ioctl(uapi::kGemClose, &close, "GEM_CLOSE");
  }
  bo = Bo{};
}

Status XdnaDevice::sync_bo(const Bo& bo, uint32_t direction) const {
  uapi::SyncBo sync;
  sync.handle = bo.handle;
  sync.direction = direction;
  sync.offset = 0;
  sync.size = bo.size;
  return ioctl(uapi::kSyncBo, &sync,
               direction == uapi::kSyncToDevice ? "SYNC_BO(to device)" : "SYNC_BO(from device)");
}

Status XdnaDevice::ensure_heap() {
  if (heap_ready_.load(std::memory_order_acquire)) return Status();
  std::lock_guard lock(heap_mutex_);
  if (heap_ready_.load(std::memory_order_relaxed)) return Status();
  WEFT_ASSIGN_OR_RETURN(heap_, create_bo(uapi::kBoDevHeap, uapi::kDevHeapBytes));
  heap_ready_.store(true, std::memory_order_release);
  return Status();
}

Result<void*> XdnaDevice::allocate(MemoryKind, size_t bytes, unsigned) {
  // Every kind is a SHMEM BO: host memory the NPU reaches, mapped here.
  MemoryInfo info = memory_info();
  if (bytes > info.free_bytes)
    return Status(hipErrorOutOfMemory, "NPU: " + std::to_string(bytes) + " bytes asked, " +
                                           std::to_string(info.free_bytes) + " free");
  WEFT_ASSIGN_OR_RETURN(Bo bo, create_bo(uapi::kBoShmem, bytes == 0 ? kPage : bytes));
  allocated_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  void* ptr = bo.host;
  std::unique_lock lock(allocations_mutex_);
  allocations_[reinterpret_cast<uintptr_t>(ptr)] = bo;
  return ptr;
}

Status XdnaDevice::deallocate(void* ptr, size_t bytes, MemoryKind) {
  if (!ptr) return Status();
  Bo bo;
  {
    std::unique_lock lock(allocations_mutex_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == allocations_.end())
      return Status(hipErrorInvalidValue, "NPU: freeing memory this NPU did not allocate");
    bo = it->second;
    allocations_.erase(it);
  }
  destroy_bo(bo);
  allocated_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
  return Status();
}

std::optional<std::pair<Bo, uint64_t>> XdnaDevice::find_allocation(const void* ptr) const {
  auto address = reinterpret_cast<uintptr_t>(ptr);
  std::shared_lock lock(allocations_mutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return std::nullopt;
  --it;
  uint64_t offset = address - it->first;
  if (offset >= it->second.size) return std::nullopt;
  return std::make_pair(it->second, offset);
}

// 6.14's CREATE_BO takes no user pointer (vaddr MBZ): host memory the NPU
// reaches must be a SHMEM BO. Registered memory is usable by this agent's
// copies (which the host runs); a kernel given it is refused at launch.
Result<void*> XdnaDevice::register_host(void* ptr, size_t, unsigned) { return ptr; }

Status XdnaDevice::unregister_host(void*) { return Status(); }

Result<Ref<Queue>> XdnaDevice::create_queue(const QueueOptions&) {
  WEFT_ASSIGN_OR_RETURN(Bo cmd, create_bo(uapi::kBoCmd, (uapi::kErtMaxCount + 1) * 4));
  return Ref<Queue>(make_ref<XdnaQueue>(Ref<XdnaDevice>(this), cmd));
}

Result<Ref<Event>> XdnaDevice::create_event(const EventOptions& options) {
  return Ref<Event>(make_ref<XdnaEvent>(options));
}

Result<Ref<Module>> XdnaDevice::load_module(std::span<const std::byte> image) {
  return XdnaModule::load(Ref<XdnaDevice>(this), image);
}

}  // namespace weft::xdna
