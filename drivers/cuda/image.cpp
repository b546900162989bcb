// SPDX-License-Identifier: MIT
// CUDA arrays, texture and surface objects on the NVIDIA agent: the driver
// contract's optional image methods (weft/driver/image.hpp) as cuArray3DCreate /
// cuMipmappedArrayCreate, cuMemcpy3DAsync with array operands, cuTexObjectCreate
// and cuSurfObjectCreate. HIP's array formats, flags, address and filter modes
// and view formats have CUDA's values, so they pass through unchanged. A libcuda
// without these entry points answers hipErrorNotSupported.
#include <cstdint>

#include "device.hpp"
#include "queue.hpp"
#include "status.hpp"

namespace weft::cuda {
namespace {

Status missing(const char* name) {
  return Status(hipErrorNotSupported, std::string("libcuda has no ") + name);
}

// A CUarray: owned, or a level of a mipmapped array (then `parent` keeps it alive
// and CUDA frees it with the mipmap).
class CudaArray final : public NativeArray {
 public:
  CudaArray(const Api& api, CUarray array, Ref<NativeArray> parent)
      : api_(api), array_(array), parent_(std::move(parent)) {}
  ~CudaArray() override {
    if (!parent_) (void)api_.cuArrayDestroy(array_);
  }
  uint64_t handle() const override { return reinterpret_cast<uintptr_t>(array_); }

 private:
  const Api& api_;
  const CUarray array_;
  const Ref<NativeArray> parent_;
};

class CudaMipmap final : public NativeArray {
 public:
  CudaMipmap(CudaDevice& device, CUmipmappedArray mipmap, unsigned levels)
      : device_(&device), mipmap_(mipmap), levels_(levels) {}
  ~CudaMipmap() override { (void)device_->api().cuMipmappedArrayDestroy(mipmap_); }
  uint64_t handle() const override { return reinterpret_cast<uintptr_t>(mipmap_); }
  Result<Ref<NativeArray>> level(unsigned level) override {
    if (level >= levels_) return Status(hipErrorInvalidValue, "no such mipmap level");
    WEFT_RETURN_IF_ERROR(device_->make_current());
    CUarray array = nullptr;
    WEFT_CU_RETURN_IF_ERROR(device_->api().cuMipmappedArrayGetLevel(&array, mipmap_, level));
    return Ref<NativeArray>(make_ref<CudaArray>(device_->api(), array, Ref<NativeArray>(this)));
  }

