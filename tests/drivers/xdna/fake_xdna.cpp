// SPDX-License-Identifier: MIT
#include "fake_xdna.hpp"

#include "uapi.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace fake_xdna {
namespace u = weft::xdna::uapi;
namespace {

constexpr uint64_t kHeapAddress = 0x4000000;  // AIE2's device heap base (fact sheet §2.3)
constexpr size_t kPage = 4096;

uint32_t ioc_size(unsigned long request) { return uint32_t(request >> 16) & 0x3fff; }

template <typename T>
T load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

std::string accel_of(const std::string& path, const std::string& prefix) {
  if (path.compare(0, prefix.size(), prefix) != 0) return {};
  std::string rest = path.substr(prefix.size());
  return rest.substr(0, rest.find('/'));
}

}  // namespace

FakeXdna& FakeXdna::get() {
  static FakeXdna* fake = new FakeXdna();  // never destroyed: queue threads may outlive main
  return *fake;
}

const weft::xdna::OsTable& FakeXdna::table() const {
  static const weft::xdna::OsTable t{
      [](const char* p, int f) { return get().open(p, f); },
      [](int fd) { return get().close(fd); },
      [](int fd, unsigned long r, void* a) { return get().ioctl(fd, r, a); },
      [](void* a, size_t l, int p, int f, int fd, off_t o) {
    return get().mmap(a, l, p, f, fd, long(o));
      },
      [](void* a, size_t l) { return get().munmap(a, l); },
      [](const char* p, void (*e)(const char*, void*), void* c) { return get().list_dir(p, e, c); },
      [](const char* p, char* b, size_t s) -> ssize_t { return get().readlink(p, b, s); },
      [](const char* p, char* b, size_t s) -> ssize_t { return get().read_file(p, b, s); },
      };
  return t;
}

void FakeXdna::configure(std::vector<NodeConfig> nodes) {
  std::lock_guard lock(mutex_);
  nodes_ = std::move(nodes);
  calls_.clear();
  violations_.clear();
  last_packet_.clear();
  last_args_.clear();
  injection_ = Injection{};
}

int FakeXdna::fail(const std::string& why, int err) {
  violations_.push_back(why);
  if (!calls_.empty()) calls_.back().error = err;
  errno = err;
  return -1;
}

void FakeXdna::record(const std::string& name, unsigned long request, const void* arg,
                      size_t size) {
  Call c;
  c.name = name;
  c.request = request;
  if (arg && size)
    c.arg.assign(static_cast<const std::byte*>(arg), static_cast<const std::byte*>(arg) + size);
  calls_.push_back(std::move(c));
}

// ---------------------------------------------------------------- files

int FakeXdna::open(const char* path, int flags) {
  std::lock_guard lock(mutex_);
  record(std::string("open ") + path, 0, nullptr, 0);
  std::string accel = accel_of(path, "/dev/accel/");
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (accel != "accel" + std::to_string(i)) continue;
    if (!nodes_[i].readable) {
      errno = EACCES;
      calls_.back().error = EACCES;
      return -1;
    }
    if ((flags & O_ACCMODE) != O_RDWR) return fail("the accel node must be opened O_RDWR");
    if (!(flags & O_CLOEXEC)) return fail("the accel node should be opened O_CLOEXEC");
    int fd = next_fd_++;
    fds_[fd] = nodes_[i];
    return fd;
  }
  errno = ENOENT;
  calls_.back().error = ENOENT;
  return -1;
}

int FakeXdna::close(int fd) {
  std::lock_guard lock(mutex_);
  record("close", 0, nullptr, 0);
  if (!fds_.erase(fd)) return fail("close of an fd the double never opened", EBADF);
  for (auto& [h, bo] : bos_)
    if (bo.fd == fd)
      return fail("close of the accel fd with BO " + std::to_string(h) + " still open");
  return 0;
}

