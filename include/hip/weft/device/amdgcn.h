// SPDX-License-Identifier: MIT
// The AMD (amdgcn) device pass's primitive layer (README.md in this folder): wcc-gpu.
#error "not yet: weft's amdgcn device layer (hip/weft/device/amdgcn.h) is being written"
