// SPDX-License-Identifier: MIT
// Item 4 of issue 19: symbol calls on an address that is no device variable.
// This binary is built by g++ as a single-source program, so its __device__ and
// __constant__ variables are plain, unregistered host globals; it is linked
// with -rdynamic so the dynamic symbol table names them and their sizes.
#include "hip_test.hpp"

#include <memory>
#include <vector>

__device__ int g_table[16];
__constant__ float g_coefficients[4];
const int g_read_only[4] = {1, 2, 3, 4};

TEST_CASE("Item4_single_source_device_variables_still_work") {
  int values[16];
  for (int i = 0; i < 16; ++i) values[i] = 3 * i + 1;
  HIP_CHECK(hipMemcpyToSymbol(g_table, values, sizeof values, 0, hipMemcpyHostToDevice));
  for (int i = 0; i < 16; ++i) REQUIRE(g_table[i] == 3 * i + 1);
  int back[4] = {};
  HIP_CHECK(
      hipMemcpyFromSymbol(back, g_table, sizeof back, 8 * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(back[0] == 25);
  CHECK(back[3] == 34);
  float c[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  HIP_CHECK(hipMemcpyToSymbolAsync(g_coefficients, c, sizeof c, 0, hipMemcpyHostToDevice, nullptr));
  HIP_CHECK(hipStreamSynchronize(nullptr));
  CHECK(g_coefficients[3] == 3.5f);
  void* address = nullptr;
  HIP_CHECK(hipGetSymbolAddress(&address, g_table));
  CHECK(address == static_cast<void*>(g_table));
  // The address hipGetSymbolAddress gives is device memory to the copy calls.
  HIP_CHECK(hipMemcpy(address, values, sizeof(int), hipMemcpyHostToDevice));
  size_t size = 0;
  HIP_CHECK(hipGetSymbolSize(&size, g_table));
  CHECK(size == sizeof g_table);
}

TEST_CASE("Item4_copy_past_the_variable") {
  int values[16] = {};
  HIP_CHECK_ERROR(
      hipMemcpyToSymbol(g_table, values, sizeof values, sizeof(int), hipMemcpyHostToDevice),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemcpyFromSymbol(values, g_table, 8, sizeof g_table - 4, hipMemcpyDeviceToHost),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyToSymbol(g_table, values, 4, SIZE_MAX - 2, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
}

TEST_CASE("Item4_stack_and_heap_addresses_are_no_symbol") {
  int on_stack[4] = {9, 9, 9, 9};
  auto on_heap = std::make_unique<int[]>(4);
  for (int i = 0; i < 4; ++i) on_heap[i] = 9;
  int src[4] = {1, 2, 3, 4};
  const void* stack_symbol = on_stack;
  const void* heap_symbol = on_heap.get();
  for (const void* symbol : {stack_symbol, heap_symbol}) {
    HIP_CHECK_ERROR(hipMemcpyToSymbol(symbol, src, sizeof src, 0, hipMemcpyHostToDevice),
                    hipErrorInvalidSymbol);
    HIP_CHECK_ERROR(
        hipMemcpyToSymbolAsync(symbol, src, sizeof src, 0, hipMemcpyHostToDevice, nullptr),
        hipErrorInvalidSymbol);
    int out[4] = {};
    HIP_CHECK_ERROR(hipMemcpyFromSymbol(out, symbol, sizeof out, 0, hipMemcpyDeviceToHost),
                    hipErrorInvalidSymbol);
    HIP_CHECK_ERROR(
        hipMemcpyFromSymbolAsync(out, symbol, sizeof out, 0, hipMemcpyDeviceToHost, nullptr),
        hipErrorInvalidSymbol);
    void* address = nullptr;
    HIP_CHECK_ERROR(hipGetSymbolAddress(&address, symbol), hipErrorInvalidSymbol);
    size_t size = 0;
    HIP_CHECK_ERROR(hipGetSymbolSize(&size, symbol), hipErrorInvalidSymbol);
  }
  HIP_CHECK(hipStreamSynchronize(nullptr));
  for (int i = 0; i < 4; ++i) {
    CHECK(on_stack[i] == 9);
    CHECK(on_heap[i] == 9);
  }
}

TEST_CASE("Item4_read_only_variable_is_read_not_written") {
  // A const global lies in read-only data: reading it is fine, writing it would
  // fault, so a copy to it is refused.
  int src[4] = {5, 6, 7, 8};
  HIP_CHECK_ERROR(hipMemcpyToSymbol(g_read_only, src, sizeof src, 0, hipMemcpyHostToDevice),
                  hipErrorInvalidSymbol);
  int out[4] = {};
  HIP_CHECK(hipMemcpyFromSymbol(out, g_read_only, sizeof out, 0, hipMemcpyDeviceToHost));
  CHECK(out[3] == 4);
  void* address = nullptr;
  HIP_CHECK(hipGetSymbolAddress(&address, g_read_only));
  CHECK(address == static_cast<const void*>(g_read_only));
  HIP_CHECK_ERROR(hipMemcpy(address, src, sizeof src, hipMemcpyHostToDevice), hipErrorInvalidValue);
  HIP_CHECK(hipMemcpy(out, address, sizeof out, hipMemcpyDeviceToHost));
  CHECK(g_read_only[0] == 1);
}
