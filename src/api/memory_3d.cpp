// SPDX-License-Identifier: MIT
// 3D and driver-style 2D copies and fills of linear memory: hipMemset3D(Async)(_spt),
// hipMemcpy3D(Async)(_spt), hipMemcpyParam2D(Async). A region is a stack of 2D slices;
// when the slices are contiguous (the pitched pointer's ysize equals the extent's
// height) it is one 2D op, otherwise one 2D op per slice, all checked before any is
// submitted. Copies with a hipArray side go through copy_region (array_copy.hpp).
#include "api/api.hpp"
#include "api/array_copy.hpp"
#include "api/memory_checks.hpp"
#include "graph/capture.hpp"

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

using namespace weft;
using namespace weft::api;

namespace {

// a * b, or nullopt when it overflows size_t.
std::optional<size_t> mul(size_t a, size_t b) {
  size_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// Submits every op in order; the synchronous forms wait once at the end. Checks
// the capture state first so a synchronous call never half-submits.
template <typename OpT>
Status submit_all(hipStream_t stream, const std::vector<OpT>& ops, Blocking blocking,
                  DefaultStream default_stream) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  if (blocking == kSync)
    WEFT_RETURN_IF_ERROR(graph::check_sync(*s, "a synchronous 3D copy or memset"));
  for (const OpT& op : ops) WEFT_RETURN_IF_ERROR(submit_on(stream, op, kAsync, default_stream));
  if (blocking == kSync) return s->synchronize();
  return Status();
}

// Byte offset of (x, y, z) in a pitched region whose slices are `rows` rows apart.
Result<size_t> offset_3d(size_t pitch, size_t rows, size_t x, size_t y, size_t z) {
  auto slice = mul(pitch, rows);
  auto slice_off = slice ? mul(*slice, z) : std::nullopt;
  auto row_off = mul(pitch, y);
  if (!slice_off || !row_off || *slice_off > SIZE_MAX - *row_off - x)
    return invalid_value("the position overflows the address space");
  return *slice_off + *row_off + x;
}

Status memset_3d(hipPitchedPtr p, int value, hipExtent extent, hipStream_t stream,
                 Blocking blocking, DefaultStream default_stream) {
  if (extent.width == 0 || extent.height == 0 || extent.depth == 0) {
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
    (void)s;
    return Status();
  }
  if (!p.ptr) return invalid_value("null pitchedDevPtr.ptr");
  if (p.pitch < extent.width)
    return invalid_value(
        fmt::format("pitch {} is smaller than the extent's width {}", p.pitch, extent.width));
  if (extent.depth > 1 && p.ysize < extent.height)
    return invalid_value(
        fmt::format("extent height {} exceeds pitchedDevPtr.ysize {}: the slices would overlap",
                    extent.height, p.ysize));
  auto* base = static_cast<std::byte*>(p.ptr);
  std::vector<FillOp> ops;
  if (extent.depth == 1 || p.ysize == extent.height) {
    auto rows = mul(extent.height, extent.depth);
    if (!rows) return invalid_value("the extent overflows");
    WEFT_ASSIGN_OR_RETURN(
        FillOp op, make_fill(base, p.pitch, static_cast<uint8_t>(value), 1, extent.width, *rows));
    ops.push_back(op);
  } else {
    for (size_t z = 0; z < extent.depth; ++z) {
      WEFT_ASSIGN_OR_RETURN(size_t off, offset_3d(p.pitch, p.ysize, 0, 0, z));
      WEFT_ASSIGN_OR_RETURN(FillOp op, make_fill(base + off, p.pitch, static_cast<uint8_t>(value),
                                                 1, extent.width, extent.height));
      ops.push_back(op);
    }
  }
  // Slices past the first may start beyond the allocation p.ptr lies in.
  const FillOp& last = ops.back();
  auto last_span = span_2d(last.pitch, last.width_elements, last.height);
  if (!last_span) return invalid_value("the extent overflows");
  WEFT_RETURN_IF_ERROR(
      check_region(base, last.dst, *last_span, Side::kDevice, "pitchedDevPtr", Access::kWrite));
  return submit_all(stream, ops, blocking, default_stream);
}

// Checks one side of a 3D copy: the row must fit in the pitch, and stacked slices
// must not overlap.
Status check_side(const hipPitchedPtr& p, const hipPos& pos, const hipExtent& extent,
                  const char* what) {
  if (!p.ptr) return invalid_value(fmt::format("null {}Ptr.ptr", what));
  if (pos.x > p.pitch || p.pitch - pos.x < extent.width)
    return Status(hipErrorInvalidPitchValue,
                  fmt::format("{} pitch {} is smaller than {}Pos.x {} + extent width {}", what,
                              p.pitch, what, pos.x, extent.width));
  if (extent.depth > 1 && (pos.y > p.ysize || p.ysize - pos.y < extent.height))
    return invalid_value(fmt::format(
        "{}Pos.y {} + extent height {} exceeds {}Ptr.ysize {}: the slices would overlap", what,
        pos.y, extent.height, what, p.ysize));
  return Status();
}

// hipMemcpy3D with an array side: positions and the extent's width count the
// array's elements on array sides, bytes on linear ones (as in CUDA).
Status memcpy_3d_array(const hipMemcpy3DParms& p, hipStream_t stream, Blocking blocking,
                       DefaultStream default_stream) {
  RegionSide dst, src;
  WEFT_ASSIGN_OR_RETURN(size_t width, region_sides(p, dst, src));
  return copy_region(std::move(dst), std::move(src), width, p.extent.height, p.extent.depth,
                     CopyCall{stream, blocking, default_stream});
}

Status memcpy_3d(const hipMemcpy3DParms* params, hipStream_t stream, Blocking blocking,
                 DefaultStream default_stream) {
  if (!params) return invalid_value("null hipMemcpy3DParms");
  const hipMemcpy3DParms& p = *params;
  if (p.srcArray || p.dstArray) return memcpy_3d_array(p, stream, blocking, default_stream);
  WEFT_RETURN_IF_ERROR(copy_direction(p.kind, p.dstPtr.ptr, p.srcPtr.ptr).status());
  const hipExtent& e = p.extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0) {
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
    (void)s;
    return Status();
  }
  WEFT_RETURN_IF_ERROR(check_side(p.srcPtr, p.srcPos, e, "src"));
  WEFT_RETURN_IF_ERROR(check_side(p.dstPtr, p.dstPos, e, "dst"));
  auto* src = static_cast<const std::byte*>(p.srcPtr.ptr);
  auto* dst = static_cast<std::byte*>(p.dstPtr.ptr);
  std::vector<CopyOp> ops;
  bool contiguous = e.depth == 1 || (p.srcPtr.ysize == e.height && p.dstPtr.ysize == e.height);
  size_t slices = contiguous ? 1 : e.depth;
  size_t rows = e.height;
  if (contiguous) {
    auto all = mul(e.height, e.depth);
    if (!all) return invalid_value("the extent overflows");
    rows = *all;
  }
  for (size_t z = 0; z < slices; ++z) {
    WEFT_ASSIGN_OR_RETURN(size_t soff, offset_3d(p.srcPtr.pitch, p.srcPtr.ysize, p.srcPos.x,
                                                 p.srcPos.y, p.srcPos.z + z));
    WEFT_ASSIGN_OR_RETURN(size_t doff, offset_3d(p.dstPtr.pitch, p.dstPtr.ysize, p.dstPos.x,
                                                 p.dstPos.y, p.dstPos.z + z));
    WEFT_ASSIGN_OR_RETURN(CopyOp op, make_copy(dst + doff, p.dstPtr.pitch, src + soff,
                                               p.srcPtr.pitch, e.width, rows, p.kind));
    ops.push_back(op);
  }
  // Slices past the first may start beyond the allocation each base lies in.
  WEFT_ASSIGN_OR_RETURN(auto sides, copy_sides(p.kind));
  const CopyOp& last = ops.back();
  auto dst_span = span_2d(last.dst_pitch, last.width, last.height);
  auto src_span = span_2d(last.src_pitch, last.width, last.height);
  if (!dst_span || !src_span) return invalid_value("the extent overflows");
  WEFT_RETURN_IF_ERROR(
      check_region(dst, last.dst, *dst_span, sides.first, "dstPtr", Access::kWrite));
  WEFT_RETURN_IF_ERROR(
      check_region(src, last.src, *src_span, sides.second, "srcPtr", Access::kRead));
  return submit_all(stream, ops, blocking, default_stream);
}

