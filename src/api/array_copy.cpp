// SPDX-License-Identifier: MIT
// Copies with hipArray sides: hipMemcpy{2D}{To,From}Array(Async)(_spt),
// hipMemcpy2DArrayToArray, hipMemcpyAtoH/HtoA/AtoD/DtoA/AtoA(Async). The array
// forms of hipMemcpy3D and hipMemcpyParam2D (memory_3d.cpp) use copy_region too.
#include "api/array_copy.hpp"

#include "graph/capture.hpp"

#include <vector>

using namespace weft;
using namespace weft::api;

namespace weft::api {

Result<std::pair<Side, Side>> sides_of(hipMemcpyKind kind) {
  int raw = raw_value(kind);
  if ((raw < hipMemcpyHostToHost || raw > hipMemcpyDefault) && raw != hipMemcpyDeviceToDeviceNoCU)
    return Status(hipErrorInvalidMemcpyDirection, fmt::format("{} is not a hipMemcpyKind", raw));
  return copy_sides(static_cast<hipMemcpyKind>(raw));
}

namespace {

// a * b + c, or nullopt on overflow.
std::optional<size_t> mul_add(size_t a, size_t b, size_t c) {
  size_t r = 0;
  if (__builtin_mul_overflow(a, b, &r) || __builtin_add_overflow(r, c, &r)) return std::nullopt;
  return r;
}

Status check_array_side(const RegionSide& s, size_t w, size_t h, size_t d, const char* what) {
  const hipArray& a = *s.array;
  if (s.x_bytes > a.row_bytes() || a.row_bytes() - s.x_bytes < w)
    return invalid_value(
        fmt::format("{} array: x offset {} + width {} bytes exceeds its rows of {} bytes", what,
                    s.x_bytes, w, a.row_bytes()));
  if (s.y > a.rows() || a.rows() - s.y < h)
    return invalid_value(fmt::format("{} array: y offset {} + height {} exceeds its {} rows", what,
                                     s.y, h, a.rows()));
  if (s.z > a.slices() || a.slices() - s.z < d)
    return invalid_value(fmt::format("{} array: z offset {} + depth {} exceeds its {} slices", what,
                                     s.z, d, a.slices()));
  return Status();
}

Status check_linear_side(RegionSide& s, size_t w, size_t h, size_t d, const char* what) {
  if (!s.ptr) return invalid_value(fmt::format("null {} pointer", what));
  if (h == 1 && d == 1 && s.y == 0 && s.z == 0 && s.pitch < s.x_bytes + w)
    s.pitch = s.x_bytes + w;  // one row
  if (s.x_bytes > s.pitch || s.pitch - s.x_bytes < w)
    return Status(hipErrorInvalidPitchValue,
                  fmt::format("{} pitch {} is smaller than x offset {} + width {}", what, s.pitch,
                              s.x_bytes, w));
  if (d > 1 || s.z > 0) {
    if (s.y > s.rows || s.rows - s.y < h)
      return invalid_value(
          fmt::format("{}: y offset {} + height {} exceeds its {} rows per slice: the slices "
                      "would overlap",
                      what, s.y, h, s.rows));
  }
  return Status();
}

// Address of (x, y, z + slice) of a linear side, or of an array kept in linear memory.
Result<const std::byte*> address_of(const RegionSide& s, size_t slice) {
  const std::byte* base;
  size_t pitch, rows;
  if (s.array) {
    base = static_cast<const std::byte*>(s.array->data);
    pitch = s.array->row_bytes();
    rows = s.array->rows();
  } else {
    base = static_cast<const std::byte*>(s.ptr);
    pitch = s.pitch;
    rows = s.rows;
  }
  auto slice_bytes = mul_add(pitch, rows, 0);
  auto off = slice_bytes ? mul_add(*slice_bytes, s.z + slice, 0) : std::nullopt;
  if (off) off = mul_add(pitch, s.y, *off);
  if (off && *off > SIZE_MAX - s.x_bytes) off.reset();
  if (!off || reinterpret_cast<uintptr_t>(base) > UINTPTR_MAX - (*off + s.x_bytes))
    return invalid_value("the copy's position overflows the address space");
  return base + *off + s.x_bytes;
}

size_t pitch_of(const RegionSide& s) { return s.array ? s.array->row_bytes() : s.pitch; }
size_t rows_of(const RegionSide& s) { return s.array ? s.array->rows() : s.rows; }

// The whole multi-slice region of a linear side against the allocation it starts in.
Status check_linear_region(const RegionSide& s, size_t w, size_t h, size_t d, Access access,
                           const char* what) {
  WEFT_ASSIGN_OR_RETURN(const std::byte* first, address_of(s, 0));
  WEFT_ASSIGN_OR_RETURN(const std::byte* last, address_of(s, d - 1));
  auto span = span_2d(s.pitch, w, h);
  if (!span) return invalid_value("the copied region overflows the address space");
  return check_region(first, last, *span, s.side, what, access);
}

bool device_memory(const RegionSide& s) {
  switch (s.side) {
    case Side::kHost: return false;
    case Side::kDevice:
    case Side::kVerified: return true;
    case Side::kEither: return is_device_pointer(s.ptr);
  }
  return false;
}

ArrayCopySide native_side(const RegionSide& s) {
  ArrayCopySide out;
  out.x_bytes = s.x_bytes;
  out.y = s.y;
  out.z = s.z;
  if (s.array) {
    out.array = s.array->native;
  } else {
    out.ptr = const_cast<void*>(s.ptr);
    out.device = device_memory(s);
    out.pitch = s.pitch;
    out.rows = s.rows;
  }
  return out;
}

Status submit_copies(Stream& s, const std::vector<CopyOp>& ops, const CopyCall& how) {
  if (how.blocking == kSync) WEFT_RETURN_IF_ERROR(graph::check_sync(s, "a synchronous array copy"));
  for (const CopyOp& op : ops)
    WEFT_RETURN_IF_ERROR(submit_on(how.stream, op, kAsync, how.default_stream));
  if (how.blocking == kSync) return s.synchronize();
  return Status();
}

}  // namespace

namespace {

// Checks both sides of a non-empty region (not which device it runs on).
Status check_region_sides(RegionSide& dst, RegionSide& src, size_t w, size_t h, size_t d) {
  if (dst.array) WEFT_RETURN_IF_ERROR(check_array_side(dst, w, h, d, "destination"));
  else WEFT_RETURN_IF_ERROR(check_linear_side(dst, w, h, d, "destination"));
  if (src.array) WEFT_RETURN_IF_ERROR(check_array_side(src, w, h, d, "source"));
  else WEFT_RETURN_IF_ERROR(check_linear_side(src, w, h, d, "source"));
  if (!dst.array)
    WEFT_RETURN_IF_ERROR(check_linear_region(dst, w, h, d, Access::kWrite, "destination"));
  if (!src.array) WEFT_RETURN_IF_ERROR(check_linear_region(src, w, h, d, Access::kRead, "source"));
  return Status();
}

// Linear storage: one 2D copy per slice, or one for all when both sides' slices
// are exactly `h` rows apart. The sides were checked.
Result<std::vector<CopyOp>> linear_copies(const RegionSide& dst, const RegionSide& src, size_t w,
                                          size_t h, size_t d) {
  const bool merge = d == 1 || (rows_of(dst) == h && rows_of(src) == h);
  const size_t slices = merge ? 1 : d;
  const size_t rows = merge ? h * d : h;
  const Side dst_side = dst.array ? Side::kVerified : dst.side;
  const Side src_side = src.array ? Side::kVerified : src.side;
  std::vector<CopyOp> ops;
  ops.reserve(slices);
  for (size_t z = 0; z < slices; ++z) {
    WEFT_ASSIGN_OR_RETURN(const std::byte* to, address_of(dst, z));
    WEFT_ASSIGN_OR_RETURN(const std::byte* from, address_of(src, z));
    WEFT_ASSIGN_OR_RETURN(CopyOp op, make_copy(const_cast<std::byte*>(to), pitch_of(dst), from,
                                               pitch_of(src), w, rows, dst_side, src_side));
    ops.push_back(op);
  }
  return ops;
}

}  // namespace

Result<std::vector<CopyOp>> plan_region(RegionSide dst, RegionSide src, size_t w, size_t h,
                                        size_t d) {
  if (w == 0 || h == 0 || d == 0)
    return invalid_value(fmt::format("empty copy extent {} x {} x {}", w, h, d));
  if ((dst.array && dst.array->native) || (src.array && src.array->native))
    return Status(hipErrorNotSupported, "graph memcpy nodes cannot copy native (CUDA) arrays");
  WEFT_RETURN_IF_ERROR(check_region_sides(dst, src, w, h, d));
  return linear_copies(dst, src, w, h, d);
}

Result<size_t> region_sides(const hipMemcpy3DParms& p, RegionSide& dst, RegionSide& src) {
  WEFT_ASSIGN_OR_RETURN(auto sides, sides_of(p.kind));
  if ((p.srcArray && p.srcPtr.ptr) || (p.dstArray && p.dstPtr.ptr))
    return invalid_value("a copy end names both an array and a pointer");
  Ref<hipArray> dst_array, src_array;
  if (p.dstArray) {
    WEFT_ASSIGN_OR_RETURN(dst_array, find_array(p.dstArray, "dstArray"));
  }
  if (p.srcArray) {
    WEFT_ASSIGN_OR_RETURN(src_array, find_array(p.srcArray, "srcArray"));
  }
  if (!dst_array && !src_array) return invalid_value("internal: no array side");
  if (dst_array && src_array && dst_array->texel_bytes() != src_array->texel_bytes())
    return invalid_value(fmt::format("the arrays' elements differ in size ({} and {} bytes)",
                                     dst_array->texel_bytes(), src_array->texel_bytes()));
  const size_t texel = dst_array ? dst_array->texel_bytes() : src_array->texel_bytes();
  auto width = mul_add(p.extent.width, texel, 0);
  if (!width) return invalid_value("the extent overflows");
  auto side = [&](const Ref<hipArray>& array, const hipPitchedPtr& ptr, const hipPos& pos,
                  Side role, RegionSide& r) -> Status {
    r = RegionSide{};
    r.y = pos.y;
    r.z = pos.z;
    if (array) {
      auto x = mul_add(pos.x, texel, 0);
      if (!x) return invalid_value("the position overflows");
      r.array = array;
      r.x_bytes = *x;
    } else {
      r.ptr = ptr.ptr;
      r.pitch = ptr.pitch;
      r.rows = ptr.ysize;
      r.x_bytes = pos.x;
      r.side = role;
    }
    return Status();
  };
  WEFT_RETURN_IF_ERROR(side(dst_array, p.dstPtr, p.dstPos, sides.first, dst));
  WEFT_RETURN_IF_ERROR(side(src_array, p.srcPtr, p.srcPos, sides.second, src));
  return *width;
}

Status copy_region(RegionSide dst, RegionSide src, size_t w, size_t h, size_t d,
                   const CopyCall& how) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> stream, resolve_stream(how.stream, how.default_stream));
  if (w == 0 || h == 0 || d == 0) return Status();
  for (const RegionSide* side : {&dst, &src}) {
    if (side->array && side->array->device != &stream->device())
      return invalid_value(
          fmt::format("the array lives on device {}: copy it on a stream of that device",
                      side->array->device->ordinal()));
  }
  const bool native = (dst.array && dst.array->native) || (src.array && src.array->native);
  WEFT_RETURN_IF_ERROR(check_region_sides(dst, src, w, h, d));

  if (native) {
    WEFT_ASSIGN_OR_RETURN(graph::CaptureInfo capture, graph::capture_info(*stream));
    if (capture.status != hipStreamCaptureStatusNone)
      return Status(hipErrorStreamCaptureUnsupported,
                    "a copy with a native (CUDA) array cannot be captured into a graph");
    if (how.blocking == kSync)
      WEFT_RETURN_IF_ERROR(graph::check_sync(*stream, "a synchronous array copy"));
    ArrayCopyOp op;
    op.dst = native_side(dst);
    op.src = native_side(src);
    op.width_bytes = w;
    op.height = h;
    op.depth = d;
    WEFT_RETURN_IF_ERROR(stream->submit_array_copy(op));
    if (how.blocking == kSync) return stream->synchronize();
    return Status();
  }

  WEFT_ASSIGN_OR_RETURN(std::vector<CopyOp> ops, linear_copies(dst, src, w, h, d));
  return submit_copies(*stream, ops, how);
}

}  // namespace weft::api

