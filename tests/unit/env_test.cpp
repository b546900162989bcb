// SPDX-License-Identifier: MIT
#include <weft/common/env.hpp>

#include <catch2/catch.hpp>

using weft::env::parse_visible_list;

TEST_CASE("Unit_VisibleDevices_ParsesIndices") {
  CHECK(parse_visible_list("0,2,1", 3) == std::vector<int>{0, 2, 1});
  CHECK(parse_visible_list("1", 3) == std::vector<int>{1});
}

TEST_CASE("Unit_VisibleDevices_StopsAtFirstInvalid") {
  CHECK(parse_visible_list("1,7,0", 3) == std::vector<int>{1});
  CHECK(parse_visible_list("0,x,1", 3) == std::vector<int>{0});
  CHECK(parse_visible_list("-1", 3).empty());
  CHECK(parse_visible_list("", 3).empty());
}

TEST_CASE("Unit_VisibleDevices_DropsDuplicates") {
  CHECK(parse_visible_list("1,1,0", 3) == std::vector<int>{1, 0});
}
