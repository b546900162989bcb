// SPDX-License-Identifier: MIT
#include "api/memory_checks.hpp"

#include "graph/capture.hpp"

namespace weft::api {

Status check_span(const void* ptr, size_t bytes, const char* what) {
  auto record = Runtime::get().pointers().find(ptr);
  if (!record || record->contains(ptr, bytes)) return Status();
  size_t offset = static_cast<size_t>(static_cast<const std::byte*>(ptr) - record->base);
  return invalid_value(fmt::format(
      "{} {} + {} bytes runs past the end of its allocation ({} bytes at {}, offset {})", what,
      ptr, bytes, record->size, static_cast<const void*>(record->base), offset));
}

bool is_device_pointer(const void* ptr) {
  auto record = Runtime::get().pointers().find(ptr);
  return record && (record->kind == AllocationKind::kDevice ||
                    record->kind == AllocationKind::kManaged);
}

Result<CopyDirection> copy_direction(hipMemcpyKind kind, const void* dst, const void* src) {
  switch (kind) {
    case hipMemcpyHostToHost: return CopyDirection::kHostToHost;
    case hipMemcpyHostToDevice: return CopyDirection::kHostToDevice;
    case hipMemcpyDeviceToHost: return CopyDirection::kDeviceToHost;
    case hipMemcpyDeviceToDevice:
    case hipMemcpyDeviceToDeviceNoCU: return CopyDirection::kDeviceToDevice;
    case hipMemcpyDefault: {
      bool d = is_device_pointer(dst), s = is_device_pointer(src);
      if (d && s) return CopyDirection::kDeviceToDevice;
      if (d) return CopyDirection::kHostToDevice;
      if (s) return CopyDirection::kDeviceToHost;
      return CopyDirection::kHostToHost;
    }
  }
  return Status(hipErrorInvalidMemcpyDirection,
                fmt::format("{} is not a hipMemcpyKind", static_cast<int>(kind)));
}

Result<CopyOp> make_copy(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                         size_t width, size_t height, hipMemcpyKind kind) {
  WEFT_ASSIGN_OR_RETURN(CopyDirection direction, copy_direction(kind, dst, src));
  CopyOp op;
  op.dst = dst;
  op.src = src;
  op.width = width;
  op.height = height;
  op.dst_pitch = dst_pitch;
  op.src_pitch = src_pitch;
  op.direction = direction;
  if (width == 0 || height == 0) return op;
  if (!dst || !src) return invalid_value("null source or destination");
  if (height > 1 && (dst_pitch < width || src_pitch < width))
    return Status(hipErrorInvalidPitchValue, "pitch is smaller than the row width");
  WEFT_RETURN_IF_ERROR(check_span(dst, span_2d(dst_pitch, width, height), "destination"));
  WEFT_RETURN_IF_ERROR(check_span(src, span_2d(src_pitch, width, height), "source"));
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
  size_t row_bytes = width_elements * element_size;
  if (height > 1 && pitch < row_bytes)
    return Status(hipErrorInvalidPitchValue, "pitch is smaller than the row width");
  WEFT_RETURN_IF_ERROR(check_span(dst, span_2d(pitch, row_bytes, height), "destination"));
  return op;
}

namespace {

// A CPU agent's queue runs copies and fills with memmove on host addresses, so it
// must never be handed device memory of a GPU agent (a device address is not a
// host address). Returns the GPU agent owning such memory, or nullptr.
DeviceState* foreign_gpu_memory(const Stream& stream, std::initializer_list<const void*> pointers) {
  // Without GPU agents (every CI run) or on a GPU stream there is nothing to look up.
  if (!Runtime::get().any_gpu() || stream.device().driver_device().kind() != AgentKind::kCpu) return nullptr;
  for (const void* p : pointers) {
    if (!p) continue;
    auto record = Runtime::get().pointers().find(p);
    if (!record || record->kind != AllocationKind::kDevice) continue;
    DeviceState* owner = Runtime::get().device(record->device);
    if (owner && owner != &stream.device() && owner->driver_device().kind() != AgentKind::kCpu) return owner;
  }
  return nullptr;
}

}  // namespace

Status submit_on(hipStream_t stream, Op op, bool sync, bool per_thread) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, per_thread));
  if (sync) WEFT_RETURN_IF_ERROR(graph::check_sync(*s, "a synchronous copy or memset"));
  DeviceState* owner = nullptr;
  if (auto* copy = std::get_if<CopyOp>(&op)) owner = foreign_gpu_memory(*s, {copy->dst, copy->src});
  else if (auto* fill = std::get_if<FillOp>(&op)) owner = foreign_gpu_memory(*s, {fill->dst});
  if (owner)
    return invalid_value(fmt::format(
        "the memory belongs to GPU device {}, which the CPU agent (device {}) cannot reach: issue the "
        "copy or memset on a stream of device {} (hipSetDevice({}) for the null stream)",
        owner->ordinal(), s->device().ordinal(), owner->ordinal(), owner->ordinal()));
  WEFT_RETURN_IF_ERROR(s->submit(std::move(op)));
  if (sync) return s->synchronize();
  return Status();
}

}  // namespace weft::api
