// SPDX-License-Identifier: MIT
// The NVIDIA (nvptx) device pass's primitive layer (README.md in this folder): wcc-gpu.
#error "not yet: weft's nvptx device layer (hip/weft/device/nvptx.h) is being written"