// One side of a hip_Memcpy2D: the address it names, and what its memory type
// says it is (unified: let the pointer table decide).
struct Param2DSide {
  const std::byte* ptr = nullptr;
  Side side = Side::kEither;
};

Result<Param2DSide> param_side(hipMemoryType type, const void* host, const void* device,
                               hipArray_t array, size_t x, size_t y, size_t pitch,
                               const char* what) {
  Param2DSide side;
  switch (type) {
    case hipMemoryTypeHost:
      side.ptr = static_cast<const std::byte*>(host);
      side.side = Side::kHost;
      break;
    case hipMemoryTypeDevice:
    case hipMemoryTypeManaged:
      side.ptr = static_cast<const std::byte*>(device);
      side.side = Side::kDevice;
      break;
    case hipMemoryTypeUnified: side.ptr = static_cast<const std::byte*>(device); break;
    case hipMemoryTypeArray:
      (void)array;  // memcpy_param_2d_array's business
      return Status(hipErrorInvalidValue, fmt::format("{}MemoryType hipMemoryTypeArray", what));
    default:
      return invalid_value(
          fmt::format("{}MemoryType {} is not a memory type", what, static_cast<int>(type)));
  }
  if (!side.ptr) return invalid_value(fmt::format("null {} pointer", what));
  auto row_off = mul(pitch, y);
  if (!row_off || *row_off > SIZE_MAX - x) return invalid_value("the position overflows");
  side.ptr += *row_off + x;
  return side;
}

