// SPDX-License-Identifier: MIT
// Processes using weft's runtime (and so the CPU agent): each registers itself
// with one file in a per-user folder while it runs (src/runtime/process_registry.cpp
// writes them; docs/hip-smi.md has the format). A file whose process is gone, or
// whose pid now belongs to another process (its start time differs), is stale
// and ignored.
#pragma once

#include <string>
#include <vector>

#include "model.hpp"
#include "sysroot.hpp"

namespace weft::smi {

// The folders a weft process of this user registers in, most specific first:
// $XDG_RUNTIME_DIR/weft (on the real machine), /run/user/UID/weft, /tmp/weft-UID.
std::vector<std::string> weft_registry_dirs(const SysRoot& root);

// The live registered processes, as users of the agent `cpu_key`.
std::vector<Process> weft_processes(const SysRoot& root, const std::string& cpu_key);

}  // namespace weft::smi