int FakeXdna::list_dir(const char* path, void (*each)(const char*, void*), void* context) {
  std::vector<std::string> names;
  {
    std::lock_guard lock(mutex_);
    if (std::string(path) != "/sys/class/accel" || nodes_.empty()) {
      errno = ENOENT;
      return -1;
    }
    for (size_t i = 0; i < nodes_.size(); ++i) names.push_back("accel" + std::to_string(i));
  }
  for (const auto& n : names) each(n.c_str(), context);
  return 0;
}

long FakeXdna::readlink(const char* path, char* buffer, size_t size) {
  std::lock_guard lock(mutex_);
  std::string p = path;
  std::string accel = accel_of(p, "/sys/class/accel/");
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (accel != "accel" + std::to_string(i)) continue;
    std::string base = "/sys/class/accel/" + accel + "/device";
    std::string target;
    if (p == base) target = "../../../0000:00:08.2/" + nodes_[i].bdf;
    else if (p == base + "/driver")
      target = nodes_[i].bound ? "../../../../bus/pci/drivers/amdxdna"
                               : "../../../../bus/pci/drivers/vfio-pci";
    if (target.empty()) break;
    size_t n = std::min(size, target.size());
    std::memcpy(buffer, target.data(), n);
    return long(n);
  }
  errno = ENOENT;
  return -1;
}

long FakeXdna::read_file(const char* path, char* buffer, size_t size) {
  std::lock_guard lock(mutex_);
  std::string p = path;
  std::string accel = accel_of(p, "/sys/class/accel/");
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (accel != "accel" + std::to_string(i)) continue;
    std::string base = "/sys/class/accel/" + accel + "/device/";
    char text[64] = {};
    if (p == base + "device") std::snprintf(text, sizeof(text), "0x%04x\n", nodes_[i].device_id);
    else if (p == base + "revision")
      std::snprintf(text, sizeof(text), "0x%02x\n", nodes_[i].revision);
    else if (p == base + "vbnv") std::snprintf(text, sizeof(text), "%s\n", nodes_[i].vbnv.c_str());
    else if (p == base + "fw_version") std::snprintf(text, sizeof(text), "1.5.2.380\n");
    else break;
    size_t n = std::min(size, std::strlen(text));
    std::memcpy(buffer, text, n);
    return long(n);
  }
  errno = ENOENT;
  return -1;
}

// ---------------------------------------------------------------- mmap

void* FakeXdna::mmap(void*, size_t length, int prot, int flags, int fd, long offset) {
  std::lock_guard lock(mutex_);
  record("mmap", 0, nullptr, 0);
  if (!fds_.count(fd)) return fail("mmap of an fd that is not an accel node", EBADF), MAP_FAILED;
  if (prot != (PROT_READ | PROT_WRITE) || !(flags & MAP_SHARED))
    return fail("BOs are mapped PROT_READ|PROT_WRITE, MAP_SHARED"), MAP_FAILED;
  for (auto& [h, bo] : bos_) {
    if (bo.map_offset != uint64_t(offset) || bo.fd != fd) continue;
    if (bo.type == u::kBoDev)
      return fail("a DEV BO is reached through the heap's mapping, not mmap"), MAP_FAILED;
    if (length != (bo.size + kPage - 1) / kPage * kPage)
      return fail("mmap length " + std::to_string(length) + " is not the BO's page-rounded size"),
             MAP_FAILED;
    bo.mapped = true;
    return bo.memory;
  }
  return fail("mmap at an offset GET_BO_INFO never returned"), MAP_FAILED;
}

int FakeXdna::munmap(void* addr, size_t) {
  std::lock_guard lock(mutex_);
  record("munmap", 0, nullptr, 0);
  for (auto& [h, bo] : bos_)
    if (bo.memory == addr && bo.mapped) {
      bo.mapped = false;
      return 0;
    }
  return fail("munmap of memory the double never mapped (or a BO already closed)");
}

// ---------------------------------------------------------------- ioctls

