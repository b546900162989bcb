// SPDX-License-Identifier: MIT
// Stream attributes (hipStreamGetAttribute/SetAttribute/CopyAttributes) and CU
// masks (hipExtStreamCreateWithCUMask/GetCUMask).
//
// The attributes are stored on the Stream and returned as given; the priority
// attribute is the stream's priority (hipStreamGetPriority reports it). A CU
// mask goes to the driver queue: on the CPU agent it selects which pool threads
// run the stream's kernel blocks (drivers/cpu/worker_pool.hpp); agents whose
// queues take no mask refuse it.
#include "api/api.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace weft;
using namespace weft::api;

namespace {

constexpr int kLeastPriority = 0;
constexpr int kGreatestPriority = -1;

bool known_access_property(int p) {
  return p == hipAccessPropertyNormal || p == hipAccessPropertyStreaming ||
         p == hipAccessPropertyPersisting;
}

Status check_window(const DeviceState& device, const hipAccessPolicyWindow& w) {
  if (!known_access_property(raw_value(w.hitProp)) || !known_access_property(raw_value(w.missProp)))
    return invalid_value("access policy window: unknown hitProp or missProp");
  if (raw_value(w.missProp) == hipAccessPropertyPersisting)
    return invalid_value("access policy window: missProp cannot be hipAccessPropertyPersisting");
  if (!(w.hitRatio >= 0.0f && w.hitRatio <= 1.0f))
    return invalid_value(
        fmt::format("access policy window: hitRatio {} is not within [0, 1]", w.hitRatio));
  const int max_window = device.props().accessPolicyMaxWindowSize;
  if (w.num_bytes > 0 && max_window > 0 && w.num_bytes > size_t(max_window))
    return invalid_value(fmt::format("access policy window of {} bytes exceeds the device's {}",
                                     w.num_bytes, max_window));
  return Status();
}

Status get_attribute(hipStream_t stream, hipStreamAttrID attr, hipStreamAttrValue* out) {
  if (!out) return invalid_value("null value output");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
  const Stream::Attributes a = s->attributes();
  hipStreamAttrValue value;
  std::memset(&value, 0, sizeof value);
  switch (raw_value(attr)) {
    case hipLaunchAttributeAccessPolicyWindow:
      value.accessPolicyWindow = a.access_policy_window;
      break;
    case hipLaunchAttributeSynchronizationPolicy: value.syncPolicy = a.sync_policy; break;
    case hipLaunchAttributePriority: value.priority = s->priority(); break;
    case hipLaunchAttributeMemSyncDomainMap: value.memSyncDomainMap = a.mem_sync_domain_map; break;
    case hipLaunchAttributeMemSyncDomain: value.memSyncDomain = a.mem_sync_domain; break;
    default: return invalid_value(fmt::format("{} is not a stream attribute", raw_value(attr)));
  }
  *out = value;
  return Status();
}

Status set_attribute(hipStream_t stream, hipStreamAttrID attr, const hipStreamAttrValue* value) {
  if (!value) return invalid_value("null value");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
  Stream::Attributes a = s->attributes();
  switch (raw_value(attr)) {
    case hipLaunchAttributeAccessPolicyWindow:
      WEFT_RETURN_IF_ERROR(check_window(s->device(), value->accessPolicyWindow));
      a.access_policy_window = value->accessPolicyWindow;
      break;
    case hipLaunchAttributeSynchronizationPolicy: {
      int policy = raw_value(value->syncPolicy);
      if (policy < hipSyncPolicyAuto || policy > hipSyncPolicyBlockingSync)
        return invalid_value(fmt::format("unknown synchronization policy {}", policy));
      a.sync_policy = value->syncPolicy;
      break;
    }
    case hipLaunchAttributePriority:
      // As hipStreamCreateWithPriority: out-of-range priorities are clamped.
      s->set_priority(std::clamp(value->priority, kGreatestPriority, kLeastPriority));
      return Status();
    case hipLaunchAttributeMemSyncDomainMap: a.mem_sync_domain_map = value->memSyncDomainMap; break;
    case hipLaunchAttributeMemSyncDomain: {
      int domain = raw_value(value->memSyncDomain);
      if (domain != hipLaunchMemSyncDomainDefault && domain != hipLaunchMemSyncDomainRemote)
        return invalid_value(fmt::format("unknown memory sync domain {}", domain));
      a.mem_sync_domain = value->memSyncDomain;
      break;
    }
    default: return invalid_value(fmt::format("{} is not a stream attribute", raw_value(attr)));
  }
  s->set_attributes(a);
  return Status();
}

// Compute units of the device, as hipExtStreamGetCUMask counts them.
unsigned unit_count(const DeviceState& device) {
  return static_cast<unsigned>(std::max(1, device.props().multiProcessorCount));
}

Status create_with_mask(hipStream_t* out, uint32_t words, const uint32_t* mask) {
  if (!out) return invalid_value("null stream output");
  if (words == 0 || !mask) return invalid_value("empty CU mask");
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  if (!device->driver_device().caps().queue_cu_masks)
    return Status(hipErrorNotSupported,
                  fmt::format("device {} ({}) has no CU-masked queues", device->ordinal(),
                              device->driver_device().target_id()));
  // Bits past the device's units are dropped, as AMD's runtime does.
  const unsigned units = unit_count(*device);
  std::vector<uint32_t> kept((units + 31) / 32, 0);
  unsigned enabled = 0;
  for (unsigned unit = 0; unit < units && unit / 32 < words; ++unit)
    if ((mask[unit / 32] >> (unit % 32)) & 1u) {
      kept[unit / 32] |= 1u << (unit % 32);
      ++enabled;
    }
  if (enabled == 0)
    return invalid_value(fmt::format("the CU mask enables none of device {}'s {} compute units",
                                     device->ordinal(), units));
  // A mask of every unit is no mask: the queue keeps its fast path.
  if (enabled == units) kept.clear();
  WEFT_ASSIGN_OR_RETURN(
      Ref<Stream> stream,
      device->create_stream(Stream::Kind::kUser, hipStreamDefault, 0, std::move(kept)));
  Runtime::get().streams().add(stream);
  *out = reinterpret_cast<hipStream_t>(stream.get());
  return Status();
}

Status get_mask(hipStream_t stream, uint32_t words, uint32_t* out) {
  if (!out) return invalid_value("null CU mask output");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
  const unsigned units = unit_count(s->device());
  const uint32_t needed = (units + 31) / 32;
  if (words < needed)
    return invalid_value(
        fmt::format("device {} has {} compute units: the mask needs {} words, not {}",
                    s->device().ordinal(), units, needed, words));
  std::fill(out, out + words, 0u);
  const std::vector<uint32_t>& mask = s->cu_mask();
  for (unsigned unit = 0; unit < units; ++unit) {
    bool on = mask.empty() || ((mask[unit / 32] >> (unit % 32)) & 1u);
    if (on) out[unit / 32] |= 1u << (unit % 32);
  }
  return Status();
}

}  // namespace