namespace {

RegionSide array_side(Ref<hipArray> array, size_t x_bytes, size_t y, size_t z = 0) {
  RegionSide s;
  s.array = std::move(array);
  s.x_bytes = x_bytes;
  s.y = y;
  s.z = z;
  return s;
}

RegionSide linear_side(const void* ptr, size_t pitch, Side side) {
  RegionSide s;
  s.ptr = ptr;
  s.pitch = pitch;
  s.side = side;
  return s;
}

Status to_array_2d(hipArray_t dst, size_t x, size_t y, const void* src, size_t spitch, size_t width,
                   size_t height, hipMemcpyKind kind, const CopyCall& how) {
  WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(dst, "destination array"));
  WEFT_ASSIGN_OR_RETURN(auto sides, sides_of(kind));
  return copy_region(array_side(a, x, y), linear_side(src, spitch, sides.second), width, height, 1,
                     how);
}

Status from_array_2d(void* dst, size_t dpitch, hipArray_const_t src, size_t x, size_t y,
                     size_t width, size_t height, hipMemcpyKind kind, const CopyCall& how) {
  WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(src, "source array"));
  WEFT_ASSIGN_OR_RETURN(auto sides, sides_of(kind));
  return copy_region(linear_side(dst, dpitch, sides.first), array_side(a, x, y), width, height, 1,
                     how);
}