int FakeXdna::ioctl(int fd, unsigned long request, void* arg) {
  std::lock_guard lock(mutex_);
  struct Known {
    unsigned long request;
    const char* name;
    size_t size;
  };
  static const Known kKnown[] = {
      {u::kCreateHwctx, "CREATE_HWCTX", sizeof(u::CreateHwctx)},
      {u::kDestroyHwctx, "DESTROY_HWCTX", sizeof(u::DestroyHwctx)},
      {u::kConfigHwctx, "CONFIG_HWCTX", sizeof(u::ConfigHwctx)},
      {u::kCreateBo, "CREATE_BO", sizeof(u::CreateBo)},
      {u::kGetBoInfo, "GET_BO_INFO", sizeof(u::GetBoInfo)},
      {u::kSyncBo, "SYNC_BO", sizeof(u::SyncBo)},
      {u::kExecCmd, "EXEC_CMD", sizeof(u::ExecCmd)},
      {u::kGetInfo, "GET_INFO", sizeof(u::GetInfo)},
      {u::kGemClose, "GEM_CLOSE", sizeof(u::GemClose)},
      {u::kSyncobjDestroy, "SYNCOBJ_DESTROY", sizeof(u::SyncobjDestroy)},
      {u::kSyncobjTimelineWait, "SYNCOBJ_TIMELINE_WAIT", sizeof(u::SyncobjTimelineWait)},
  };
  const Known* known = nullptr;
  for (const auto& k : kKnown)
    if (k.request == request) known = &k;
  record(known ? known->name : "unknown ioctl", request, arg, known ? known->size : 0);
  if (!known) return fail("unknown ioctl request " + std::to_string(request), ENOTTY);
  // The kernel compares the size encoded in the request with its own struct.
  if (ioc_size(request) != known->size)
    return fail(std::string(known->name) + ": encoded size differs from the struct");
  if (!fds_.count(fd))
    return fail(std::string(known->name) + " on an fd that is not an accel node", EBADF);
  if (injection_.device_lost) {
    errno = ENODEV;
    calls_.back().error = ENODEV;
    return -1;
  }
  switch (request) {
    case u::kCreateHwctx: return create_hwctx(fd, arg);
    case u::kConfigHwctx: return config_hwctx(arg);
    case u::kCreateBo: return create_bo(fd, arg);
    case u::kExecCmd: return exec_cmd(arg);
    case u::kSyncobjTimelineWait: return timeline_wait(arg);
    case u::kGetInfo: return get_info(fd, arg);
    case u::kDestroyHwctx: {
      auto* d = static_cast<u::DestroyHwctx*>(arg);
      if (d->pad) return fail("DESTROY_HWCTX: pad MBZ");
      auto it = contexts_.find(d->handle);
      if (it == contexts_.end()) return fail("DESTROY_HWCTX of an unknown context", ENOENT);
      if (it->second.syncobj)
        return fail("DESTROY_HWCTX before SYNCOBJ_DESTROY of its syncobj (XRT's order)");
      columns_used_[it->second.bdf] -= it->second.columns;
      contexts_.erase(it);
      return 0;
    }
    case u::kSyncobjDestroy: {
      auto* d = static_cast<u::SyncobjDestroy*>(arg);
      for (auto& [h, c] : contexts_)
        if (c.syncobj == d->handle && d->handle) {
          c.syncobj = 0;
          return 0;
        }
      return fail("SYNCOBJ_DESTROY of an unknown syncobj", ENOENT);
    }
    case u::kGetBoInfo: {
      auto* i = static_cast<u::GetBoInfo*>(arg);
      if (i->ext || i->ext_flags || i->pad) return fail("GET_BO_INFO: ext, ext_flags and pad MBZ");
      auto it = bos_.find(i->handle);
      if (it == bos_.end()) return fail("GET_BO_INFO of an unknown BO", ENOENT);
      i->map_offset = it->second.map_offset;
      i->xdna_addr = it->second.xdna_addr;
      i->vaddr = 0;
      return 0;
    }
    case u::kSyncBo: {
      auto* s = static_cast<u::SyncBo*>(arg);
      auto it = bos_.find(s->handle);
      if (it == bos_.end()) return fail("SYNC_BO of an unknown BO", ENOENT);
      if (s->direction > 1) return fail("SYNC_BO direction " + std::to_string(s->direction));
      if (s->offset > it->second.size || s->size > it->second.size - s->offset)
        return fail("SYNC_BO range outside the BO");
      (s->direction == u::kSyncToDevice ? it->second.syncs_to_device
                                        : it->second.syncs_from_device)++;
      return 0;
    }
    case u::kGemClose: {
      auto* c = static_cast<u::GemClose*>(arg);
      if (c->pad) return fail("GEM_CLOSE: pad MBZ");
      auto it = bos_.find(c->handle);
      if (it == bos_.end()) return fail("GEM_CLOSE of an unknown BO", ENOENT);
      if (it->second.mapped) return fail("GEM_CLOSE of a BO still mapped (munmap first)");
      if (auto heap = heaps_.find(it->second.fd);
          heap != heaps_.end() && heap->second == c->handle) {
        for (auto& [ch, ctx] : contexts_)
          if (ctx.fd == it->second.fd)
            return fail("GEM_CLOSE of the heap while a context pins it", EBUSY);
        heaps_.erase(it->second.fd);
      }
      if (it->second.type != u::kBoDev) std::free(it->second.memory);
      bos_.erase(it);
      return 0;
    }
    default: return fail("unhandled ioctl", ENOTTY);
  }
}