WEFT_EXPORT hipError_t hipStreamGetAttribute(hipStream_t stream, hipStreamAttrID attr,
                                             hipStreamAttrValue* value_out) {
  return call(
      "hipStreamGetAttribute", [&] { return get_attribute(stream, attr, value_out); }, stream, attr,
      value_out);
}

WEFT_EXPORT hipError_t hipStreamSetAttribute(hipStream_t stream, hipStreamAttrID attr,
                                             const hipStreamAttrValue* value) {
  return call(
      "hipStreamSetAttribute", [&] { return set_attribute(stream, attr, value); }, stream, attr,
      value);
}

WEFT_EXPORT hipError_t hipStreamCopyAttributes(hipStream_t dst, hipStream_t src) {
  return call(
      "hipStreamCopyAttributes",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> to, resolve_stream(dst));
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> from, resolve_stream(src));
    to->set_attributes(from->attributes());
    to->set_priority(from->priority());
    return Status();
      },
      dst, src);
}

WEFT_EXPORT hipError_t hipExtStreamCreateWithCUMask(hipStream_t* stream, uint32_t cuMaskSize,
                                                    const uint32_t* cuMask) {
  return call(
      "hipExtStreamCreateWithCUMask", [&] { return create_with_mask(stream, cuMaskSize, cuMask); },
      stream, cuMaskSize, cuMask);
}

WEFT_EXPORT hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t cuMaskSize,
                                             uint32_t* cuMask) {
  return call(
      "hipExtStreamGetCUMask", [&] { return get_mask(stream, cuMaskSize, cuMask); }, stream,
      cuMaskSize, cuMask);
}