// One side of a hip_Memcpy2D that names an array or memory.
Result<RegionSide> param_region(hipMemoryType type, const void* host, const void* device,
                                hipArray_const_t array, size_t x, size_t y, size_t pitch,
                                const char* what) {
  RegionSide r;
  r.x_bytes = x;
  r.y = y;
  switch (raw_value(type)) {
    case hipMemoryTypeArray: {
      WEFT_ASSIGN_OR_RETURN(r.array, find_array(array, what));
      return r;
    }
    case hipMemoryTypeHost:
      r.ptr = host;
      r.side = Side::kHost;
      break;
    case hipMemoryTypeDevice:
    case hipMemoryTypeManaged:
      r.ptr = device;
      r.side = Side::kDevice;
      break;
    case hipMemoryTypeUnified:
      r.ptr = device;
      r.side = Side::kEither;
      break;
    default:
      return invalid_value(
          fmt::format("{}MemoryType {} is not a memory type", what, raw_value(type)));
  }
  r.pitch = pitch;
  return r;
}

Status memcpy_param_2d(const hip_Memcpy2D* copy, hipStream_t stream, Blocking blocking) {
  if (!copy) return invalid_value("null hip_Memcpy2D");
  const hip_Memcpy2D& c = *copy;
  if (raw_value(c.srcMemoryType) == hipMemoryTypeArray ||
      raw_value(c.dstMemoryType) == hipMemoryTypeArray) {
    WEFT_ASSIGN_OR_RETURN(RegionSide src,
                          param_region(c.srcMemoryType, c.srcHost, c.srcDevice, c.srcArray,
                                       c.srcXInBytes, c.srcY, c.srcPitch, "src"));
    WEFT_ASSIGN_OR_RETURN(RegionSide dst,
                          param_region(c.dstMemoryType, c.dstHost, c.dstDevice, c.dstArray,
                                       c.dstXInBytes, c.dstY, c.dstPitch, "dst"));
    return copy_region(std::move(dst), std::move(src), c.WidthInBytes, c.Height, 1,
                       CopyCall{stream, blocking, kLegacy});
  }
  if (c.WidthInBytes == 0 || c.Height == 0) {
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
    (void)s;
    return Status();
  }
  WEFT_ASSIGN_OR_RETURN(Param2DSide src,
                        param_side(c.srcMemoryType, c.srcHost, c.srcDevice, c.srcArray,
                                   c.srcXInBytes, c.srcY, c.srcPitch, "src"));
  WEFT_ASSIGN_OR_RETURN(Param2DSide dst,
                        param_side(c.dstMemoryType, c.dstHost, c.dstDevice, c.dstArray,
                                   c.dstXInBytes, c.dstY, c.dstPitch, "dst"));
  // The driver-API form reports a short pitch as cuMemcpy2D does: the driver API
  // has no pitch error, so it is hipErrorInvalidValue (pitch 0 included). One
  // row needs no pitch.
  if (c.Height > 1 &&
      (c.srcPitch < c.srcXInBytes + c.WidthInBytes || c.dstPitch < c.dstXInBytes + c.WidthInBytes))
    return invalid_value(fmt::format(
        "srcPitch {} or dstPitch {} is smaller than XInBytes + WidthInBytes ({} + {} / {} + {}) "
        "for a copy of {} rows",
        c.srcPitch, c.dstPitch, c.srcXInBytes, c.WidthInBytes, c.dstXInBytes, c.WidthInBytes,
        c.Height));
  WEFT_ASSIGN_OR_RETURN(CopyOp op,
                        make_copy(const_cast<std::byte*>(dst.ptr), c.dstPitch, src.ptr, c.srcPitch,
                                  c.WidthInBytes, c.Height, dst.side, src.side));
  return submit_on(stream, op, blocking);
}

