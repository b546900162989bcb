// SPDX-License-Identifier: MIT
// What the module API (module.cpp) shares with the library and kernel objects
// (library.cpp): reading code-object files and function attributes.
#pragma once

#include "api/launch_code_object.hpp"

#include <atomic>
#include <vector>

namespace weft::api {

// A code object file: a regular file of 1 byte to kMaxImageSize. Missing or
// unreadable: hipErrorFileNotFound; not a regular file or a bad size: hipErrorInvalidImage.
Result<std::vector<std::byte>> read_image_file(const char* fname);

// hipFuncGetAttributes' answer for a kernel.
void fill_attributes(hipFuncAttributes& a, const KernelFacts& facts);
// hipFuncGetAttribute's answer for one attribute (hipErrorInvalidValue for unknown ones).
Result<int> function_attribute(const KernelFacts& facts, hipFunction_attribute attrib);
// hipFuncSetAttribute: the dynamic shared memory limit or the carveout.
Status set_attribute(std::atomic<int>& max_dynamic, std::atomic<int>& carveout,
                     const KernelFacts& facts, hipFuncAttribute attr, int value);

}  // namespace weft::api