// A byte range that starts at `offset` in an array's row-major storage and may
// run across rows and slices (hipMemcpyToArray, hipMemcpyAtoH...). A side here is
// an array (with offset) or linear memory.
struct RangeSide {
  Ref<hipArray> array;
  const void* ptr = nullptr;
  Side side = Side::kEither;
  size_t offset = 0;
};

// Bytes from `offset` to the end of its row (the whole rest for linear memory).
size_t run_left(const RangeSide& s, size_t offset) {
  if (!s.array || !s.array->native) return SIZE_MAX;  // contiguous
  size_t row = s.array->row_bytes();
  return row - offset % row;
}

// The piece [offset, offset + width) of a range side as a region side. Linear
// arrays are contiguous: their storage is addressed directly (verified memory).
RegionSide region_of(const RangeSide& s, size_t offset, size_t width) {
  if (s.array && s.array->native) {
    const hipArray& a = *s.array;
    size_t row = offset / a.row_bytes();
    return array_side(s.array, offset % a.row_bytes(), row % a.rows(), row / a.rows());
  }
  if (s.array)
    return linear_side(static_cast<const std::byte*>(s.array->data) + offset, width,
                       Side::kVerified);
  return linear_side(static_cast<const std::byte*>(s.ptr) + offset, width, s.side);
}