// A HIP_MEMCPY3D side as a pitched pointer, and what its memory type says it is.
struct DrvSide {
  void* ptr = nullptr;
  int kind = 0;  // 0 host, 1 device, 2 unified (the pointer table decides)
};

Result<DrvSide> drv_side(int type, const void* host, hipDeviceptr_t device, hipArray_t array,
                         size_t lod, const char* what) {
  if (lod != 0) return invalid_value(fmt::format("{}LOD must be 0 for linear memory", what));
  switch (type) {
    case hipMemoryTypeHost: return DrvSide{const_cast<void*>(host), 0};
    case hipMemoryTypeDevice:
    case hipMemoryTypeManaged: return DrvSide{device, 1};
    case hipMemoryTypeUnified: return DrvSide{device, 2};
    case hipMemoryTypeArray:
      (void)array;
      return Status(hipErrorNotSupported,
                    fmt::format("{}MemoryType hipMemoryTypeArray: copies of hipArrays are "
                                "the arrays family's (hipMemcpy3D with srcArray/dstArray)",
                                what));
    default: return invalid_value(fmt::format("{}MemoryType {} is not a memory type", what, type));
  }
}

hipMemcpyKind kind_between(int src, int dst) {
  if (src == 2 || dst == 2) return hipMemcpyDefault;
  if (src == 0) return dst == 0 ? hipMemcpyHostToHost : hipMemcpyHostToDevice;
  return dst == 0 ? hipMemcpyDeviceToHost : hipMemcpyDeviceToDevice;
}

Status drv_memcpy_3d(const HIP_MEMCPY3D* p, hipStream_t stream, Blocking blocking) {
  if (!p) return invalid_value("null HIP_MEMCPY3D");
  WEFT_ASSIGN_OR_RETURN(DrvSide src, drv_side(raw_value(p->srcMemoryType), p->srcHost, p->srcDevice,
                                              p->srcArray, p->srcLOD, "src"));
  WEFT_ASSIGN_OR_RETURN(DrvSide dst, drv_side(raw_value(p->dstMemoryType), p->dstHost, p->dstDevice,
                                              p->dstArray, p->dstLOD, "dst"));
  hipMemcpy3DParms q{};
  // A height of 0 means "the copy's height" for one slice (the driver API's rule).
  q.srcPtr = make_hipPitchedPtr(src.ptr, p->srcPitch, p->WidthInBytes,
                                p->srcHeight ? p->srcHeight : p->Height);
  q.dstPtr = make_hipPitchedPtr(dst.ptr, p->dstPitch, p->WidthInBytes,
                                p->dstHeight ? p->dstHeight : p->Height);
  if (p->Height <= 1 && p->Depth <= 1) {  // one row needs no pitch
    if (q.srcPtr.pitch == 0) q.srcPtr.pitch = p->srcXInBytes + p->WidthInBytes;
    if (q.dstPtr.pitch == 0) q.dstPtr.pitch = p->dstXInBytes + p->WidthInBytes;
  }
  q.srcPos = make_hipPos(p->srcXInBytes, p->srcY, p->srcZ);
  q.dstPos = make_hipPos(p->dstXInBytes, p->dstY, p->dstZ);
  q.extent = make_hipExtent(p->WidthInBytes, p->Height, p->Depth);
  q.kind = kind_between(src.kind, dst.kind);
  return memcpy_3d(&q, stream, blocking, kLegacy);
}

