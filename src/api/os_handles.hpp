// SPDX-License-Identifier: MIT
// Checks on POSIX file descriptors that the API takes as shareable handles
// (hipMemImportFromShareableHandle, hipImportExternalMemory/Semaphore), done
// before any driver sees them: a vendor library handed a pipe or a closed
// descriptor answers with an unspecific error (CUDA: CUDA_ERROR_UNKNOWN), and
// HIP documents hipErrorInvalidValue for a handle that is not one.
#pragma once

#include <weft/driver/status.hpp>

namespace weft::api {

// `fd` must be open and a kind of file that can carry memory or a semaphore:
// a regular file (memfd, tmpfs, dma-buf-less file), a character device or an
// anonymous inode (what GPU drivers and eventfd hand out). Pipes, sockets,
// directories and symbolic links are hipErrorInvalidValue. `what` names the
// handle in the message.
Status check_shareable_fd(int fd, const char* what);

}  // namespace weft::api