Status copy_range(RangeSide dst, RangeSide src, size_t count, const CopyCall& how) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> stream, resolve_stream(how.stream, how.default_stream));
  for (const RangeSide* s : {&dst, &src}) {
    if (!s->array) {
      if (!s->ptr && count) return invalid_value("null source or destination pointer");
      continue;
    }
    size_t total = s->array->slice_bytes() * s->array->slices();
    if (s->offset > total || total - s->offset < count)
      return invalid_value(fmt::format("offset {} + {} bytes runs past the array's {} bytes",
                                       s->offset, count, total));
    if (s->array->device != &stream->device())
      return invalid_value(
          fmt::format("the array lives on device {}: copy it on a stream of that device",
                      s->array->device->ordinal()));
  }
  if (count == 0) return Status();
  // Pieces that stay within one row of every native array (one piece otherwise).
  std::vector<std::tuple<size_t, size_t, size_t>> pieces;  // dst offset, src offset, bytes
  for (size_t done = 0; done < count;) {
    size_t n = std::min(
        {count - done, run_left(dst, dst.offset + done), run_left(src, src.offset + done)});
    pieces.emplace_back(dst.offset + done, src.offset + done, n);
    done += n;
  }
  if (pieces.size() == 1)
    return copy_region(region_of(dst, dst.offset, count), region_of(src, src.offset, count), count,
                       1, 1, how);
  CopyCall async = how;
  async.blocking = kAsync;
  if (how.blocking == kSync)
    WEFT_RETURN_IF_ERROR(graph::check_sync(*stream, "a synchronous array copy"));
  for (auto [d_off, s_off, n] : pieces)
    WEFT_RETURN_IF_ERROR(
        copy_region(region_of(dst, d_off, n), region_of(src, s_off, n), n, 1, 1, async));
  if (how.blocking == kSync) return stream->synchronize();
  return Status();
}

