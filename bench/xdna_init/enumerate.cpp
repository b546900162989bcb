// SPDX-License-Identifier: MIT
// What the NPU driver adds to start-up (issue 16): the driver's own
// enumeration (make_driver + devices(), as hipInit calls them) on this
// machine, timed in-process many times. The first call also pays the one
// dlsym that looks for a test's OS table. Prints min / median / max in µs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "driver.hpp"

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 1001;
  using Clock = std::chrono::steady_clock;
  std::vector<double> us;
  std::string note;
  size_t agents = 0;
  for (int i = 0; i < runs; ++i) {
    auto t0 = Clock::now();
    auto driver = weft::xdna::make_driver();
    auto devices = driver->devices();
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    agents = devices.size();
    note = driver->status_note();
  }
  double first = us.front();
  std::sort(us.begin(), us.end());
  std::printf(
      "xdna enumeration: first %.1f us; min %.1f us  median %.1f us  max %.1f us (%d runs), %zu "
      "agent(s)\n",
      first, us.front(), us[us.size() / 2], us.back(), runs, agents);
  std::printf("note: %s\n", note.c_str());
  return 0;
}
