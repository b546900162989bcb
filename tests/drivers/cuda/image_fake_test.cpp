// SPDX-License-Identifier: MIT
// The NVIDIA driver's arrays, array copies, texture and surface objects against
// the fake libcuda: each call becomes its CUDA counterpart with HIP's values
// passed through (formats, flags, modes), arrays and mipmaps are destroyed with
// their last reference (levels with their mipmap), and a libcuda without the
// entry points answers hipErrorNotSupported.
#include <memory>
#include <weft/driver/device.hpp>

#include "device.hpp"
#include "fake_cuda.hpp"
#include "fake_test_support.hpp"
#include "hip_test.hpp"

namespace weft::cuda {
std::unique_ptr<Driver> make_driver();
}

using fake_cuda::FakeCuda;
using fake_cuda::state;

namespace {

size_t count_calls(const std::string& name) {
  size_t n = 0;
  for (const auto& c : state().image_calls) n += c.name == name;
  return n;
}

}  // namespace

TEST_CASE("Cuda_Fake_Image_Arrays") {
  FakeCuda fake;
  auto driver = weft::cuda::make_driver();
  auto devices = driver->devices();
  REQUIRE(devices.size() == 1);
  weft::Device& device = *devices[0];

  weft::ArrayShape shape;
  shape.width = 64;
  shape.height = 32;
  shape.depth = 4;
  shape.format = HIP_AD_FORMAT_HALF;
  shape.channels = 2;
  shape.flags = hipArrayLayered | hipArraySurfaceLoadStore;
  {
    weft::Ref<weft::NativeArray> array = fake_cuda::require_value(device.create_array(shape));
    const auto& create = state().image_calls.back();
    CHECK(create.name == "Array3DCreate");
    CHECK(create.array.Width == 64);
    CHECK(create.array.Height == 32);
    CHECK(create.array.Depth == 4);
    CHECK(create.array.Format == CU_AD_FORMAT_HALF);
    CHECK(create.array.NumChannels == 2);
    CHECK(create.array.Flags == (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST));
    CHECK(array->handle() == create.handle);
    CHECK(count_calls("ArrayDestroy") == 0);
  }
  CHECK(count_calls("ArrayDestroy") == 1);  // with the last reference

  shape.flags = 0;
  shape.depth = 0;
  shape.levels = 3;
  {
    weft::Ref<weft::NativeArray> mipmap = fake_cuda::require_value(device.create_array(shape));
    CHECK(state().image_calls.back().name == "MipmappedArrayCreate");
    CHECK(state().image_calls.back().levels == 3);
    weft::Ref<weft::NativeArray> level = fake_cuda::require_value(mipmap->level(2));
    CHECK(level->handle() == mipmap->handle() + 3);
    CHECK_FALSE(mipmap->level(3).ok());
    mipmap = weft::Ref<weft::NativeArray>();
    CHECK(count_calls("MipmappedArrayDestroy") == 0);  // the level keeps it
  }
  CHECK(count_calls("MipmappedArrayDestroy") == 1);
  CHECK(count_calls("ArrayDestroy") == 1);  // CUDA frees levels with their mipmap
}

TEST_CASE("Cuda_Fake_Image_ArrayCopy") {
  FakeCuda fake;
  auto driver = weft::cuda::make_driver();
  auto devices = driver->devices();
  weft::Device& device = *devices[0];
  weft::ArrayShape shape;
  shape.width = 16;
  shape.height = 8;
  shape.format = HIP_AD_FORMAT_FLOAT;
  weft::Ref<weft::NativeArray> array = fake_cuda::require_value(device.create_array(shape));
  auto queue = fake_cuda::require_value(device.create_queue(weft::QueueOptions{}));

  std::vector<float> host(64);
  weft::ArrayCopyOp op;
  op.dst.array = array;
  op.dst.x_bytes = 8;
  op.dst.y = 2;
  op.src.ptr = host.data();
  op.src.device = false;
  op.src.pitch = 32;
  op.src.rows = 2;
  op.width_bytes = 24;
  op.height = 2;
  REQUIRE(queue->submit_array_copy(op).ok());
  REQUIRE(state().copies_3d.size() == 1);
  const CUDA_MEMCPY3D& c = state().copies_3d[0].first;
  CHECK(c.dstMemoryType == CU_MEMORYTYPE_ARRAY);
  CHECK(reinterpret_cast<uintptr_t>(c.dstArray) == array->handle());
  CHECK(c.dstXInBytes == 8);
  CHECK(c.dstY == 2);
  CHECK(c.srcMemoryType == CU_MEMORYTYPE_HOST);
  CHECK(c.srcHost == host.data());
  CHECK(c.srcPitch == 32);
  CHECK(c.srcHeight == 2);
  CHECK(c.WidthInBytes == 24);
  CHECK(c.Height == 2);
  CHECK(c.Depth == 1);

  // Device memory to an array, array to array.
  op.src.ptr = reinterpret_cast<void*>(0xd000);
  op.src.device = true;
  REQUIRE(queue->submit_array_copy(op).ok());
  CHECK(state().copies_3d[1].first.srcMemoryType == CU_MEMORYTYPE_DEVICE);
  CHECK(state().copies_3d[1].first.srcDevice == 0xd000);
  weft::ArrayCopyOp a2a;
  a2a.dst.array = array;
  a2a.src.array = array;
  a2a.src.y = 4;
  a2a.width_bytes = 64;
  a2a.height = 4;
  REQUIRE(queue->submit_array_copy(a2a).ok());
  CHECK(state().copies_3d[2].first.srcMemoryType == CU_MEMORYTYPE_ARRAY);
  CHECK(state().copies_3d[2].first.srcY == 4);
}