RangeSide array_range(Ref<hipArray> array, size_t offset) {
  RangeSide s;
  s.array = std::move(array);
  s.offset = offset;
  return s;
}

RangeSide pointer_range(const void* ptr, Side side) {
  RangeSide s;
  s.ptr = ptr;
  s.side = side;
  return s;
}

// hipMemcpyToArray / FromArray: (wOffset, hOffset) start a range in row-major order.
Result<size_t> start_offset(const hipArray& a, size_t x, size_t y) {
  if (x > a.row_bytes())
    return invalid_value(fmt::format("wOffset {} is past the rows of {} bytes", x, a.row_bytes()));
  size_t off = 0;
  if (__builtin_mul_overflow(y, a.row_bytes(), &off) || __builtin_add_overflow(off, x, &off))
    return invalid_value("the offset overflows");
  return off;
}

Status to_array(hipArray_t dst, size_t x, size_t y, const void* src, size_t count,
                hipMemcpyKind kind, const CopyCall& how) {
  WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(dst, "destination array"));
  WEFT_ASSIGN_OR_RETURN(auto sides, sides_of(kind));
  WEFT_ASSIGN_OR_RETURN(size_t off, start_offset(*a, x, y));
  return copy_range(array_range(a, off), pointer_range(src, sides.second), count, how);
}

Status from_array(void* dst, hipArray_const_t src, size_t x, size_t y, size_t count,
                  hipMemcpyKind kind, const CopyCall& how) {
  WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(src, "source array"));
  WEFT_ASSIGN_OR_RETURN(auto sides, sides_of(kind));
  WEFT_ASSIGN_OR_RETURN(size_t off, start_offset(*a, x, y));
  return copy_range(pointer_range(dst, sides.first), array_range(a, off), count, how);
}

Status atox(void* dst, Side dst_side, hipArray_t src, size_t offset, size_t count,
            const CopyCall& how) {
  WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(src, "source array"));
  return copy_range(pointer_range(dst, dst_side), array_range(a, offset), count, how);
}

Status xtoa(hipArray_t dst, size_t offset, const void* src, Side src_side, size_t count,
            const CopyCall& how) {
  WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(dst, "destination array"));
  return copy_range(array_range(a, offset), pointer_range(src, src_side), count, how);
}

constexpr CopyCall kSyncCall{nullptr, kSync, kLegacy};
constexpr CopyCall kSyncPerThread{nullptr, kSync, kPerThread};
CopyCall async_call(hipStream_t stream, DefaultStream default_stream = kLegacy) {
  return CopyCall{stream, kAsync, default_stream};
}

}  // namespace

WEFT_EXPORT hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t wOffset, size_t hOffset,
                                          const void* src, size_t spitch, size_t width,
                                          size_t height, hipMemcpyKind kind) {
  return call(
      "hipMemcpy2DToArray",
      [&] {
    return to_array_2d(dst, wOffset, hOffset, src, spitch, width, height, kind, kSyncCall);
      },
      dst, wOffset, hOffset, src, spitch, width, height, kind);
}

