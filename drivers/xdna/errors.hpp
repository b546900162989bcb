// SPDX-License-Identifier: MIT
// How the NPU driver turns a failed system call into a HIP error. One table,
// so that every ioctl's failure reads the same in logs and tests.
#pragma once

#include <weft/driver/status.hpp>

#include <cerrno>
#include <cstring>
#include <string>

namespace weft::xdna {

// `call` names the ioctl (or system call) and what it was for.
//   EBUSY      every column is held by other contexts    hipErrorLaunchOutOfResources
//   ENOMEM     memory (BOs, heap) exhausted              hipErrorOutOfMemory
//   ETIME(DOUT) the command did not finish in time       hipErrorLaunchTimeOut
//   ENODEV, EIO the device is gone or wedged             hipErrorNoDevice
//   EINVAL     the kernel rejected an argument           hipErrorInvalidValue
//   other      anything else                             hipErrorOperatingSystem
inline Status errno_status(const std::string& call, int err) {
  hipError_t code = hipErrorOperatingSystem;
  std::string why;
  switch (err) {
    case EBUSY:
      code = hipErrorLaunchOutOfResources;
      why = " (all NPU columns are taken by other contexts)";
      break;
    case ENOMEM: code = hipErrorOutOfMemory; break;
    case ETIME:
    case ETIMEDOUT: code = hipErrorLaunchTimeOut; break;
    case ENODEV:
    case EIO:
      code = hipErrorNoDevice;
      why = " (the NPU was lost)";
      break;
    case EINVAL: code = hipErrorInvalidValue; break;
    default: break;
  }
  return Status(code, "NPU: " + call + " failed: " + std::strerror(err) + why);
}

}  // namespace weft::xdna
