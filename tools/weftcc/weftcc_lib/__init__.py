# SPDX-License-Identifier: MIT
"""weftcc: the HIP compiler driver that builds one binary with kernels for every agent."""
