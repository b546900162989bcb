// SPDX-License-Identifier: MIT
#include <weft/driver/ref.hpp>
#include <weft/driver/status.hpp>

#include <catch2/catch.hpp>

namespace {
weft::Result<int> half(int v) {
  if (v % 2) return weft::Status(hipErrorInvalidValue, "odd");
  return v / 2;
}
weft::Status quarter(int v, int* out) {
  WEFT_ASSIGN_OR_RETURN(int h, half(v));
  WEFT_ASSIGN_OR_RETURN(*out, half(h));
  return weft::Status();
}
struct Counted : weft::RefCounted {
  explicit Counted(int* alive) : alive_(alive) { ++*alive_; }
  ~Counted() override { --*alive_; }
  int* alive_;
};
}  // namespace

TEST_CASE("Unit_Status_PropagatesThroughMacros") {
  int out = 0;
  CHECK(quarter(8, &out).ok());
  CHECK(out == 2);
  weft::Status s = quarter(6, &out);
  CHECK(s.code() == hipErrorInvalidValue);
  CHECK(s.message() == "odd");
}

TEST_CASE("Unit_Ref_ReleasesOnLastReference") {
  int alive = 0;
  {
    weft::Ref<Counted> a = weft::make_ref<Counted>(&alive);
    weft::Ref<Counted> b = a;
    CHECK(alive == 1);
    a = nullptr;
    CHECK(alive == 1);
  }
  CHECK(alive == 0);
}