TEST_CASE("Cuda_Fake_Image_TextureAndSurfaceObjects") {
  FakeCuda fake;
  auto driver = weft::cuda::make_driver();
  auto devices = driver->devices();
  weft::Device& device = *devices[0];
  weft::ArrayShape shape;
  shape.width = 8;
  shape.height = 8;
  shape.format = HIP_AD_FORMAT_UNSIGNED_INT8;
  shape.channels = 4;
  weft::Ref<weft::NativeArray> array = fake_cuda::require_value(device.create_array(shape));

  weft::NativeTexture spec;
  spec.resource.type = hipResourceTypeArray;
  spec.resource.array = array;
  spec.texture.addressMode[0] = hipAddressModeMirror;
  spec.texture.addressMode[1] = hipAddressModeBorder;
  spec.texture.addressMode[2] = hipAddressModeWrap;
  spec.texture.filterMode = hipFilterModeLinear;
  spec.texture.readMode = hipReadModeNormalizedFloat;
  spec.texture.normalizedCoords = 1;
  spec.texture.borderColor[2] = 0.5f;
  spec.has_view = true;
  spec.view.format = hipResViewFormatUnsignedChar4;
  spec.view.width = 8;
  spec.view.height = 8;
  uint64_t tex = fake_cuda::require_value(device.create_texture(spec));
  const auto& create = state().image_calls.back();
  CHECK(create.name == "TexObjectCreate");
  CHECK(tex == create.handle);
  CHECK(create.resource.resType == CU_RESOURCE_TYPE_ARRAY);
  CHECK(reinterpret_cast<uintptr_t>(create.resource.res.array.hArray) == array->handle());
  CHECK(create.texture.addressMode[0] == CU_TR_ADDRESS_MODE_MIRROR);
  CHECK(create.texture.addressMode[1] == CU_TR_ADDRESS_MODE_BORDER);
  CHECK(create.texture.addressMode[2] == CU_TR_ADDRESS_MODE_WRAP);
  CHECK(create.texture.filterMode == CU_TR_FILTER_MODE_LINEAR);
  CHECK(create.texture.flags ==
        CU_TRSF_NORMALIZED_COORDINATES);  // normalized float: not READ_AS_INTEGER
  CHECK(create.texture.borderColor[2] == 0.5f);
  CHECK(create.had_view);
  CHECK(create.view.format == CU_RES_VIEW_FORMAT_UINT_4X8);
  REQUIRE(device.destroy_texture(tex).ok());
  CHECK(state().image_calls.back().name == "TexObjectDestroy");
  CHECK(state().image_calls.back().handle == tex);

  // Linear memory read as integers.
  weft::NativeTexture linear;
  linear.resource.type = hipResourceTypeLinear;
  linear.resource.ptr = reinterpret_cast<void*>(0xe000);
  linear.resource.format = HIP_AD_FORMAT_SIGNED_INT32;
  linear.resource.channels = 1;
  linear.resource.bytes = 4096;
  linear.texture.readMode = hipReadModeElementType;
  (void)fake_cuda::require_value(device.create_texture(linear));
  const auto& lin = state().image_calls.back();
  CHECK(lin.resource.resType == CU_RESOURCE_TYPE_LINEAR);
  CHECK(lin.resource.res.linear.devPtr == 0xe000);
  CHECK(lin.resource.res.linear.format == CU_AD_FORMAT_SIGNED_INT32);
  CHECK(lin.resource.res.linear.sizeInBytes == 4096);
  CHECK(lin.texture.flags == CU_TRSF_READ_AS_INTEGER);
  CHECK_FALSE(lin.had_view);

  weft::NativeResource surface;
  surface.type = hipResourceTypeArray;
  surface.array = array;
  uint64_t surf = fake_cuda::require_value(device.create_surface(surface));
  CHECK(state().image_calls.back().name == "SurfObjectCreate");
  REQUIRE(device.destroy_surface(surf).ok());
  CHECK(state().image_calls.back().name == "SurfObjectDestroy");
}

TEST_CASE("Cuda_Fake_Image_MissingEntryPoints") {
  FakeCuda fake;
  auto* api = const_cast<weft::cuda::Api*>(&fake.api());
  api->cuArray3DCreate = nullptr;
  api->cuTexObjectCreate = nullptr;
  api->cuSurfObjectCreate = nullptr;
  auto driver = weft::cuda::make_driver();
  auto devices = driver->devices();
  weft::Device& device = *devices[0];
  weft::ArrayShape shape;
  shape.width = 4;
  CHECK(device.create_array(shape).status().code() == hipErrorNotSupported);
  CHECK(device.create_texture(weft::NativeTexture{}).status().code() == hipErrorNotSupported);
  CHECK(device.create_surface(weft::NativeResource{}).status().code() == hipErrorNotSupported);
}
