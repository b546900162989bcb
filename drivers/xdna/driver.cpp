// SPDX-License-Identifier: MIT
#include "driver.hpp"

#include "device.hpp"
#include "os.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace weft::xdna {
namespace {

constexpr const char* kAccelClass = "/sys/class/accel";

std::string basename_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string link_target(const std::string& path) {
  char buffer[512];
  ssize_t n = os().readlink(path.c_str(), buffer, sizeof(buffer));
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

std::string attribute(const std::string& path) {
  char buffer[256];
  ssize_t n = os().read_file(path.c_str(), buffer, sizeof(buffer));
  if (n <= 0) return std::string();
  std::string text(buffer, static_cast<size_t>(n));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

unsigned hex_attribute(const std::string& path) {
  std::string text = attribute(path);
  return text.empty() ? 0u : static_cast<unsigned>(std::strtoul(text.c_str(), nullptr, 16));
}

// "accel10" after "accel9".
bool by_number(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

class XdnaDriver final : public Driver {
 public:
  std::string_view name() const override { return "xdna"; }

  std::vector<Ref<Device>> devices() override {
    std::vector<Ref<Device>> agents;
    std::vector<std::string> entries;
    auto add = [](const char* name, void* context) {
      static_cast<std::vector<std::string>*>(context)->emplace_back(name);
    };
    if (os().list_dir(kAccelClass, add, &entries) != 0) {
      note_ = std::string("no NPU: ") + kAccelClass + " is absent (" + std::strerror(errno) +
              "): no DRM accel driver is loaded (amdxdna needs Linux 6.14+ or the amd/xdna-driver "
              "module)";
      return agents;
    }
    std::sort(entries.begin(), entries.end(), by_number);
    std::vector<std::string> problems;
    int found = 0;
    for (const std::string& accel : entries) {
      std::string device = std::string(kAccelClass) + "/" + accel + "/device";
      if (basename_of(link_target(device + "/driver")) != "amdxdna") continue;
      ++found;
      NodeFacts facts;
      facts.accel = accel;
      facts.node_path = "/dev/accel/" + accel;
      facts.bdf = basename_of(link_target(device));
      facts.device_id = hex_attribute(device + "/device");
      facts.revision = hex_attribute(device + "/revision");
      facts.vbnv = attribute(device + "/vbnv");
      facts.firmware = attribute(device + "/fw_version");
      auto opened = XdnaDevice::open(facts, static_cast<int>(agents.size()));
      if (!opened.ok()) {
        problems.push_back(opened.status().message());
        continue;
      }
      agents.push_back(Ref<Device>(opened.value()));
      summary_ += (summary_.empty() ? "" : ", ") + facts.node_path + " (" +
                  npu_generation(facts.device_id, facts.revision).name + ", " +
                  npu_generation(facts.device_id, facts.revision).target + ", " +
                  std::to_string(opened.value()->metadata().cols) + " columns)";
    }
    if (found == 0)
      note_ = std::string("no NPU: no node under ") + kAccelClass + " is bound to amdxdna";
    else
      note_ = std::to_string(agents.size()) + " NPU agent(s)" +
              (summary_.empty() ? "" : ": " + summary_);
    for (const auto& p : problems) note_ += "; " + p;
    return agents;
  }

  std::string status_note() const override { return note_; }

 private:
  std::string note_ = "devices() not called yet";
  std::string summary_;
};

}  // namespace

std::unique_ptr<Driver> make_driver() { return std::make_unique<XdnaDriver>(); }

}  // namespace weft::xdna
