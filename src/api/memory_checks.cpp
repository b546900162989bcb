// SPDX-License-Identifier: MIT
#include "api/memory_checks.hpp"

#include "api/image_ranges.hpp"
#include "graph/capture.hpp"
#include "runtime/mempool.hpp"
#include "runtime/virtual_memory.hpp"

namespace weft::api {

namespace {

bool holds_device_data(const AllocationRecord& record) {
  return record.kind == AllocationKind::kDevice || record.kind == AllocationKind::kManaged;
}

// An address the pointer table does not list may be the current device's driver's
// own memory (a module global from hipModuleGetGlobal), which only that driver can
// judge (DeviceCaps::owns_unlisted_device_memory). Without GPU agents (every CI
// run) no driver has such memory.
bool driver_may_own_unknown_addresses() {
  if (!Runtime::get().any_gpu()) return false;
  auto device = current_device();
  return device.ok() && device.value()->driver_device().caps().owns_unlisted_device_memory;
}

Status check_side(const std::optional<AllocationRecord>& record, const void* ptr, size_t bytes,
                  Side side, Access access, const char* what) {
  if (record) {
    if (record->read_only && access == Access::kWrite)
      return invalid_value(
          fmt::format("{} {} is mapped read-only (hipMemSetAccess gave it "
                      "hipMemAccessFlagsProtRead)",
                      what, ptr));
    if (record->contains(ptr, bytes)) return Status();
    size_t offset = static_cast<size_t>(static_cast<const std::byte*>(ptr) - record->base);
    return invalid_value(fmt::format(
        "{} {} + {} bytes runs past the end of its allocation ({} bytes at {}, offset {})", what,
        ptr, bytes, record->size, static_cast<const void*>(record->base), offset));
  }
  if (side != Side::kDevice) return Status();
  if (image_data_range(ptr, bytes, access)) return Status();  // a loaded module's variable
  if (VirtualMemory::get().reserved(ptr))
    return invalid_value(fmt::format(
        "{} {} is reserved virtual memory with no accessible mapping there (hipMemMap it and "
        "give access with hipMemSetAccess first)",
        what, ptr));
  if (driver_may_own_unknown_addresses()) {
    // A pool keeps freed blocks allocated on the agent, so the driver would take them.
    if (mempool::is_cached_block(ptr, bytes))
      return invalid_value(
          fmt::format("{} {} lies in freed memory-pool memory (hipFreeAsync "
                      "returned it to its pool)",
                      what, ptr));
    return Status();
  }
  return invalid_value(fmt::format(
      "{} {} ({} bytes) is not device memory: no live HIP allocation holds it (freed, never "
      "allocated by HIP, or past the end of an allocation)",
      what, ptr, bytes));
}

std::optional<AllocationRecord> lookup(const void* ptr, Side side) {
  if (side == Side::kVerified) return std::nullopt;
  return Runtime::get().pointers().find(ptr);
}

bool device_side(Side side, const std::optional<AllocationRecord>& record) {
  switch (side) {
    case Side::kDevice:
    case Side::kVerified: return true;
    case Side::kEither: return record && holds_device_data(*record);
    case Side::kHost: return false;
  }
  return false;
}

}  // namespace

Status check_span(const void* ptr, size_t bytes, Side side, const char* what, Access access) {
  if (side == Side::kVerified) return Status();
  return check_side(Runtime::get().pointers().find(ptr), ptr, bytes, side, access, what);
}

Status check_region(const void* base, const void* last_slice, size_t last_slice_span, Side side,
                    const char* what, Access access) {
  auto first = reinterpret_cast<uintptr_t>(base), last = reinterpret_cast<uintptr_t>(last_slice);
  size_t bytes = 0;
  if (last < first || __builtin_add_overflow(last - first, last_slice_span, &bytes))
    return invalid_value(fmt::format("the {} region overflows the address space", what));
  return check_span(base, bytes, side, what, access);
}

std::optional<size_t> span_2d(size_t pitch, size_t width, size_t height) {
  if (height == 0) return 0;
  size_t rows = 0, span = 0;
  if (__builtin_mul_overflow(pitch, height - 1, &rows) ||
      __builtin_add_overflow(rows, width, &span))
    return std::nullopt;
  return span;
}

bool is_device_pointer(const void* ptr) {
  auto record = Runtime::get().pointers().find(ptr);
  return record && holds_device_data(*record);
}

Result<std::pair<Side, Side>> copy_sides(hipMemcpyKind kind) {
  switch (kind) {
    case hipMemcpyHostToHost: return std::pair{Side::kHost, Side::kHost};
    case hipMemcpyHostToDevice: return std::pair{Side::kDevice, Side::kHost};
    case hipMemcpyDeviceToHost: return std::pair{Side::kHost, Side::kDevice};
    case hipMemcpyDeviceToDevice:
    case hipMemcpyDeviceToDeviceNoCU: return std::pair{Side::kDevice, Side::kDevice};
    case hipMemcpyDefault: return std::pair{Side::kEither, Side::kEither};
  }
  return Status(hipErrorInvalidMemcpyDirection,
                fmt::format("{} is not a hipMemcpyKind", static_cast<int>(kind)));
}

Result<CopyDirection> copy_direction(hipMemcpyKind kind, const void* dst, const void* src) {
  WEFT_ASSIGN_OR_RETURN(auto sides, copy_sides(kind));
  bool d = device_side(sides.first, lookup(dst, sides.first));
  bool s = device_side(sides.second, lookup(src, sides.second));
  if (d && s) return CopyDirection::kDeviceToDevice;
  if (d) return CopyDirection::kHostToDevice;
  if (s) return CopyDirection::kDeviceToHost;
  return CopyDirection::kHostToHost;
}

Result<CopyOp> make_copy(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                         size_t width, size_t height, hipMemcpyKind kind) {
  WEFT_ASSIGN_OR_RETURN(auto sides, copy_sides(kind));
  Result<CopyOp> op =
      make_copy(dst, dst_pitch, src, src_pitch, width, height, sides.first, sides.second);
  if (op.ok() || op.status().code() != hipErrorInvalidValue) return op;
  // A host-device kind given backwards (hipMemcpyHostToDevice from device memory into a
  // malloc buffer): AMD's runtime takes the direction from its pointer table when one side
  // is device memory, and programs written for it rely on that. Looked at only once the
  // kind's own reading failed, so a correct kind pays nothing for it.
  bool host_to_device = kind == hipMemcpyHostToDevice,
       device_to_host = kind == hipMemcpyDeviceToHost;
  const void* named_host = host_to_device ? src : device_to_host ? dst : nullptr;
  const void* named_device = host_to_device ? dst : src;
  if (named_host && is_device_pointer(named_host) && !is_device_pointer(named_device))
    return make_copy(dst, dst_pitch, src, src_pitch, width, height, Side::kEither, Side::kEither);
  return op;
}

Result<CopyOp> make_copy(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                         size_t width, size_t height, Side dst_side, Side src_side) {
  // Host-to-host needs no lookup for its direction, only for the bounds below.
  auto dst_record = lookup(dst, dst_side);
  auto src_record = lookup(src, src_side);
  bool d = device_side(dst_side, dst_record), s = device_side(src_side, src_record);
  CopyOp op;
  op.dst = dst;
  op.src = src;
  op.width = width;
  op.height = height;
  op.dst_pitch = dst_pitch;
  op.src_pitch = src_pitch;
  op.direction = d && s ? CopyDirection::kDeviceToDevice
               : d      ? CopyDirection::kHostToDevice
               : s      ? CopyDirection::kDeviceToHost
                        : CopyDirection::kHostToHost;
  if (width == 0 || height == 0) return op;
  if (!dst || !src) return invalid_value("null source or destination");
  if (height > 1 && (dst_pitch < width || src_pitch < width))
    return Status(hipErrorInvalidPitchValue, "pitch is smaller than the row width");
  auto dst_span = span_2d(dst_pitch, width, height), src_span = span_2d(src_pitch, width, height);
  if (!dst_span || !src_span) return invalid_value("the copied region overflows the address space");
  WEFT_RETURN_IF_ERROR(
      check_side(dst_record, dst, *dst_span, dst_side, Access::kWrite, "destination"));
  WEFT_RETURN_IF_ERROR(check_side(src_record, src, *src_span, src_side, Access::kRead, "source"));
  return op;
}

Result<FillOp> make_fill(void* dst, size_t pitch, uint32_t value, uint8_t element_size,
                         size_t width_elements, size_t height) {
  FillOp op;
  op.dst = dst;
  op.value = value;
  op.element_size = element_size;
  op.width_elements = width_elements;
  op.height = height;
  op.pitch = pitch;
  if (width_elements == 0 || height == 0) return op;
  if (!dst) return invalid_value("null destination");
  size_t row_bytes = 0;
  if (__builtin_mul_overflow(width_elements, size_t{element_size}, &row_bytes))
    return invalid_value(fmt::format("{} elements of {} bytes overflow the address space",
                                     width_elements, element_size));
  if (height > 1 && pitch < row_bytes)
    return Status(hipErrorInvalidPitchValue, "pitch is smaller than the row width");
  auto span = span_2d(pitch, row_bytes, height);
  if (!span) return invalid_value("the filled region overflows the address space");
  WEFT_RETURN_IF_ERROR(check_span(dst, *span, Side::kDevice, "destination"));
  return op;
}

namespace {

bool device_memory_is_host_memory(const DeviceState& device) {
  return device.driver_device().caps().host_can_access_device_memory;
}

// An agent whose device memory is host memory (the CPU agent) runs copies and
// fills with memmove on host addresses, so it must never be handed device memory
// of an agent whose device memory is not (a GPU's device address is not a host
// address). Returns the agent owning such memory, or nullptr.
DeviceState* foreign_gpu_memory(const Stream& stream, std::initializer_list<const void*> pointers) {
  // Without GPU agents (every CI run) or on a GPU stream there is nothing to look up.
  if (!Runtime::get().any_gpu() || !device_memory_is_host_memory(stream.device())) return nullptr;
  for (const void* p : pointers) {
    if (!p) continue;
    auto record = Runtime::get().pointers().find(p);
    if (!record || record->kind != AllocationKind::kDevice) continue;
    DeviceState* owner = Runtime::get().device(record->device);
    if (owner && owner != &stream.device() && !device_memory_is_host_memory(*owner)) return owner;
  }
  return nullptr;
}

}  // namespace

Status submit_on(hipStream_t stream, Op op, Blocking blocking, DefaultStream default_stream) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  if (blocking == kSync)
    WEFT_RETURN_IF_ERROR(graph::check_sync(*s, "a synchronous copy or memset"));
  DeviceState* owner = nullptr;
  if (auto* copy = std::get_if<CopyOp>(&op)) owner = foreign_gpu_memory(*s, {copy->dst, copy->src});
  else if (auto* fill = std::get_if<FillOp>(&op)) owner = foreign_gpu_memory(*s, {fill->dst});
  if (owner)
    return invalid_value(fmt::format(
        "the memory belongs to GPU device {}, which the CPU agent (device {}) cannot reach: issue "
        "the "
        "copy or memset on a stream of device {} (hipSetDevice({}) for the null stream)",
        owner->ordinal(), s->device().ordinal(), owner->ordinal(), owner->ordinal()));
  WEFT_RETURN_IF_ERROR(s->submit(std::move(op)));
  if (blocking == kSync) return s->synchronize();
  return Status();
}

}  // namespace weft::api