int FakeXdna::create_bo(int fd, void* arg) {
  auto* c = static_cast<u::CreateBo*>(arg);
  if (c->flags) return fail("CREATE_BO: flags MBZ");
  if (c->vaddr) return fail("CREATE_BO: vaddr MBZ on Linux 6.14");
  if (c->size == 0) return fail("CREATE_BO of 0 bytes");
  if (c->size > (uint64_t(1) << 40)) {
    errno = ENOMEM;
    calls_.back().error = ENOMEM;
    return -1;
  }
  FakeBo bo;
  bo.type = c->type;
  bo.size = c->size;
  bo.fd = fd;
  switch (c->type) {
    case u::kBoShmem:
    case u::kBoCmd: {
      size_t bytes = (c->size + kPage - 1) / kPage * kPage;
      bo.memory = static_cast<std::byte*>(std::aligned_alloc(kPage, bytes));
      if (!bo.memory) {
        errno = ENOMEM;
        calls_.back().error = ENOMEM;
        return -1;
      }
      std::memset(bo.memory, 0, bytes);
      bo.xdna_addr = next_address_;
      next_address_ += bytes + kPage;
      bo.map_offset = next_map_offset_;
      next_map_offset_ += bytes;
      break;
    }
    case u::kBoDevHeap: {
      if (heaps_.count(fd)) return fail("a second DEV_HEAP (6.14 allows one per client)");
      if (c->size % u::kDevHeapBytes != 0) return fail("DEV_HEAP size is not a multiple of 64 MiB");
      bo.memory = static_cast<std::byte*>(std::aligned_alloc(kPage, c->size));
      if (!bo.memory) return fail("out of host memory for the heap", ENOMEM);
      bo.xdna_addr = kHeapAddress;
      bo.map_offset = next_map_offset_;
      next_map_offset_ += c->size;
      break;
    }
    case u::kBoDev: {
      if (!heaps_.count(fd)) return fail("CREATE_BO(DEV) before the DEV_HEAP exists", ENOENT);
      FakeBo& heap = bos_[heaps_[fd]];
      uint64_t& used = heap_used_[fd];
      uint64_t bytes = (c->size + 63) / 64 * 64;
      if (used + bytes > heap.size) {
        errno = ENOMEM;
        calls_.back().error = ENOMEM;
        return -1;
      }
      bo.memory = heap.memory + used;
      bo.xdna_addr = heap.xdna_addr + used;
      bo.map_offset = 0;
      used += bytes;
      break;
    }
    default: return fail("CREATE_BO type " + std::to_string(c->type));
  }
  c->handle = next_handle_++;
  if (c->type == u::kBoDevHeap) heaps_[fd] = c->handle;
  bos_[c->handle] = bo;
  return 0;
}

