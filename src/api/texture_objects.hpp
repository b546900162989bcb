// SPDX-License-Identifier: MIT
// Texture objects, shared by hipCreateTextureObject (texture.cpp) and the texture
// reference calls that bind one (texture_reference.cpp).
#pragma once

#include "api/image_objects.hpp"

namespace weft::api {

// Checks the descriptors and makes an object on the current device: a weftImage
// the software sampler reads where the agent runs host kernels, the driver's own
// object elsewhere.
Result<Ref<TextureObject>> create_texture(const hipResourceDesc& resource,
                                          const hipTextureDesc& texture,
                                          const hipResourceViewDesc* view);
// The handle kernels get.
hipTextureObject_t handle_of(const TextureObject& object);
// Waits for the object's device (kernels may still read it) and destroys it.
Status destroy_texture(hipTextureObject_t handle);

}  // namespace weft::api
