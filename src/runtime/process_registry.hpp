// SPDX-License-Identifier: MIT
// Tells hip-smi which processes use weft (and so the CPU agent): while the
// runtime is up, this process owns one file, FOLDER/PID, in a per-user folder
// ($XDG_RUNTIME_DIR/weft, else /tmp/weft-UID, mode 0700), removed at exit. Its
// lines: pid=, start= (field 22 of /proc/self/stat, so a reused pid is told
// apart), name=. A killed process leaves its file behind: hip-smi ignores files
// whose process is gone, and the next registration in the folder removes them.
// Failing to register never fails the runtime (a debug log line says why).
#pragma once

#include <string>

namespace weft::process_registry {

// Creates this process's file (once per process; no-op on later calls).
void register_this_process();

// The folder used for this user ("" when none could be made safely).
std::string folder();

}  // namespace weft::process_registry