int FakeXdna::create_hwctx(int fd, void* arg) {
  auto* c = static_cast<u::CreateHwctx*>(arg);
  if (c->ext || c->ext_flags) return fail("CREATE_HWCTX: ext and ext_flags MBZ");
  if (!c->qos_p) return fail("CREATE_HWCTX without QoS information");
  if (c->umq_bo || c->log_buf_bo)
    return fail("CREATE_HWCTX: umq_bo and log_buf_bo are 0 for KMQ devices");
  if (!heaps_.count(fd))
    return fail("CREATE_HWCTX before the DEV_HEAP exists (the context pins it)", ENOENT);
  const NodeConfig& node = fds_[fd];
  if (c->num_tiles == 0 || c->num_tiles % node.core_rows != 0)
    return fail("CREATE_HWCTX: num_tiles " + std::to_string(c->num_tiles) +
                " is not columns x core rows");
  uint32_t columns = c->num_tiles / node.core_rows;
  if (injection_.busy || columns_used_[node.bdf] + columns > node.columns) {
    errno = EBUSY;
    calls_.back().error = EBUSY;
    return -1;
  }
  FakeContext ctx;
  ctx.bdf = node.bdf;
  ctx.columns = columns;
  ctx.max_opc = c->max_opc;
  ctx.fd = fd;
  ctx.syncobj = 0x500 + next_context_;
  columns_used_[node.bdf] += columns;
  c->handle = next_context_++;
  c->syncobj_handle = ctx.syncobj;
  c->umq_doorbell = 0;
  contexts_[c->handle] = ctx;
  return 0;
}

int FakeXdna::config_hwctx(void* arg) {
  auto* c = static_cast<u::ConfigHwctx*>(arg);
  if (c->pad) return fail("CONFIG_HWCTX: pad MBZ");
  auto it = contexts_.find(c->handle);
  if (it == contexts_.end()) return fail("CONFIG_HWCTX of an unknown context", ENOENT);
  if (c->param_type != u::kConfigCu) return fail("CONFIG_HWCTX: only CONFIG_CU is expected");
  if (c->param_val_size > u::kConfigPayloadMax) return fail("CONFIG_HWCTX payload over 4 KiB");
  if (c->param_val_size < sizeof(u::ConfigCuHeader))
    return fail("CONFIG_HWCTX payload shorter than its header");
  auto* bytes = reinterpret_cast<const std::byte*>(uintptr_t(c->param_val));
  auto header = load<u::ConfigCuHeader>(bytes);
  if (header.pad[0] || header.pad[1] || header.pad[2]) return fail("CONFIG_CU header pad MBZ");
  if (header.num_cus == 0) return fail("CONFIG_CU of no CU");
  if (c->param_val_size != sizeof(header) + header.num_cus * sizeof(u::CuConfig))
    return fail("CONFIG_CU payload size does not match num_cus");
  if (!it->second.cus.empty()) return fail("CONFIG_CU twice on one context");
  for (uint16_t i = 0; i < header.num_cus; ++i) {
    auto cu = load<u::CuConfig>(bytes + sizeof(header) + i * sizeof(u::CuConfig));
    if (cu.pad[0] || cu.pad[1] || cu.pad[2]) return fail("CONFIG_CU entry pad MBZ");
    auto bo = bos_.find(cu.cu_bo);
    if (bo == bos_.end() || bo->second.type != u::kBoDev)
      return fail("CONFIG_CU: cu_bo is not a DEV BO");
    if (bo->second.syncs_to_device == 0)
      return fail("CONFIG_CU: the PDI BO was never synced to the device");
    it->second.cus.push_back({cu.cu_bo, cu.cu_func});
  }
  last_cus_ = it->second.cus;
  return 0;
}