Status memcpy_3d_peer(const hipMemcpy3DPeerParms* p, hipStream_t stream, Blocking blocking) {
  if (!p) return invalid_value("null hipMemcpy3DPeerParms");
  WEFT_RETURN_IF_ERROR(device_at(p->srcDevice).status());
  WEFT_RETURN_IF_ERROR(device_at(p->dstDevice).status());
  if (p->srcArray || p->dstArray)
    return Status(hipErrorNotSupported,
                  "copies of hipArrays are the arrays family's (hipMemcpy3D)");
  hipMemcpy3DParms q{};
  q.srcPos = p->srcPos;
  q.srcPtr = p->srcPtr;
  q.dstPos = p->dstPos;
  q.dstPtr = p->dstPtr;
  q.extent = p->extent;
  q.kind = hipMemcpyDeviceToDevice;
  // Each side must be device memory of the device it names.
  for (auto [ptr, ordinal, what] : {std::tuple{p->srcPtr.ptr, p->srcDevice, "srcPtr"},
                                    std::tuple{p->dstPtr.ptr, p->dstDevice, "dstPtr"}}) {
    auto record = Runtime::get().pointers().find(ptr);
    if (record && record->device != ordinal)
      return invalid_value(fmt::format("{} {} is memory of device {}, not of device {}", what, ptr,
                                       record->device, ordinal));
  }
  return memcpy_3d(&q, stream, blocking, kLegacy);
}

Status check_access_order(int order, const char* what) {
  switch (order) {
    case hipMemcpySrcAccessOrderStream:
    case hipMemcpySrcAccessOrderDuringApiCall:
    case hipMemcpySrcAccessOrderAny: return Status();
    default:
      return invalid_value(fmt::format("{}: {} is not a hipMemcpySrcAccessOrder", what, order));
  }
}

// hipMemcpyBatchAsync: attribute i applies from attrsIdxs[i] to the next start.
Status memcpy_batch(void** dsts, void** srcs, size_t* sizes, size_t count,
                    hipMemcpyAttributes* attrs, size_t* attrs_idxs, size_t num_attrs,
                    size_t* fail_idx, hipStream_t stream) {
  if (fail_idx) *fail_idx = SIZE_MAX;
  if (count == 0 || !dsts || !srcs || !sizes) return invalid_value("no copies, or null arrays");
  if (num_attrs == 0 || num_attrs > count || !attrs || !attrs_idxs)
    return invalid_value("attributes must be 1 to count entries with their start indices");
  if (attrs_idxs[0] != 0) return invalid_value("the first attribute must start at copy 0");
  for (size_t i = 0; i < num_attrs; ++i) {
    const size_t to = i + 1 < num_attrs ? attrs_idxs[i + 1] : count;
    if (attrs_idxs[i] >= to || to > count)
      return invalid_value(fmt::format("attribute start indices must increase below {}", count));
    WEFT_RETURN_IF_ERROR(check_access_order(raw_value(attrs[i].srcAccessOrder), "srcAccessOrder"));
    if (attrs[i].flags & ~unsigned(hipMemcpyFlagPreferOverlapWithCompute))
      return invalid_value(
          fmt::format("attribute {}: flags {:#x} are not hipMemcpyFlags", i, attrs[i].flags));
  }
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
  (void)s;
  // Every copy is checked before any is queued.
  std::vector<CopyOp> ops;
  ops.reserve(count);
  for (size_t j = 0; j < count; ++j) {
    if (sizes[j] == 0) continue;
    Result<CopyOp> op =
        make_copy(dsts[j], sizes[j], srcs[j], sizes[j], sizes[j], 1, hipMemcpyDefault);
    if (!op.ok()) {
      if (fail_idx) *fail_idx = j;
      return Status(op.status().code(), fmt::format("copy {}: {}", j, op.status().message()));
    }
    ops.push_back(op.value());
  }
  for (size_t j = 0; j < ops.size(); ++j) WEFT_RETURN_IF_ERROR(submit_on(stream, ops[j], kAsync));
  return Status();
}

