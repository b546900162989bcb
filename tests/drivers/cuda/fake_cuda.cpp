// SPDX-License-Identifier: MIT
#include "fake_cuda.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace fake_cuda {
namespace {

State* g_state = nullptr;
thread_local CUcontext g_current = nullptr;

// Distinct non-null handles.
template <typename T>
T handle(uintptr_t n) {
  return reinterpret_cast<T>(0x1000 + n * 0x10);
}

CUresult get_error_name(CUresult r, const char** out) {
  switch (r) {
    case CUDA_SUCCESS: *out = "CUDA_SUCCESS"; return CUDA_SUCCESS;
    case CUDA_ERROR_NO_DEVICE: *out = "CUDA_ERROR_NO_DEVICE"; return CUDA_SUCCESS;
    case CUDA_ERROR_OUT_OF_MEMORY: *out = "CUDA_ERROR_OUT_OF_MEMORY"; return CUDA_SUCCESS;
    case CUDA_ERROR_ILLEGAL_ADDRESS: *out = "CUDA_ERROR_ILLEGAL_ADDRESS"; return CUDA_SUCCESS;
    default: *out = nullptr; return CUDA_ERROR_INVALID_VALUE;
  }
}
CUresult get_error_string(CUresult, const char** out) {
  *out = "fake description";
  return CUDA_SUCCESS;
}
CUresult init(unsigned) { return g_state->init_result; }
CUresult driver_version(int* v) {
  *v = 13000;
  return CUDA_SUCCESS;
}
CUresult device_count(int* n) {
  *n = g_state->device_count;
  return CUDA_SUCCESS;
}
CUresult device_get(CUdevice* d, int ordinal) {
  *d = ordinal;
  return CUDA_SUCCESS;
}
CUresult device_name(char* name, int len, CUdevice) {
  std::snprintf(name, static_cast<size_t>(len), "Fake H200");
  return CUDA_SUCCESS;
}
CUresult device_uuid(CUuuid* uuid, CUdevice) {
  std::memset(uuid->bytes, 0xab, sizeof(uuid->bytes));
  return CUDA_SUCCESS;
}
CUresult total_mem(size_t* bytes, CUdevice) {
  *bytes = size_t(141) << 30;
  return CUDA_SUCCESS;
}
CUresult attribute(int* value, CUdevice_attribute attr, CUdevice) {
  auto it = g_state->attributes.find(attr);
  *value = it == g_state->attributes.end() ? 0 : it->second;
  return CUDA_SUCCESS;
}
CUresult primary_retain(CUcontext* ctx, CUdevice dev) {
  *ctx = handle<CUcontext>(100 + dev);
  return CUDA_SUCCESS;
}
CUresult primary_release(CUdevice) { return CUDA_SUCCESS; }
CUresult ctx_get(CUcontext* ctx) {
  *ctx = g_current;
  return CUDA_SUCCESS;
}
CUresult ctx_set(CUcontext ctx) {
  g_current = ctx;
  return CUDA_SUCCESS;
}
CUresult priority_range(int* least, int* greatest) {
  *least = g_state->stream_least;
  *greatest = g_state->stream_greatest;
  return CUDA_SUCCESS;
}
CUresult mem_info(size_t* free_bytes, size_t* total) {
  *total = size_t(141) << 30;
  *free_bytes = size_t(140) << 30;
  return CUDA_SUCCESS;
}
CUresult mem_alloc(CUdeviceptr* p, size_t n) {
  *p = reinterpret_cast<CUdeviceptr>(std::malloc(n));
  return CUDA_SUCCESS;
}
CUresult mem_free(CUdeviceptr p) {
  std::free(reinterpret_cast<void*>(p));
  return CUDA_SUCCESS;
}
// Virtual memory: recorded only; reserved addresses are never dereferenced.
CUresult vm_granularity(size_t* g, const CUmemAllocationProp* prop,
                        CUmemAllocationGranularity_flags option) {
  *g = option == CU_MEM_ALLOC_GRANULARITY_RECOMMENDED ? size_t{4} << 20 : size_t{2} << 20;
  g_state->vm_calls.push_back({"GetAllocationGranularity", 0, 0, 0, option, prop->location.id});
  return CUDA_SUCCESS;
}
CUresult vm_create(CUmemGenericAllocationHandle* h, size_t n, const CUmemAllocationProp* prop,
                   unsigned long long) {
  *h = 0x100 + g_state->vm_calls.size();
  g_state->vm_calls.push_back({"Create", 0, n, *h, prop->requestedHandleTypes, prop->location.id});
  return CUDA_SUCCESS;
}
CUresult vm_release(CUmemGenericAllocationHandle h) {
  g_state->vm_calls.push_back({"Release", 0, 0, h, 0, -1});
  return CUDA_SUCCESS;
}
CUresult vm_reserve(CUdeviceptr* p, size_t n, size_t alignment, CUdeviceptr, unsigned long long) {
  *p = CUdeviceptr{0x7e0000000000} + (CUdeviceptr{g_state->vm_calls.size()} << 32);
  g_state->vm_calls.push_back({"AddressReserve", *p, n, 0, static_cast<long long>(alignment), -1});
  return CUDA_SUCCESS;
}
CUresult vm_free(CUdeviceptr p, size_t n) {
  g_state->vm_calls.push_back({"AddressFree", p, n, 0, 0, -1});
  return CUDA_SUCCESS;
}
CUresult vm_map(CUdeviceptr p, size_t n, size_t offset, CUmemGenericAllocationHandle h,
                unsigned long long) {
  g_state->vm_calls.push_back({"Map", p, n, h, static_cast<long long>(offset), -1});
  return CUDA_SUCCESS;
}
CUresult vm_unmap(CUdeviceptr p, size_t n) {
  g_state->vm_calls.push_back({"Unmap", p, n, 0, 0, -1});
  return CUDA_SUCCESS;
}
CUresult vm_set_access(CUdeviceptr p, size_t n, const CUmemAccessDesc* desc, size_t count) {
  for (size_t i = 0; i < count; ++i)
    g_state->vm_calls.push_back({"SetAccess", p, n, 0, desc[i].flags, desc[i].location.id});
  return CUDA_SUCCESS;
}
CUresult vm_export(void* out, CUmemGenericAllocationHandle h, CUmemAllocationHandleType type,
                   unsigned long long) {
  *static_cast<int*>(out) = 77;
  g_state->vm_calls.push_back({"ExportToShareableHandle", 0, 0, h, type, -1});
  return CUDA_SUCCESS;
}
CUresult vm_import(CUmemGenericAllocationHandle* h, void* os_handle, CUmemAllocationHandleType) {
  *h = 0x100 + g_state->vm_calls.size();
  g_state->vm_calls.push_back({"ImportFromShareableHandle", 0, 0, *h,
                               static_cast<long long>(reinterpret_cast<intptr_t>(os_handle)), -1});
  return CUDA_SUCCESS;
}
// External memory and semaphores: recorded in vm_calls (the handle is the record's
// index + 0x100); a mapped buffer is real memory, freed by cuMemFree.
CUresult ext_import_memory(CUexternalMemory* m, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC* d) {
  *m = reinterpret_cast<CUexternalMemory>(0x100 + g_state->vm_calls.size());
  g_state->vm_calls.push_back({"ImportExternalMemory", 0, static_cast<size_t>(d->size),
                               reinterpret_cast<uintptr_t>(*m), d->handle.fd,
                               static_cast<int>(d->flags)});
  return CUDA_SUCCESS;
}
CUresult ext_mapped_buffer(CUdeviceptr* p, CUexternalMemory m,
                           const CUDA_EXTERNAL_MEMORY_BUFFER_DESC* d) {
  *p = reinterpret_cast<CUdeviceptr>(std::calloc(1, static_cast<size_t>(d->size)));
  g_state->vm_calls.push_back({"ExternalMemoryGetMappedBuffer", *p, static_cast<size_t>(d->size),
                               reinterpret_cast<uintptr_t>(m), static_cast<long long>(d->offset),
                               -1});
  return CUDA_SUCCESS;
}
CUresult ext_destroy_memory(CUexternalMemory m) {
  g_state->vm_calls.push_back(
      {"DestroyExternalMemory", 0, 0, reinterpret_cast<uintptr_t>(m), 0, -1});
  return CUDA_SUCCESS;
}
CUresult ext_import_semaphore(CUexternalSemaphore* sem,
                              const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC* d) {
  *sem = reinterpret_cast<CUexternalSemaphore>(0x100 + g_state->vm_calls.size());
  g_state->vm_calls.push_back(
      {"ImportExternalSemaphore", 0, 0, reinterpret_cast<uintptr_t>(*sem), d->type, d->handle.fd});
  return CUDA_SUCCESS;
}
CUresult ext_signal(const CUexternalSemaphore* sems,
                    const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS* params, unsigned n,
                    CUstream stream) {
  for (unsigned i = 0; i < n; ++i)
    g_state->vm_calls.push_back({"SignalExternalSemaphores", reinterpret_cast<CUdeviceptr>(stream),
                                 0, reinterpret_cast<uintptr_t>(sems[i]),
                                 static_cast<long long>(params[i].params.fence.value), -1});
  return CUDA_SUCCESS;
}
CUresult ext_wait(const CUexternalSemaphore* sems,
                  const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS* params, unsigned n, CUstream stream) {
  for (unsigned i = 0; i < n; ++i)
    g_state->vm_calls.push_back({"WaitExternalSemaphores", reinterpret_cast<CUdeviceptr>(stream), 0,
                                 reinterpret_cast<uintptr_t>(sems[i]),
                                 static_cast<long long>(params[i].params.fence.value), -1});
  return CUDA_SUCCESS;
}
CUresult ext_destroy_semaphore(CUexternalSemaphore sem) {
  g_state->vm_calls.push_back(
      {"DestroyExternalSemaphore", 0, 0, reinterpret_cast<uintptr_t>(sem), 0, -1});
  return CUDA_SUCCESS;
}
CUresult host_alloc(void** p, size_t n, unsigned) {
  *p = std::calloc(1, n);
  g_state->host_pages.push_back(*p);
  return CUDA_SUCCESS;
}
CUresult host_free(void* p) {
  std::free(p);
  return CUDA_SUCCESS;
}
CUresult host_device_pointer(CUdeviceptr* d, void* p, unsigned) {
  *d = reinterpret_cast<CUdeviceptr>(p);  // unified addressing
  return CUDA_SUCCESS;
}
CUresult stream_create(CUstream* s, unsigned flags, int priority) {
  g_state->stream_flags.push_back(flags);
  g_state->stream_priorities.push_back(priority);
  *s = handle<CUstream>(200 + g_state->stream_flags.size());
  return CUDA_SUCCESS;
}
CUresult stream_destroy(CUstream) { return CUDA_SUCCESS; }
CUresult stream_sync(CUstream) { return CUDA_SUCCESS; }
CUresult stream_query(CUstream) { return CUDA_SUCCESS; }
CUresult stream_wait_event(CUstream s, CUevent, unsigned) {
  g_state->event_waits.push_back(s);
  return CUDA_SUCCESS;
}
CUresult launch_host_func(CUstream, CUhostFn fn, void* data) {
  std::lock_guard lock(g_state->host_mutex);
  g_state->host_funcs.push_back(HostFunc{fn, data});
  return CUDA_SUCCESS;
}
CUresult wait_value(CUstream s, CUdeviceptr address, cuuint32_t value, unsigned) {
  g_state->waits.push_back(WaitValue{s, address, value});
  return CUDA_SUCCESS;
}
CUresult event_create(CUevent* e, unsigned) {
  *e = handle<CUevent>(300);
  return CUDA_SUCCESS;
}
CUresult event_destroy(CUevent) { return CUDA_SUCCESS; }
// The one device's primary context (primary_retain).
bool context_refused() {
  if (!g_state->calls_need_current_context || g_current == handle<CUcontext>(100)) return false;
  ++g_state->context_refusals;
  return true;
}
CUresult event_record(CUevent, CUstream) {
  if (context_refused()) return CUDA_ERROR_INVALID_CONTEXT;
  ++g_state->event_records;
  return CUDA_SUCCESS;
}
CUresult event_query(CUevent) { return CUDA_SUCCESS; }
CUresult event_sync(CUevent) { return CUDA_SUCCESS; }
CUresult module_load(CUmodule* m, const void*) {
  *m = handle<CUmodule>(400);
  return CUDA_SUCCESS;
}
CUresult module_unload(CUmodule) { return CUDA_SUCCESS; }
CUresult module_function(CUfunction* f, CUmodule, const char* name) {
  if (std::strcmp(name, "missing") == 0) return CUDA_ERROR_NOT_FOUND;
  *f = handle<CUfunction>(500);
  return CUDA_SUCCESS;
}
CUresult func_attribute(int* v, CUfunction_attribute attr, CUfunction) {
  *v = attr == CU_FUNC_ATTRIBUTE_NUM_REGS              ? 24
     : attr == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024
                                                       : 0;
  return CUDA_SUCCESS;
}
CUresult func_set_attribute(CUfunction, CUfunction_attribute attr, int value) {
  g_state->function_sets.emplace_back(attr, value);
  return CUDA_SUCCESS;
}
CUresult param_info(CUfunction, size_t index, size_t* offset, size_t* size) {
  const auto& sizes = g_state->param_sizes;
  if (index >= sizes.size()) return CUDA_ERROR_INVALID_VALUE;
  size_t at = 0;
  for (size_t i = 0; i <= index; ++i) {
    at = (at + sizes[i] - 1) / sizes[i] * sizes[i];  // natural alignment
    if (i < index) at += sizes[i];
  }
  *offset = at;
  *size = sizes[index];
  return CUDA_SUCCESS;
}
CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                unsigned bz, unsigned shared, CUstream s, void** params, void** extra) {
  if (context_refused()) return CUDA_ERROR_INVALID_CONTEXT;
  Launch l;
  l.function = f;
  l.grid[0] = gx;
  l.grid[1] = gy;
  l.grid[2] = gz;
  l.block[0] = bx;
  l.block[1] = by;
  l.block[2] = bz;
  l.shared = shared;
  l.stream = s;
  if (params && extra) return CUDA_ERROR_INVALID_VALUE;
  if (params) {  // rebuild the blob from the parameter layout
    l.had_params = true;
    size_t end = 0;
    std::vector<std::pair<size_t, size_t>> layout;
    for (size_t i = 0; i < g_state->param_sizes.size(); ++i) {
      size_t offset = 0, size = 0;
      param_info(f, i, &offset, &size);
      layout.emplace_back(offset, size);
      end = std::max(end, offset + size);
    }
    l.args.assign(end, std::byte{0});
    for (size_t i = 0; i < layout.size(); ++i)
      std::memcpy(l.args.data() + layout[i].first, params[i], layout[i].second);
  }
  if (extra) {
    l.had_extra = true;
    void* buffer = nullptr;
    size_t size = 0;
    for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buffer = extra[i + 1];
      if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) size = *static_cast<size_t*>(extra[i + 1]);
    }
    auto* bytes = static_cast<std::byte*>(buffer);
    l.args.assign(bytes, bytes + size);
  }
  g_state->launches.push_back(std::move(l));
  return CUDA_SUCCESS;
}
CUresult launch_cooperative(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                            unsigned by, unsigned bz, unsigned shared, CUstream s, void** params) {
  if (CUresult r = launch(f, gx, gy, gz, bx, by, bz, shared, s, params, nullptr); r != CUDA_SUCCESS)
    return r;
  g_state->launches.back().cooperative = true;
  return CUDA_SUCCESS;
}
CUresult set_limit(CUlimit limit, size_t value) {
  if (limit != CU_LIMIT_STACK_SIZE) return CUDA_ERROR_UNSUPPORTED_LIMIT;
  if (value > g_state->stack_limit_max) return CUDA_ERROR_INVALID_VALUE;
  g_state->stack_limit = value;
  return CUDA_SUCCESS;
}
CUresult get_limit(size_t* value, CUlimit limit) {
  if (limit != CU_LIMIT_STACK_SIZE) return CUDA_ERROR_UNSUPPORTED_LIMIT;
  *value = g_state->stack_limit;
  return CUDA_SUCCESS;
}
CUresult memcpy_1d(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream) {
  std::memcpy(reinterpret_cast<void*>(dst), reinterpret_cast<void*>(src), n);
  g_state->copies_1d.push_back(n);
  return CUDA_SUCCESS;
}
CUresult array_create(CUarray* a, const CUDA_ARRAY3D_DESCRIPTOR* d) {
  ImageCall call{"Array3DCreate"};
  call.handle = 0x7000 + g_state->image_calls.size() * 0x10;
  call.array = *d;
  g_state->image_calls.push_back(call);
  *a = reinterpret_cast<CUarray>(call.handle);
  return CUDA_SUCCESS;
}
CUresult array_destroy(CUarray a) {
  g_state->image_calls.push_back({"ArrayDestroy", reinterpret_cast<uintptr_t>(a)});
  return CUDA_SUCCESS;
}
CUresult mipmap_create(CUmipmappedArray* m, const CUDA_ARRAY3D_DESCRIPTOR* d, unsigned levels) {
  ImageCall call{"MipmappedArrayCreate"};
  call.handle = 0x8000 + g_state->image_calls.size() * 0x100;
  call.array = *d;
  call.levels = levels;
  g_state->image_calls.push_back(call);
  *m = reinterpret_cast<CUmipmappedArray>(call.handle);
  return CUDA_SUCCESS;
}
CUresult mipmap_destroy(CUmipmappedArray m) {
  g_state->image_calls.push_back({"MipmappedArrayDestroy", reinterpret_cast<uintptr_t>(m)});
  return CUDA_SUCCESS;
}
// Level l of mipmap m is the handle m + 1 + l.
CUresult mipmap_level(CUarray* a, CUmipmappedArray m, unsigned level) {
  *a = reinterpret_cast<CUarray>(reinterpret_cast<uintptr_t>(m) + 1 + level);
  g_state->image_calls.push_back({"MipmappedArrayGetLevel", reinterpret_cast<uintptr_t>(*a)});
  return CUDA_SUCCESS;
}
CUresult memcpy_3d(const CUDA_MEMCPY3D* c, CUstream stream) {
  g_state->copies_3d.emplace_back(*c, stream);
  return CUDA_SUCCESS;
}
CUresult tex_create(CUtexObject* t, const CUDA_RESOURCE_DESC* r, const CUDA_TEXTURE_DESC* td,
                    const CUDA_RESOURCE_VIEW_DESC* v) {
  ImageCall call{"TexObjectCreate"};
  call.handle = 100 + g_state->image_calls.size();
  call.resource = *r;
  call.texture = *td;
  call.had_view = v != nullptr;
  if (v) call.view = *v;
  g_state->image_calls.push_back(call);
  *t = call.handle;
  return CUDA_SUCCESS;
}
CUresult tex_destroy(CUtexObject t) {
  g_state->image_calls.push_back({"TexObjectDestroy", static_cast<uintptr_t>(t)});
  return CUDA_SUCCESS;
}
CUresult surf_create(CUsurfObject* s, const CUDA_RESOURCE_DESC* r) {
  ImageCall call{"SurfObjectCreate"};
  call.handle = 200 + g_state->image_calls.size();
  call.resource = *r;
  g_state->image_calls.push_back(call);
  *s = call.handle;
  return CUDA_SUCCESS;
}
CUresult surf_destroy(CUsurfObject s) {
  g_state->image_calls.push_back({"SurfObjectDestroy", static_cast<uintptr_t>(s)});
  return CUDA_SUCCESS;
}
CUresult memcpy_2d(const CUDA_MEMCPY2D* c, CUstream) {
  g_state->copies_2d.push_back(*c);
  return CUDA_SUCCESS;
}
template <int kSize, typename T>
CUresult memset_1d(CUdeviceptr dst, T value, size_t n, CUstream) {
  g_state->memsets.push_back(Memset{kSize, dst, 0, static_cast<unsigned>(value), n, 1});
  return CUDA_SUCCESS;
}
template <int kSize, typename T>
CUresult memset_2d(CUdeviceptr dst, size_t pitch, T value, size_t w, size_t h, CUstream) {
  g_state->memsets.push_back(Memset{kSize, dst, pitch, static_cast<unsigned>(value), w, h});
  return CUDA_SUCCESS;
}

}  // namespace