FakeBo* FakeXdna::bo_containing(uint64_t xdna_addr, uint64_t bytes, uint64_t* offset) {
  for (auto& [h, bo] : bos_)
    if (bo.type != u::kBoDevHeap && xdna_addr >= bo.xdna_addr &&
        xdna_addr - bo.xdna_addr < bo.size && bytes <= bo.size - (xdna_addr - bo.xdna_addr)) {
      *offset = xdna_addr - bo.xdna_addr;
      return &bo;
    }
  return nullptr;
}

int FakeXdna::exec_cmd(void* arg) {
  auto* e = static_cast<u::ExecCmd*>(arg);
  if (e->ext || e->ext_flags) return fail("EXEC_CMD: ext and ext_flags MBZ");
  if (e->type != u::kSubmitExecBuf) return fail("EXEC_CMD: type is not EXEC_BUF");
  if (e->cmd_count != 1)
    return fail("EXEC_CMD: cmd_count " + std::to_string(e->cmd_count) + " (1 expected)");
  auto ctx = contexts_.find(e->hwctx);
  if (ctx == contexts_.end()) return fail("EXEC_CMD on an unknown context", ENOENT);
  if (ctx->second.cus.empty()) return fail("EXEC_CMD on a context with no CU configured");
  auto cmd = bos_.find(uint32_t(e->cmd_handles));
  if (cmd == bos_.end() || cmd->second.type != u::kBoCmd)
    return fail("EXEC_CMD: the command is not a CMD BO");
  std::vector<uint32_t> handles(e->arg_count);
  if (e->arg_count)
    std::memcpy(handles.data(), reinterpret_cast<const void*>(uintptr_t(e->args)),
                e->arg_count * 4);
  for (uint32_t h : handles)
    if (!bos_.count(h))
      return fail("EXEC_CMD: argument handle " + std::to_string(h) + " names no BO", ENOENT);
  uint32_t header = load<uint32_t>(cmd->second.memory);
  if (u::ert_state(header) != u::kErtNew) return fail("ERT header state is not NEW (1)");
  if (u::ert_opcode(header) != u::kErtStartCu) return fail("ERT opcode is not START_CU (0)");
  uint32_t count = u::ert_count(header), masks = 1 + u::ert_extra_cu_masks(header);
  if (count <= masks || (count + 1) * 4 > cmd->second.size)
    return fail("ERT count does not fit the CMD BO");
  if ((header >> 28) != u::kErtTypeCu) return fail("ERT type is not ERT_CU (3)");
  std::vector<uint32_t> packet(count + 1);
  std::memcpy(packet.data(), cmd->second.memory, packet.size() * 4);
  last_packet_ = packet;
  last_args_ = handles;
  // The CU: lowest set bit of the first nonzero mask (what amdxdna computes).
  int cu = -1;
  for (uint32_t m = 0; m < masks && cu < 0; ++m)
    if (packet[1 + m]) cu = int(m * 32 + __builtin_ctz(packet[1 + m]));
  if (cu < 0 || size_t(cu) >= ctx->second.cus.size())
    return fail("ERT CU mask names no configured CU");
  uint32_t state = injection_.final_state;
  run_firmware(ctx->second, packet, handles, state);
  // The "firmware" ends the command: the state lands in the header, the job's
  // fence signals the timeline at seq.
  uint32_t done = (header & ~0xfu) | (state & 0xf);
  std::memcpy(cmd->second.memory, &done, 4);
  e->seq = ++ctx->second.seq;
  return 0;
}

