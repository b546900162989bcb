// SPDX-License-Identifier: MIT
// Texture references (texture<> globals) in a weftcc program: the x86_64 image has its own
// copy of each, which every launch must find holding the host reference's binding. Rebinding
// between launches (also to objects that reuse a destroyed one's address), two references,
// another stream, a captured graph replayed after a rebind (it reads the binding when it
// runs), and the reference as a registered variable. Built for sm_90 too, it runs the same
// checks on the NVIDIA agent (the lead's H200 batches).
#include "check.h"

#include <string>

#pragma clang diagnostic ignored "-Wdeprecated-declarations"

texture<float, hipTextureType1D, hipReadModeElementType> g_values;
texture<int, hipTextureType1D, hipReadModeElementType> g_other;

__global__ void read(float* out, int* other, int n) {
  for (int i = 0; i < n; ++i) out[i] = tex1Dfetch(g_values, i);
  *other = tex1Dfetch(g_other, 0);
}

namespace {

float* d_out;
int* d_other;

// What a launch on `stream` read: the first value of g_values (all four checked against
// `base` * 1..4) and g_other's.
void expect_read(hipStream_t stream, float base, int other, int line) {
  read<<<1, 1, 0, stream>>>(d_out, d_other, 4);
  HIP_OK(hipGetLastError());
  float h[4];
  int o = 0;
  HIP_OK(hipMemcpyAsync(h, d_out, sizeof h, hipMemcpyDeviceToHost, stream));
  HIP_OK(hipMemcpyAsync(&o, d_other, sizeof o, hipMemcpyDeviceToHost, stream));
  HIP_OK(hipStreamSynchronize(stream));
  for (int i = 0; i < 4; ++i)
    if (h[i] != base * float(i + 1)) {
      std::fprintf(stderr, "line %d: value %d is %g, not %g\n", line, i, h[i], base * float(i + 1));
      ++g_failures;
    }
  if (o != other) {
    std::fprintf(stderr, "line %d: other is %d, not %d\n", line, o, other);
    ++g_failures;
  }
}

}  // namespace

int main() {
  const float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40};
  const int seven = 7, nine = 9;
  float *d_a, *d_b;
  int *d_seven, *d_nine;
  HIP_OK(hipMalloc(&d_a, sizeof a));
  HIP_OK(hipMalloc(&d_b, sizeof b));
  HIP_OK(hipMalloc(&d_seven, sizeof seven));
  HIP_OK(hipMalloc(&d_nine, sizeof nine));
  HIP_OK(hipMalloc(&d_out, 4 * sizeof(float)));
  HIP_OK(hipMalloc(&d_other, sizeof(int)));
  HIP_OK(hipMemcpy(d_a, a, sizeof a, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(d_b, b, sizeof b, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(d_seven, &seven, sizeof seven, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(d_nine, &nine, sizeof nine, hipMemcpyHostToDevice));

  size_t offset = 1;
  HIP_OK(hipBindTexture(&offset, g_values, d_a, sizeof a));
  CHECK(offset == 0);
  HIP_OK(hipBindTexture(nullptr, g_other, d_seven, sizeof seven));
  expect_read(nullptr, 1, 7, __LINE__);

  // Rebinding between launches, on the null stream and on another one; each rebinding
  // destroys the previous object, so later objects may sit at earlier addresses.
  hipStream_t stream;
  HIP_OK(hipStreamCreate(&stream));
  for (int round = 0; round < 6; ++round) {
    const bool use_b = round % 2 == 0;
    HIP_OK(hipBindTexture(nullptr, g_values, use_b ? d_b : d_a, sizeof a));
    expect_read(round % 3 ? stream : nullptr, use_b ? 10 : 1, 7, __LINE__);
  }
  HIP_OK(hipBindTexture(nullptr, g_other, d_nine, sizeof nine));  // the other reference alone
  expect_read(stream, 1, 9, __LINE__);
  HIP_OK(hipUnbindTexture(g_values));
  CHECK(g_values.textureObject == nullptr);
  HIP_OK(hipBindTexture(nullptr, g_values, d_b, sizeof b));
  expect_read(nullptr, 10, 9, __LINE__);

  // A captured launch reads the references when its graph runs.
  hipGraph_t graph;
  hipGraphExec_t exec;
  HIP_OK(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  read<<<1, 1, 0, stream>>>(d_out, d_other, 4);
  HIP_OK(hipStreamEndCapture(stream, &graph));
  HIP_OK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  for (int round = 0; round < 3; ++round) {
    const bool use_a = round % 2 == 0;
    HIP_OK(hipBindTexture(nullptr, g_values, use_a ? d_a : d_b, sizeof a));
    HIP_OK(hipGraphLaunch(exec, stream));
    float h[4];
    HIP_OK(hipMemcpyAsync(h, d_out, sizeof h, hipMemcpyDeviceToHost, stream));
    HIP_OK(hipStreamSynchronize(stream));
    CHECK(h[3] == (use_a ? 4.0f : 40.0f));
  }
  HIP_OK(hipGraphExecDestroy(exec));
  HIP_OK(hipGraphDestroy(graph));
  expect_read(stream, 1, 9, __LINE__);  // after capture: launches still see the binding

  // The reference is also a registered variable of the image: the whole textureReference in
  // a CPU image, the 64-bit texture object in an NVIDIA one (docs/textures.md). The size is
  // the runtime's answer for the current device, not the host type's (the header's template
  // answered sizeof(T) until session 13: 88 bytes on the H200).
  hipDeviceProp_t props{};
  HIP_OK(hipGetDeviceProperties(&props, 0));
  const bool nvidia = std::string(props.gcnArchName).rfind("sm_", 0) == 0;
  size_t size = 0;
  HIP_OK(hipGetSymbolSize(&size, HIP_SYMBOL(g_values)));
  const size_t expected = nvidia ? sizeof(hipTextureObject_t) : sizeof(textureReference);
  if (size != expected) std::fprintf(stderr, "g_values: %zu bytes, not %zu\n", size, expected);
  CHECK(size == expected);

  HIP_OK(hipUnbindTexture(g_values));
  HIP_OK(hipUnbindTexture(g_other));
  HIP_OK(hipStreamDestroy(stream));
  return finish("textures");
}
