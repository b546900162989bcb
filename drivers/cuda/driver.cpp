// SPDX-License-Identifier: MIT
// The NVIDIA driver: one agent per CUDA device, in CUDA's ordinal order
// (CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER are libcuda's to apply). With no
// libcuda or no device it reports zero agents and says why in status_note().
#include <memory>
#include <string>
#include <weft/driver/device.hpp>

#include "api.hpp"
#include "device.hpp"
#include "status.hpp"

namespace weft::cuda {
namespace {

std::string version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

class CudaDriver final : public Driver {
 public:
  std::string_view name() const override { return "cuda"; }
  bool applies_cuda_visible_devices() const override { return true; }

  std::vector<Ref<Device>> devices() override {
    std::vector<Ref<Device>> out;
    const Api* api = cuda::api();
    if (!api) {
      note_ = load_error();
      return out;
    }
    if (CUresult r = api->cuInit(0); r != CUDA_SUCCESS) {
      note_ = "cuInit failed: " + cuda_error_name(api, r) +
              (r == CUDA_ERROR_NO_DEVICE ? " (no NVIDIA GPU visible)" : "");
      return out;
    }
    int count = 0;
    if (CUresult r = api->cuDeviceGetCount(&count); r != CUDA_SUCCESS) {
      note_ = "cuDeviceGetCount failed: " + cuda_error_name(api, r);
      return out;
    }
    std::string skipped;
    for (int ordinal = 0; ordinal < count; ++ordinal) {
      CUdevice device = 0;
      Status s = status_from_cuda(api->cuDeviceGet(&device, ordinal), "cuDeviceGet");
      Result<DeviceFacts> facts = s.ok() ? read_device_facts(*api, device) : Result<DeviceFacts>(s);
      if (!facts.ok()) {
        skipped += "; device " + std::to_string(ordinal) + " skipped: " + facts.status().message();
        continue;
      }
      out.push_back(Ref<Device>(make_ref<CudaDevice>(*api, device, std::move(facts).value())));
    }
    int version = 0;
    (void)api->cuDriverGetVersion(&version);
    note_ = std::to_string(out.size()) + " CUDA device(s), driver API " + version_text(version) +
            skipped;
    if (count == 0) note_ = "libcuda reports no CUDA devices";
    return out;
  }

  std::string status_note() const override { return note_; }

 private:
  std::string note_ = "not probed yet";
};

}  // namespace

std::unique_ptr<Driver> make_driver() { return std::make_unique<CudaDriver>(); }

}  // namespace weft::cuda