void FakeXdna::run_firmware(FakeContext&, std::vector<uint32_t>& packet,
                            const std::vector<uint32_t>& handles, uint32_t& state) {
  // The mlir-aie register map (fact sheet §2.7) after the header and one mask.
  const uint32_t masks = 1 + u::ert_extra_cu_masks(packet[0]);
  const std::byte* regmap = reinterpret_cast<const std::byte*>(packet.data() + 1 + masks);
  const size_t regmap_bytes = (packet.size() - 1 - masks) * 4;
  if (regmap_bytes < 0x14) {
    fail("register map shorter than the mlir-aie layout's 0x14 bytes");
    state = u::kErtError;
    return;
  }
  uint64_t opcode = load<uint64_t>(regmap), instr = load<uint64_t>(regmap + 8);
  uint32_t ninstr = load<uint32_t>(regmap + 16);
  if (opcode != 3)
    fail("register map opcode " + std::to_string(opcode) + " (mlir-aie hosts pass 3)");
  uint64_t offset = 0;
  FakeBo* code = bo_containing(instr, uint64_t(ninstr) * 4, &offset);
  if (!code || code->type != u::kBoDev || offset != 0) {
    fail("register map instruction address is not the start of a DEV BO");
    state = u::kErtError;
    return;
  }
  if (uint64_t(ninstr) * 4 != code->size) fail("ninstr is not the instruction BO's size in words");
  if (handles.empty() || bos_[handles[0]].xdna_addr != instr)
    fail("EXEC_CMD's first argument is not the instruction BO");
  if (code->syncs_to_device == 0) fail("the instruction BO was never synced to the device");
  std::vector<std::byte*> buffers;
  for (size_t at = 0x14; at + 8 <= regmap_bytes; at += 8) {
    uint64_t address = load<uint64_t>(regmap + at);
    if (address == 0) {
      buffers.push_back(nullptr);
      continue;
    }
    uint64_t off = 0;
    FakeBo* bo = bo_containing(address, 1, &off);
    if (!bo) {
      fail("register map buffer at byte " + std::to_string(at) + " points into no BO");
      state = u::kErtError;
      return;
    }
    bool listed = false;
    for (uint32_t h : handles) listed = listed || &bos_[h] == bo;
    if (!listed)
      fail(
          "a buffer's BO is missing from EXEC_CMD's argument handles (the kernel would not pin "
          "it)");
    buffers.push_back(bo->memory + off);
  }
  const auto* code_words = reinterpret_cast<const uint32_t*>(code->memory);
  if (code_words[0] == kTestFault) {
    state = u::kErtError;
  } else if (code_words[0] == kTestAdd && ninstr >= 3 && buffers.size() >= 2 && buffers[0] &&
             buffers[1]) {
    uint32_t n = code_words[1], k = code_words[2];
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t v = load<uint32_t>(buffers[0] + i * 4) + k;
      std::memcpy(buffers[1] + i * 4, &v, 4);
    }
  }
}

int FakeXdna::timeline_wait(void* arg) {
  auto* w = static_cast<u::SyncobjTimelineWait*>(arg);
  if (w->count_handles != 1)
    return fail("TIMELINE_WAIT of " + std::to_string(w->count_handles) + " syncobjs");
  if (w->pad || w->first_signaled) return fail("TIMELINE_WAIT: pad and first_signaled MBZ");
  uint32_t handle = load<uint32_t>(reinterpret_cast<const void*>(uintptr_t(w->handles)));
  uint64_t point = load<uint64_t>(reinterpret_cast<const void*>(uintptr_t(w->points)));
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  int64_t now_ns = int64_t(now.tv_sec) * 1000000000 + now.tv_nsec;
  if (w->timeout_nsec <= now_ns)
    return fail("TIMELINE_WAIT timeout is not an absolute CLOCK_MONOTONIC time in the future");
  for (auto& [h, c] : contexts_) {
    if (c.syncobj != handle || !handle) continue;
    if (point == 0 || point > c.seq) return fail("TIMELINE_WAIT for a point no EXEC_CMD returned");
    if (injection_.wait_times_out) {
      errno = ETIME;
      calls_.back().error = ETIME;
      return -1;
    }
    return 0;  // every command completed at EXEC_CMD
  }
  return fail("TIMELINE_WAIT on an unknown syncobj", ENOENT);
}