WEFT_EXPORT hipError_t hipMemcpy2DToArray_spt(hipArray_t dst, size_t wOffset, size_t hOffset,
                                              const void* src, size_t spitch, size_t width,
                                              size_t height, hipMemcpyKind kind) {
  return call(
      "hipMemcpy2DToArray_spt",
      [&] {
    return to_array_2d(dst, wOffset, hOffset, src, spitch, width, height, kind, kSyncPerThread);
      },
      dst, wOffset, hOffset, src, spitch, width, height, kind);
}

WEFT_EXPORT hipError_t hipMemcpy2DToArrayAsync(hipArray_t dst, size_t wOffset, size_t hOffset,
                                               const void* src, size_t spitch, size_t width,
                                               size_t height, hipMemcpyKind kind,
                                               hipStream_t stream) {
  return call(
      "hipMemcpy2DToArrayAsync",
      [&] {
    return to_array_2d(dst, wOffset, hOffset, src, spitch, width, height, kind, async_call(stream));
      },
      dst, wOffset, hOffset, src, spitch, width, height, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpy2DToArrayAsync_spt(hipArray_t dst, size_t wOffset, size_t hOffset,
                                                   const void* src, size_t spitch, size_t width,
                                                   size_t height, hipMemcpyKind kind,
                                                   hipStream_t stream) {
  return call(
      "hipMemcpy2DToArrayAsync_spt",
      [&] {
    return to_array_2d(dst, wOffset, hOffset, src, spitch, width, height, kind,
                       async_call(stream, kPerThread));
      },
      dst, wOffset, hOffset, src, spitch, width, height, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpy2DFromArray(void* dst, size_t dpitch, hipArray_const_t src,
                                            size_t wOffset, size_t hOffset, size_t width,
                                            size_t height, hipMemcpyKind kind) {
  return call(
      "hipMemcpy2DFromArray",
      [&] {
    return from_array_2d(dst, dpitch, src, wOffset, hOffset, width, height, kind, kSyncCall);
      },
      dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

WEFT_EXPORT hipError_t hipMemcpy2DFromArray_spt(void* dst, size_t dpitch, hipArray_const_t src,
                                                size_t wOffset, size_t hOffset, size_t width,
                                                size_t height, hipMemcpyKind kind) {
  return call(
      "hipMemcpy2DFromArray_spt",
      [&] {
    return from_array_2d(dst, dpitch, src, wOffset, hOffset, width, height, kind, kSyncPerThread);
      },
      dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

WEFT_EXPORT hipError_t hipMemcpy2DFromArrayAsync(void* dst, size_t dpitch, hipArray_const_t src,
                                                 size_t wOffset, size_t hOffset, size_t width,
                                                 size_t height, hipMemcpyKind kind,
                                                 hipStream_t stream) {
  return call(
      "hipMemcpy2DFromArrayAsync",
      [&] {
    return from_array_2d(dst, dpitch, src, wOffset, hOffset, width, height, kind,
                         async_call(stream));
      },
      dst, dpitch, src, wOffset, hOffset, width, height, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpy2DFromArrayAsync_spt(void* dst, size_t dpitch, hipArray_const_t src,
                                                     size_t wOffset, size_t hOffset, size_t width,
                                                     size_t height, hipMemcpyKind kind,
                                                     hipStream_t stream) {
  return call(
      "hipMemcpy2DFromArrayAsync_spt",
      [&] {
    return from_array_2d(dst, dpitch, src, wOffset, hOffset, width, height, kind,
                         async_call(stream, kPerThread));
      },
      dst, dpitch, src, wOffset, hOffset, width, height, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpy2DArrayToArray(hipArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                               hipArray_const_t src, size_t wOffsetSrc,
                                               size_t hOffsetSrc, size_t width, size_t height,
                                               hipMemcpyKind kind) {
  return call(
      "hipMemcpy2DArrayToArray",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Ref<hipArray> d, find_array(dst, "destination array"));
    WEFT_ASSIGN_OR_RETURN(Ref<hipArray> s, find_array(src, "source array"));
    WEFT_RETURN_IF_ERROR(sides_of(kind).status());
    return copy_region(array_side(d, wOffsetDst, hOffsetDst), array_side(s, wOffsetSrc, hOffsetSrc),
                       width, height, 1, kSyncCall);
      },
      dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind);
}

WEFT_EXPORT hipError_t hipMemcpyToArray(hipArray_t dst, size_t wOffset, size_t hOffset,
                                        const void* src, size_t count, hipMemcpyKind kind) {
  return call(
      "hipMemcpyToArray",
      [&] { return to_array(dst, wOffset, hOffset, src, count, kind, kSyncCall); }, dst, wOffset,
      hOffset, src, count, kind);
}

WEFT_EXPORT hipError_t hipMemcpyFromArray(void* dst, hipArray_const_t src, size_t wOffset,
                                          size_t hOffset, size_t count, hipMemcpyKind kind) {
  return call(
      "hipMemcpyFromArray",
      [&] { return from_array(dst, src, wOffset, hOffset, count, kind, kSyncCall); }, dst, src,
      wOffset, hOffset, count, kind);
}

WEFT_EXPORT hipError_t hipMemcpyFromArray_spt(void* dst, hipArray_const_t src, size_t wOffset,
                                              size_t hOffset, size_t count, hipMemcpyKind kind) {
  return call(
      "hipMemcpyFromArray_spt",
      [&] { return from_array(dst, src, wOffset, hOffset, count, kind, kSyncPerThread); }, dst, src,
      wOffset, hOffset, count, kind);
}

WEFT_EXPORT hipError_t hipMemcpyAtoH(void* dst, hipArray_t src, size_t srcOffset, size_t count) {
  return call(
      "hipMemcpyAtoH", [&] { return atox(dst, Side::kHost, src, srcOffset, count, kSyncCall); },
      dst, src, srcOffset, count);
}

WEFT_EXPORT hipError_t hipMemcpyAtoHAsync(void* dst, hipArray_t src, size_t srcOffset, size_t count,
                                          hipStream_t stream) {
  return call(
      "hipMemcpyAtoHAsync",
      [&] { return atox(dst, Side::kHost, src, srcOffset, count, async_call(stream)); }, dst, src,
      srcOffset, count, stream);
}

WEFT_EXPORT hipError_t hipMemcpyHtoA(hipArray_t dst, size_t dstOffset, const void* src,
                                     size_t count) {
  return call(
      "hipMemcpyHtoA", [&] { return xtoa(dst, dstOffset, src, Side::kHost, count, kSyncCall); },
      dst, dstOffset, src, count);
}

WEFT_EXPORT hipError_t hipMemcpyHtoAAsync(hipArray_t dst, size_t dstOffset, const void* src,
                                          size_t count, hipStream_t stream) {
  return call(
      "hipMemcpyHtoAAsync",
      [&] { return xtoa(dst, dstOffset, src, Side::kHost, count, async_call(stream)); }, dst,
      dstOffset, src, count, stream);
}

WEFT_EXPORT hipError_t hipMemcpyAtoD(hipDeviceptr_t dst, hipArray_t src, size_t srcOffset,
                                     size_t count) {
  return call(
      "hipMemcpyAtoD", [&] { return atox(dst, Side::kDevice, src, srcOffset, count, kSyncCall); },
      dst, src, srcOffset, count);
}

WEFT_EXPORT hipError_t hipMemcpyDtoA(hipArray_t dst, size_t dstOffset, hipDeviceptr_t src,
                                     size_t count) {
  return call(
      "hipMemcpyDtoA", [&] { return xtoa(dst, dstOffset, src, Side::kDevice, count, kSyncCall); },
      dst, dstOffset, src, count);
}

WEFT_EXPORT hipError_t hipMemcpyAtoA(hipArray_t dst, size_t dstOffset, hipArray_t src,
                                     size_t srcOffset, size_t count) {
  return call(
      "hipMemcpyAtoA",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Ref<hipArray> d, find_array(dst, "destination array"));
    WEFT_ASSIGN_OR_RETURN(Ref<hipArray> s, find_array(src, "source array"));
    return copy_range(array_range(d, dstOffset), array_range(s, srcOffset), count, kSyncCall);
      },
      dst, dstOffset, src, srcOffset, count);
}