// One operand of hipMemcpy3DBatchAsync as a pitched pointer (rows and layers in bytes:
// a pointer operand's elements are bytes).
Result<hipPitchedPtr> batch_operand(const hipMemcpy3DOperand& o, const hipExtent& e,
                                    const char* what) {
  switch (raw_value(o.type)) {
    case hipMemcpyOperandTypePointer:
      if (!o.op.ptr.ptr) return invalid_value(fmt::format("null {} pointer", what));
      return make_hipPitchedPtr(o.op.ptr.ptr, o.op.ptr.rowLength ? o.op.ptr.rowLength : e.width,
                                e.width, o.op.ptr.layerHeight ? o.op.ptr.layerHeight : e.height);
    case hipMemcpyOperandTypeArray:
      return Status(
          hipErrorNotSupported,
          fmt::format("{} is a hipArray: copies of hipArrays are the arrays family's", what));
    default:
      return invalid_value(fmt::format("{} operand type {} is not a hipMemcpy3DOperandType", what,
                                       raw_value(o.type)));
  }
}

Status memcpy_3d_batch(size_t num_ops, hipMemcpy3DBatchOp* ops, size_t* fail_idx,
                       unsigned long long flags, hipStream_t stream) {
  if (fail_idx) *fail_idx = SIZE_MAX;
  if (num_ops == 0 || !ops) return invalid_value("no copies, or a null list");
  if (flags != 0) return invalid_value("flags must be 0");
  std::vector<hipMemcpy3DParms> copies(num_ops);
  for (size_t i = 0; i < num_ops; ++i) {
    auto fail = [&](const Status& status) {
      if (fail_idx) *fail_idx = i;
      return Status(status.code(), fmt::format("copy {}: {}", i, status.message()));
    };
    const hipMemcpy3DBatchOp& op = ops[i];
    if (Status st = check_access_order(raw_value(op.srcAccessOrder), "srcAccessOrder"); !st.ok())
      return fail(st);
    if (op.flags & ~unsigned(hipMemcpyFlagPreferOverlapWithCompute))
      return fail(invalid_value(fmt::format("flags {:#x} are not hipMemcpyFlags", op.flags)));
    Result<hipPitchedPtr> src = batch_operand(op.src, op.extent, "src");
    if (!src.ok()) return fail(src.status());
    Result<hipPitchedPtr> dst = batch_operand(op.dst, op.extent, "dst");
    if (!dst.ok()) return fail(dst.status());
    copies[i].srcPtr = src.value();
    copies[i].dstPtr = dst.value();
    copies[i].extent = op.extent;
    copies[i].kind = hipMemcpyDefault;
  }
  for (size_t i = 0; i < num_ops; ++i) {
    Status status = memcpy_3d(&copies[i], stream, kAsync, kLegacy);
    if (!status.ok()) {
      if (fail_idx) *fail_idx = i;
      return Status(status.code(), fmt::format("copy {}: {}", i, status.message()));
    }
  }
  return Status();
}

}  // namespace

WEFT_EXPORT hipError_t hipMemset3D(hipPitchedPtr ptr, int value, hipExtent extent) {
  return call(
      "hipMemset3D", [&] { return memset_3d(ptr, value, extent, nullptr, kSync, kLegacy); },
      ptr.ptr, ptr.pitch, ptr.xsize, ptr.ysize, value, extent.width, extent.height, extent.depth);
}

WEFT_EXPORT hipError_t hipMemset3D_spt(hipPitchedPtr ptr, int value, hipExtent extent) {
  return call(
      "hipMemset3D_spt", [&] { return memset_3d(ptr, value, extent, nullptr, kSync, kPerThread); },
      ptr.ptr, ptr.pitch, ptr.xsize, ptr.ysize, value, extent.width, extent.height, extent.depth);
}

WEFT_EXPORT hipError_t hipMemset3DAsync(hipPitchedPtr ptr, int value, hipExtent extent,
                                        hipStream_t stream) {
  return call(
      "hipMemset3DAsync", [&] { return memset_3d(ptr, value, extent, stream, kAsync, kLegacy); },
      ptr.ptr, ptr.pitch, ptr.xsize, ptr.ysize, value, extent.width, extent.height, extent.depth,
      stream);
}