int FakeXdna::get_info(int fd, void* arg) {
  auto* g = static_cast<u::GetInfo*>(arg);
  const NodeConfig& node = fds_[fd];
  void* out = reinterpret_cast<void*>(uintptr_t(g->buffer));
  switch (g->param) {
    case u::kQueryAieMetadata: {
      if (g->buffer_size < sizeof(u::AieMetadata))
        return fail("GET_INFO(AIE_METADATA) buffer too small");
      u::AieMetadata m{};
      m.col_size = 0x2000000;
      m.cols = node.columns;
      m.rows = uint16_t(node.core_rows + 2);
      m.version = {2, 0};
      m.shim = {1, 0, 2, 16, 128, {}};
      m.mem = {1, 1, 6, 64, 192, {}};
      m.core = {node.core_rows, 2, 2, 16, 128, {}};
      std::memcpy(out, &m, sizeof(m));
      g->buffer_size = sizeof(m);
      return 0;
    }
    case u::kQueryFirmwareVersion: {
      if (g->buffer_size < sizeof(u::FirmwareVersion))
        return fail("GET_INFO(FIRMWARE_VERSION) buffer too small");
      u::FirmwareVersion v{1, 5, 2, 380};
      std::memcpy(out, &v, sizeof(v));
      g->buffer_size = sizeof(v);
      return 0;
    }
    case u::kQueryClockMetadata: {
      if (g->buffer_size < sizeof(u::ClockMetadata))
        return fail("GET_INFO(CLOCK_METADATA) buffer too small");
      u::ClockMetadata c{};
      std::memcpy(c.mp_npu_clock.name, "MP-NPU Clock", 12);
      c.mp_npu_clock.freq_mhz = node.clock_mhz;
      std::memcpy(c.h_clock.name, "H Clock", 7);
      c.h_clock.freq_mhz = 1800;
      std::memcpy(out, &c, sizeof(c));
      g->buffer_size = sizeof(c);
      return 0;
    }
    default: return fail("GET_INFO param " + std::to_string(g->param) + " not modelled", EINVAL);
  }
}

// ---------------------------------------------------------------- inspection

std::vector<Call> FakeXdna::calls() {
  std::lock_guard lock(mutex_);
  return calls_;
}
std::vector<std::string> FakeXdna::violations() {
  std::lock_guard lock(mutex_);
  return violations_;
}
std::vector<std::string> FakeXdna::call_names() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const auto& c : calls_) names.push_back(c.name);
  return names;
}
size_t FakeXdna::live_bos() {
  std::lock_guard lock(mutex_);
  return bos_.size();
}
size_t FakeXdna::live_contexts() {
  std::lock_guard lock(mutex_);
  return contexts_.size();
}
std::vector<uint32_t> FakeXdna::last_packet() {
  std::lock_guard lock(mutex_);
  return last_packet_;
}
std::vector<uint32_t> FakeXdna::last_exec_args() {
  std::lock_guard lock(mutex_);
  return last_args_;
}
std::vector<std::pair<uint32_t, uint8_t>> FakeXdna::last_cus() {
  std::lock_guard lock(mutex_);
  return last_cus_;
}
uint64_t FakeXdna::bo_address(uint32_t handle) {
  std::lock_guard lock(mutex_);
  auto it = bos_.find(handle);
  return it == bos_.end() ? 0 : it->second.xdna_addr;
}
uint64_t FakeXdna::bo_size(uint32_t handle) {
  std::lock_guard lock(mutex_);
  auto it = bos_.find(handle);
  return it == bos_.end() ? 0 : it->second.size;
}
uint32_t FakeXdna::bo_type(uint32_t handle) {
  std::lock_guard lock(mutex_);
  auto it = bos_.find(handle);
  return it == bos_.end() ? 0 : it->second.type;
}
uint32_t FakeXdna::bo_at_address(uint64_t xdna_addr) {
  std::lock_guard lock(mutex_);
  for (auto& [h, bo] : bos_)
    if (bo.type != u::kBoDevHeap && xdna_addr >= bo.xdna_addr && xdna_addr - bo.xdna_addr < bo.size)
      return h;
  return 0;
}

}  // namespace fake_xdna