 private:
  Ref<CudaDevice> device_;
  const CUmipmappedArray mipmap_;
  const unsigned levels_;
};

CUarray cu_array(const Ref<NativeArray>& a) {
  return reinterpret_cast<CUarray>(static_cast<uintptr_t>(a->handle()));
}

void fill_side(const ArrayCopySide& s, CUmemorytype& type, const void*& host, CUdeviceptr& device,
               CUarray& array, size_t& pitch, size_t& height) {
  if (s.array) {
    type = CU_MEMORYTYPE_ARRAY;
    array = cu_array(s.array);
    return;
  }
  type = s.device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
  if (s.device) device = reinterpret_cast<CUdeviceptr>(s.ptr);
  else host = s.ptr;
  pitch = s.pitch;
  height = s.rows;
}

Result<CUDA_RESOURCE_DESC> resource_desc(const NativeResource& r) {
  CUDA_RESOURCE_DESC d{};
  switch (r.type) {
    case hipResourceTypeArray:
      d.resType = CU_RESOURCE_TYPE_ARRAY;
      d.res.array.hArray = cu_array(r.array);
      break;
    case hipResourceTypeMipmappedArray:
      d.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
      d.res.mipmap.hMipmappedArray =
          reinterpret_cast<CUmipmappedArray>(static_cast<uintptr_t>(r.array->handle()));
      break;
    case hipResourceTypeLinear:
      d.resType = CU_RESOURCE_TYPE_LINEAR;
      d.res.linear.devPtr = reinterpret_cast<CUdeviceptr>(r.ptr);
      d.res.linear.format = static_cast<CUarray_format>(r.format);
      d.res.linear.numChannels = r.channels;
      d.res.linear.sizeInBytes = r.bytes;
      break;
    case hipResourceTypePitch2D:
      d.resType = CU_RESOURCE_TYPE_PITCH2D;
      d.res.pitch2D.devPtr = reinterpret_cast<CUdeviceptr>(r.ptr);
      d.res.pitch2D.format = static_cast<CUarray_format>(r.format);
      d.res.pitch2D.numChannels = r.channels;
      d.res.pitch2D.width = r.width;
      d.res.pitch2D.height = r.height;
      d.res.pitch2D.pitchInBytes = r.pitch;
      break;
    default: return Status(hipErrorInvalidValue, "not a resource type");
  }
  if ((r.type == hipResourceTypeArray || r.type == hipResourceTypeMipmappedArray) && !r.array)
    return Status(hipErrorInvalidValue, "the array is not a CUDA array of this agent");
  return d;
}

}  // namespace

Result<Ref<NativeArray>> CudaDevice::create_array(const ArrayShape& shape) {
  if (!api_.cuArray3DCreate || !api_.cuArrayDestroy || !api_.cuMemcpy3DAsync)
    return missing("cuArray3DCreate");
  WEFT_RETURN_IF_ERROR(make_current());
  CUDA_ARRAY3D_DESCRIPTOR d{};
  d.Width = shape.width;
  d.Height = shape.height;
  d.Depth = shape.depth;
  d.Format = static_cast<CUarray_format>(shape.format);
  d.NumChannels = shape.channels;
  d.Flags = shape.flags;  // hipArrayLayered/SurfaceLoadStore/Cubemap/TextureGather = CUDA_ARRAY3D_*
  if (shape.levels > 1) {
    if (!api_.cuMipmappedArrayCreate || !api_.cuMipmappedArrayDestroy ||
        !api_.cuMipmappedArrayGetLevel)
      return missing("cuMipmappedArrayCreate");
    CUmipmappedArray mipmap = nullptr;
    WEFT_CU_RETURN_IF_ERROR(api_.cuMipmappedArrayCreate(&mipmap, &d, shape.levels));
    return Ref<NativeArray>(make_ref<CudaMipmap>(*this, mipmap, shape.levels));
  }
  CUarray array = nullptr;
  WEFT_CU_RETURN_IF_ERROR(api_.cuArray3DCreate(&array, &d));
  return Ref<NativeArray>(make_ref<CudaArray>(api_, array, Ref<NativeArray>()));
}

Result<uint64_t> CudaDevice::create_texture(const NativeTexture& texture) {
  if (!api_.cuTexObjectCreate || !api_.cuTexObjectDestroy) return missing("cuTexObjectCreate");
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_ASSIGN_OR_RETURN(CUDA_RESOURCE_DESC resource, resource_desc(texture.resource));
  const hipTextureDesc& t = texture.texture;
  CUDA_TEXTURE_DESC td{};
  for (int i = 0; i < 3; ++i) td.addressMode[i] = static_cast<CUaddress_mode>(t.addressMode[i]);
  td.filterMode = static_cast<CUfilter_mode>(t.filterMode);
  td.flags = (t.readMode == hipReadModeElementType ? CU_TRSF_READ_AS_INTEGER : 0u) |
             (t.normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0u) |
             (t.sRGB ? CU_TRSF_SRGB : 0u);
  td.maxAnisotropy = t.maxAnisotropy;
  td.mipmapFilterMode = static_cast<CUfilter_mode>(t.mipmapFilterMode);
  td.mipmapLevelBias = t.mipmapLevelBias;
  td.minMipmapLevelClamp = t.minMipmapLevelClamp;
  td.maxMipmapLevelClamp = t.maxMipmapLevelClamp;
  for (int c = 0; c < 4; ++c) td.borderColor[c] = t.borderColor[c];
  CUDA_RESOURCE_VIEW_DESC view{};
  if (texture.has_view) {
    const hipResourceViewDesc& v = texture.view;
    view.format = static_cast<CUresourceViewFormat>(v.format);
    view.width = v.width;
    view.height = v.height;
    view.depth = v.depth;
    view.firstMipmapLevel = v.firstMipmapLevel;
    view.lastMipmapLevel = v.lastMipmapLevel;
    view.firstLayer = v.firstLayer;
    view.lastLayer = v.lastLayer;
  }
  CUtexObject object = 0;
  WEFT_CU_RETURN_IF_ERROR(
      api_.cuTexObjectCreate(&object, &resource, &td, texture.has_view ? &view : nullptr));
  return static_cast<uint64_t>(object);
}

Status CudaDevice::destroy_texture(uint64_t handle) {
  if (!api_.cuTexObjectDestroy) return missing("cuTexObjectDestroy");
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_CU_RETURN_IF_ERROR(api_.cuTexObjectDestroy(static_cast<CUtexObject>(handle)));
  return Status();
}

Result<uint64_t> CudaDevice::create_surface(const NativeResource& resource) {
  if (!api_.cuSurfObjectCreate || !api_.cuSurfObjectDestroy) return missing("cuSurfObjectCreate");
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_ASSIGN_OR_RETURN(CUDA_RESOURCE_DESC desc, resource_desc(resource));
  CUsurfObject object = 0;
  WEFT_CU_RETURN_IF_ERROR(api_.cuSurfObjectCreate(&object, &desc));
  return static_cast<uint64_t>(object);
}

Status CudaDevice::destroy_surface(uint64_t handle) {
  if (!api_.cuSurfObjectDestroy) return missing("cuSurfObjectDestroy");
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_CU_RETURN_IF_ERROR(api_.cuSurfObjectDestroy(static_cast<CUsurfObject>(handle)));
  return Status();
}

Status CudaQueue::submit_array_copy(const ArrayCopyOp& op) {
  if (!api_.cuMemcpy3DAsync) return missing("cuMemcpy3DAsync");
  WEFT_RETURN_IF_ERROR(device_->make_current());
  CUDA_MEMCPY3D p{};
  p.srcXInBytes = op.src.x_bytes;
  p.srcY = op.src.y;
  p.srcZ = op.src.z;
  fill_side(op.src, p.srcMemoryType, p.srcHost, p.srcDevice, p.srcArray, p.srcPitch, p.srcHeight);
  p.dstXInBytes = op.dst.x_bytes;
  p.dstY = op.dst.y;
  p.dstZ = op.dst.z;
  const void* dst_host = nullptr;
  fill_side(op.dst, p.dstMemoryType, dst_host, p.dstDevice, p.dstArray, p.dstPitch, p.dstHeight);
  p.dstHost = const_cast<void*>(dst_host);
  p.WidthInBytes = op.width_bytes;
  p.Height = op.height;
  p.Depth = op.depth;
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemcpy3DAsync(&p, stream_));
  return Status();
}

}  // namespace weft::cuda