WEFT_EXPORT hipError_t hipMemset3DAsync_spt(hipPitchedPtr ptr, int value, hipExtent extent,
                                            hipStream_t stream) {
  return call(
      "hipMemset3DAsync_spt",
      [&] { return memset_3d(ptr, value, extent, stream, kAsync, kPerThread); }, ptr.ptr, ptr.pitch,
      ptr.xsize, ptr.ysize, value, extent.width, extent.height, extent.depth, stream);
}

WEFT_EXPORT hipError_t hipMemcpy3D(const hipMemcpy3DParms* p) {
  return call(
      "hipMemcpy3D", [&] { return memcpy_3d(p, nullptr, kSync, kLegacy); }, p);
}

WEFT_EXPORT hipError_t hipMemcpy3D_spt(const hipMemcpy3DParms* p) {
  return call(
      "hipMemcpy3D_spt", [&] { return memcpy_3d(p, nullptr, kSync, kPerThread); }, p);
}

WEFT_EXPORT hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms* p, hipStream_t stream) {
  return call(
      "hipMemcpy3DAsync", [&] { return memcpy_3d(p, stream, kAsync, kLegacy); }, p, stream);
}

WEFT_EXPORT hipError_t hipMemcpy3DAsync_spt(const hipMemcpy3DParms* p, hipStream_t stream) {
  return call(
      "hipMemcpy3DAsync_spt", [&] { return memcpy_3d(p, stream, kAsync, kPerThread); }, p, stream);
}

WEFT_EXPORT hipError_t hipMemcpyParam2D(const hip_Memcpy2D* copy) {
  return call(
      "hipMemcpyParam2D", [&] { return memcpy_param_2d(copy, nullptr, kSync); }, copy);
}

WEFT_EXPORT hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D* copy, hipStream_t stream) {
  return call(
      "hipMemcpyParam2DAsync", [&] { return memcpy_param_2d(copy, stream, kAsync); }, copy, stream);
}

WEFT_EXPORT hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D* copy) {
  // Unaligned: no pitch or offset alignment is asked for, as for every weft copy.
  return call(
      "hipDrvMemcpy2DUnaligned", [&] { return memcpy_param_2d(copy, nullptr, kSync); }, copy);
}

WEFT_EXPORT hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D* copy) {
  return call(
      "hipDrvMemcpy3D", [&] { return drv_memcpy_3d(copy, nullptr, kSync); }, copy);
}

WEFT_EXPORT hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D* copy, hipStream_t stream) {
  return call(
      "hipDrvMemcpy3DAsync", [&] { return drv_memcpy_3d(copy, stream, kAsync); }, copy, stream);
}

WEFT_EXPORT hipError_t hipMemcpy3DPeer(hipMemcpy3DPeerParms* p) {
  return call(
      "hipMemcpy3DPeer", [&] { return memcpy_3d_peer(p, nullptr, kSync); }, p);
}

WEFT_EXPORT hipError_t hipMemcpy3DPeerAsync(hipMemcpy3DPeerParms* p, hipStream_t stream) {
  return call(
      "hipMemcpy3DPeerAsync", [&] { return memcpy_3d_peer(p, stream, kAsync); }, p, stream);
}

WEFT_EXPORT hipError_t hipMemcpyBatchAsync(void** dsts, void** srcs, size_t* sizes, size_t count,
                                           hipMemcpyAttributes* attrs, size_t* attrsIdxs,
                                           size_t numAttrs, size_t* failIdx, hipStream_t stream) {
  return call(
      "hipMemcpyBatchAsync",
      [&] {
    return memcpy_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, stream);
      },
      dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, stream);
}

WEFT_EXPORT hipError_t hipMemcpy3DBatchAsync(size_t numOps, hipMemcpy3DBatchOp* opList,
                                             size_t* failIdx, unsigned long long flags,
                                             hipStream_t stream) {
  return call(
      "hipMemcpy3DBatchAsync",
      [&] { return memcpy_3d_batch(numOps, opList, failIdx, flags, stream); }, numOps, opList,
      failIdx, flags, stream);
}