State& state() { return *g_state; }

void set_sm90_launch_limits() {
  auto& attributes = state().attributes;
  attributes[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X] = 1024;
  attributes[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y] = 1024;
  attributes[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z] = 64;
  attributes[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X] = 2147483647;
  attributes[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y] = 65535;
  attributes[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z] = 65535;
}

FakeCuda::FakeCuda() : api_(new weft::cuda::Api()) {
  g_state = new State();
  g_state->attributes = {
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152},
      {CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0x19},
      {CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, 3},
      {CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, 1},
      {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1980000},
      {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 3201000},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 60 << 20},
  };
  api_->cuGetErrorName = get_error_name;
  api_->cuGetErrorString = get_error_string;
  api_->cuInit = init;
  api_->cuDriverGetVersion = driver_version;
  api_->cuDeviceGetCount = device_count;
  api_->cuDeviceGet = device_get;
  api_->cuDeviceGetName = device_name;
  api_->cuDeviceGetUuid = device_uuid;
  api_->cuDeviceTotalMem = total_mem;
  api_->cuDeviceGetAttribute = attribute;
  api_->cuDevicePrimaryCtxRetain = primary_retain;
  api_->cuDevicePrimaryCtxRelease = primary_release;
  api_->cuCtxGetCurrent = ctx_get;
  api_->cuCtxSetCurrent = ctx_set;
  api_->cuCtxGetStreamPriorityRange = priority_range;
  api_->cuMemGetInfo = mem_info;
  api_->cuMemAlloc = mem_alloc;
  api_->cuMemFree = mem_free;
  api_->cuMemHostAlloc = host_alloc;
  api_->cuMemFreeHost = host_free;
  api_->cuMemHostGetDevicePointer = host_device_pointer;
  api_->cuStreamCreateWithPriority = stream_create;
  api_->cuStreamDestroy = stream_destroy;
  api_->cuStreamSynchronize = stream_sync;
  api_->cuStreamQuery = stream_query;
  api_->cuStreamWaitEvent = stream_wait_event;
  api_->cuLaunchHostFunc = launch_host_func;
  api_->cuStreamWaitValue32 = wait_value;
  api_->cuEventCreate = event_create;
  api_->cuEventDestroy = event_destroy;
  api_->cuEventRecord = event_record;
  api_->cuEventQuery = event_query;
  api_->cuEventSynchronize = event_sync;
  api_->cuModuleLoadData = module_load;
  api_->cuModuleUnload = module_unload;
  api_->cuModuleGetFunction = module_function;
  api_->cuFuncGetAttribute = func_attribute;
  api_->cuFuncSetAttribute = func_set_attribute;
  api_->cuFuncGetParamInfo = param_info;
  api_->cuLaunchKernel = launch;
  api_->cuLaunchCooperativeKernel = launch_cooperative;
  api_->cuCtxSetLimit = set_limit;
  api_->cuCtxGetLimit = get_limit;
  api_->cuMemcpyAsync = memcpy_1d;
  api_->cuMemcpy2DAsync = memcpy_2d;
  api_->cuMemsetD8Async = memset_1d<1, unsigned char>;
  api_->cuMemsetD16Async = memset_1d<2, unsigned short>;
  api_->cuMemsetD32Async = memset_1d<4, unsigned>;
  api_->cuMemsetD2D8Async = memset_2d<1, unsigned char>;
  api_->cuMemsetD2D16Async = memset_2d<2, unsigned short>;
  api_->cuMemsetD2D32Async = memset_2d<4, unsigned>;
  api_->cuArray3DCreate = array_create;
  api_->cuArrayDestroy = array_destroy;
  api_->cuMipmappedArrayCreate = mipmap_create;
  api_->cuMipmappedArrayDestroy = mipmap_destroy;
  api_->cuMipmappedArrayGetLevel = mipmap_level;
  api_->cuMemcpy3DAsync = memcpy_3d;
  api_->cuTexObjectCreate = tex_create;
  api_->cuTexObjectDestroy = tex_destroy;
  api_->cuSurfObjectCreate = surf_create;
  api_->cuSurfObjectDestroy = surf_destroy;
  api_->cuMemGetAllocationGranularity = vm_granularity;
  api_->cuMemCreate = vm_create;
  api_->cuMemRelease = vm_release;
  api_->cuMemAddressReserve = vm_reserve;
  api_->cuMemAddressFree = vm_free;
  api_->cuMemMap = vm_map;
  api_->cuMemUnmap = vm_unmap;
  api_->cuMemSetAccess = vm_set_access;
  api_->cuMemExportToShareableHandle = vm_export;
  api_->cuMemImportFromShareableHandle = vm_import;
  api_->cuImportExternalMemory = ext_import_memory;
  api_->cuExternalMemoryGetMappedBuffer = ext_mapped_buffer;
  api_->cuDestroyExternalMemory = ext_destroy_memory;
  api_->cuImportExternalSemaphore = ext_import_semaphore;
  api_->cuSignalExternalSemaphoresAsync = ext_signal;
  api_->cuWaitExternalSemaphoresAsync = ext_wait;
  api_->cuDestroyExternalSemaphore = ext_destroy_semaphore;
  weft::cuda::set_api_for_testing(api_);
}

FakeCuda::~FakeCuda() {
  weft::cuda::reset_api_for_testing();
  // Host pages stay: a lane thread may still hold a word in one (as with CUDA).
  delete g_state;
  g_state = nullptr;
}

void FakeCuda::run_host_funcs() {
  std::vector<HostFunc> funcs;
  {
    std::lock_guard lock(g_state->host_mutex);
    funcs.swap(g_state->host_funcs);
  }
  for (auto& f : funcs) f.fn(f.data);
}

}  // namespace fake_cuda
