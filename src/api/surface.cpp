// SPDX-License-Identifier: MIT
// Surface objects: hipCreateSurfaceObject, hipDestroySurfaceObject (both the C
// names and the C++-mangled ones ROCm 5.x headers produced). A surface reads and
// writes an array's elements by byte offset; on the CPU agent the handle is a
// weftImage (hip/weft/texture_fetch.h), elsewhere the driver's object.
#include "api/image_objects.hpp"

using namespace weft;
using namespace weft::api;

namespace {

Status create_surface(hipSurfaceObject_t* out, const hipResourceDesc* desc) {
  if (!out) return invalid_value("null surface object output pointer");
  if (!desc) return invalid_value("null hipResourceDesc");
  if (raw_value(desc->resType) != hipResourceTypeArray)
    return invalid_value(
        fmt::format("a surface reads an array (resType hipResourceTypeArray), not resType {}",
                    raw_value(desc->resType)));
  WEFT_ASSIGN_OR_RETURN(Ref<hipArray> array, find_array(desc->res.array.array, "res.array.array"));
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  if (array->device != device)
    return invalid_value(fmt::format("the array lives on device {}, not the current device {}",
                                     array->device->ordinal(), device->ordinal()));
  Ref<SurfaceObject> object = make_ref<SurfaceObject>();
  object->device = device;
  object->resource = *desc;
  object->array = array;
  const void* handle;
  if (device->driver_device().caps().runs_host_kernels) {
    weftImage& img = object->image;
    img.magic = WEFT_IMAGE_MAGIC;
    img.version = WEFT_IMAGE_VERSION;
    img.resource = weftImageArray;
    img.format = array->shape.format;
    img.channels = array->shape.channels;
    img.texel_bytes = static_cast<uint32_t>(array->texel_bytes());
    img.layered = (array->shape.flags & hipArrayLayered) ? 1 : 0;
    img.cubemap = (array->shape.flags & hipArrayCubemap) ? 1 : 0;
    img.dimensions = array->shape.depth && !img.layered ? 3 : array->shape.height ? 2 : 1;
    img.num_levels = 1;
    img.levels[0] = image_level(*array);
    handle = &object->image;
  } else {
    NativeResource resource;
    resource.type = hipResourceTypeArray;
    resource.array = array->native;
    WEFT_ASSIGN_OR_RETURN(object->native, device->driver_device().create_surface(resource));
    handle = reinterpret_cast<const void*>(static_cast<uintptr_t>(object->native));
  }
  surfaces().add(handle, object);
  *out = reinterpret_cast<hipSurfaceObject_t>(const_cast<void*>(handle));
  return Status();
}

Status destroy_surface(hipSurfaceObject_t handle) {
  if (!handle) return invalid_value("null surface object");
  Ref<SurfaceObject> object = surfaces().find(handle);
  if (!object)
    return invalid_value(
        fmt::format("{} is not a live surface object", static_cast<void*>(handle)));
  WEFT_RETURN_IF_ERROR(object->device->synchronize());  // kernels may still use it
  if (!surfaces().remove(handle))
    return invalid_value("the surface object was destroyed concurrently");
  if (object->native) return object->device->driver_device().destroy_surface(object->native);
  return Status();
}

}  // namespace

WEFT_EXPORT hipError_t hipCreateSurfaceObject(hipSurfaceObject_t* pSurfObject,
                                              const hipResourceDesc* pResDesc) {
  return call(
      "hipCreateSurfaceObject", [&] { return create_surface(pSurfObject, pResDesc); }, pSurfObject,
      pResDesc);
}

WEFT_EXPORT hipError_t hipDestroySurfaceObject(hipSurfaceObject_t surfaceObject) {
  return call(
      "hipDestroySurfaceObject", [&] { return destroy_surface(surfaceObject); }, surfaceObject);
}

// The C++-mangled spellings (ROCm 5.x headers declared these without extern "C").
// The header's C declarations are in scope here, so the definitions take their
// mangled names as assembler labels.
extern "C" __attribute__((visibility("default"))) hipError_t weft_create_surface_object_cxx(
    hipSurfaceObject_t* pSurfObject,
    const hipResourceDesc*
        pResDesc) __asm__("_Z22hipCreateSurfaceObjectPP13__hip_surfacePK15hipResourceDesc");
extern "C" __attribute__((visibility("default"))) hipError_t weft_destroy_surface_object_cxx(
    hipSurfaceObject_t surfaceObject) __asm__("_Z23hipDestroySurfaceObjectP13__hip_surface");

hipError_t weft_create_surface_object_cxx(hipSurfaceObject_t* pSurfObject,
                                          const hipResourceDesc* pResDesc) {
  return call(
      "hipCreateSurfaceObject", [&] { return create_surface(pSurfObject, pResDesc); }, pSurfObject,
      pResDesc);
}

hipError_t weft_destroy_surface_object_cxx(hipSurfaceObject_t surfaceObject) {
  return call(
      "hipDestroySurfaceObject", [&] { return destroy_surface(surfaceObject); }, surfaceObject);
}
