// SPDX-License-Identifier: MIT
// Conformance: graph structure. hipGraphCreate/Destroy/Clone, dependencies,
// edges, nodes, roots, node types, hipGraphDestroyNode, hipGraphNodeFindInClone.
#include "graph_test.hpp"

using namespace graph_test;

namespace {

// a -> b, a -> c, b -> d, c -> d (a diamond of empty nodes).
struct Diamond {
  Graph g;
  hipGraphNode_t a = nullptr, b = nullptr, c = nullptr, d = nullptr;
  Diamond() {
    HIP_CHECK(hipGraphAddEmptyNode(&a, g.get(), nullptr, 0));
    HIP_CHECK(hipGraphAddEmptyNode(&b, g.get(), &a, 1));
    HIP_CHECK(hipGraphAddEmptyNode(&c, g.get(), &a, 1));
    hipGraphNode_t bc[] = {b, c};
    HIP_CHECK(hipGraphAddEmptyNode(&d, g.get(), bc, 2));
  }
};

}  // namespace

TEST_CASE("Unit_hipGraphCreate_Positive_Basic") {
  hipGraph_t g = nullptr;
  HIP_CHECK(hipGraphCreate(&g, 0));
  REQUIRE(g != nullptr);
  REQUIRE(node_count(g) == 0);
  HIP_CHECK(hipGraphDestroy(g));
}

TEST_CASE("Unit_hipGraphCreate_Negative_Parameters") {
  hipGraph_t g = nullptr;
  HIP_CHECK_ERROR(hipGraphCreate(nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphCreate(&g, 1), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphDestroy_Negative_Parameters") {
  HIP_CHECK_ERROR(hipGraphDestroy(nullptr), hipErrorInvalidValue);
  hipGraph_t g = nullptr;
  HIP_CHECK(hipGraphCreate(&g, 0));
  HIP_CHECK(hipGraphDestroy(g));
  HIP_CHECK_ERROR(hipGraphDestroy(g), hipErrorInvalidValue);
  // A child graph belongs to its node.
  Graph parent, child;
  hipGraphNode_t node = nullptr;
  HIP_CHECK(hipGraphAddChildGraphNode(&node, parent.get(), nullptr, 0, child.get()));
  hipGraph_t embedded = nullptr;
  HIP_CHECK(hipGraphChildGraphNodeGetGraph(node, &embedded));
  HIP_CHECK_ERROR(hipGraphDestroy(embedded), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphGetNodes_Positive_Counts") {
  Diamond dia;
  REQUIRE(node_count(dia.g.get()) == 4);
  std::vector<hipGraphNode_t> nodes(6, reinterpret_cast<hipGraphNode_t>(1));
  size_t n = nodes.size();
  HIP_CHECK(hipGraphGetNodes(dia.g.get(), nodes.data(), &n));
  REQUIRE(n == 4);
  REQUIRE(nodes[0] == dia.a);
  REQUIRE(nodes[3] == dia.d);
  REQUIRE(nodes[4] == nullptr);  // unused entries are cleared
  n = 2;
  HIP_CHECK(hipGraphGetNodes(dia.g.get(), nodes.data(), &n));
  REQUIRE(n == 2);
}

TEST_CASE("Unit_hipGraphGetNodes_Negative_Parameters") {
  Diamond dia;
  hipGraphNode_t nodes[4];
  HIP_CHECK_ERROR(hipGraphGetNodes(dia.g.get(), nodes, nullptr), hipErrorInvalidValue);
  size_t n = 4;
  HIP_CHECK_ERROR(hipGraphGetNodes(nullptr, nodes, &n), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphGetRootNodes_Positive_Basic") {
  Diamond dia;
  hipGraphNode_t roots[2] = {};
  size_t n = 2;
  HIP_CHECK(hipGraphGetRootNodes(dia.g.get(), roots, &n));
  REQUIRE(n == 1);
  REQUIRE(roots[0] == dia.a);
  HIP_CHECK_ERROR(hipGraphGetRootNodes(dia.g.get(), roots, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphGetRootNodes(nullptr, roots, &n), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphGetEdges_Positive_Basic") {
  Diamond dia;
  REQUIRE(edge_count(dia.g.get()) == 4);
  hipGraphNode_t from[4], to[4];
  size_t n = 4;
  HIP_CHECK(hipGraphGetEdges(dia.g.get(), from, to, &n));
  REQUIRE(n == 4);
  int into_d = 0;
  for (size_t i = 0; i < n; ++i) into_d += to[i] == dia.d;
  REQUIRE(into_d == 2);
}

TEST_CASE("Unit_hipGraphGetEdges_Negative_Parameters") {
  Diamond dia;
  hipGraphNode_t from[4];
  size_t n = 4;
  HIP_CHECK_ERROR(hipGraphGetEdges(dia.g.get(), from, nullptr, &n), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphGetEdges(dia.g.get(), nullptr, nullptr, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphGetEdges(nullptr, nullptr, nullptr, &n), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphNodeGetDependencies_Positive_Basic") {
  Diamond dia;
  hipGraphNode_t deps[3] = {};
  size_t n = 3;
  HIP_CHECK(hipGraphNodeGetDependencies(dia.d, deps, &n));
  REQUIRE(n == 2);
  REQUIRE(((deps[0] == dia.b && deps[1] == dia.c) || (deps[0] == dia.c && deps[1] == dia.b)));
  HIP_CHECK(hipGraphNodeGetDependentNodes(dia.a, nullptr, &n));
  REQUIRE(n == 2);
  HIP_CHECK_ERROR(hipGraphNodeGetDependencies(nullptr, deps, &n), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphNodeGetDependencies(dia.d, deps, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphNodeGetDependentNodes(nullptr, deps, &n), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphAddDependencies_Positive_Basic") {
  Graph g;
  hipGraphNode_t a = nullptr, b = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&a, g.get(), nullptr, 0));
  HIP_CHECK(hipGraphAddEmptyNode(&b, g.get(), nullptr, 0));
  HIP_CHECK(hipGraphAddDependencies(g.get(), &a, &b, 1));
  REQUIRE(edge_count(g.get()) == 1);
  HIP_CHECK(hipGraphAddDependencies(g.get(), nullptr, nullptr, 0));  // nothing to do
  HIP_CHECK(hipGraphRemoveDependencies(g.get(), &a, &b, 1));
  REQUIRE(edge_count(g.get()) == 0);
}

TEST_CASE("Unit_hipGraphAddDependencies_Negative_Parameters") {
  Graph g, other;
  hipGraphNode_t a = nullptr, b = nullptr, foreign = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&a, g.get(), nullptr, 0));
  HIP_CHECK(hipGraphAddEmptyNode(&b, g.get(), &a, 1));
  HIP_CHECK(hipGraphAddEmptyNode(&foreign, other.get(), nullptr, 0));
  HIP_CHECK_ERROR(hipGraphAddDependencies(nullptr, &a, &b, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddDependencies(g.get(), nullptr, &b, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddDependencies(g.get(), &a, &b, 1), hipErrorInvalidValue);  // exists
  HIP_CHECK_ERROR(hipGraphAddDependencies(g.get(), &a, &a, 1), hipErrorInvalidValue);  // self
  HIP_CHECK_ERROR(hipGraphAddDependencies(g.get(), &a, &foreign, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphRemoveDependencies(g.get(), &b, &a, 1), hipErrorInvalidValue);  // missing
  REQUIRE(edge_count(g.get()) == 1);
}

TEST_CASE("Unit_hipGraphNodeGetType_Positive_AllKinds") {
  Graph g, child;
  hip_test::Event e;
  hipGraphNode_t n = nullptr;
  hipGraphNodeType type;
  HIP_CHECK(hipGraphAddEmptyNode(&n, g.get(), nullptr, 0));
  HIP_CHECK(hipGraphNodeGetType(n, &type));
  REQUIRE(type == hipGraphNodeTypeEmpty);
  HIP_CHECK(hipGraphAddChildGraphNode(&n, g.get(), nullptr, 0, child.get()));
  HIP_CHECK(hipGraphNodeGetType(n, &type));
  REQUIRE(type == hipGraphNodeTypeGraph);
  HIP_CHECK(hipGraphAddEventRecordNode(&n, g.get(), nullptr, 0, e.get()));
  HIP_CHECK(hipGraphNodeGetType(n, &type));
  REQUIRE(type == hipGraphNodeTypeEventRecord);
  HIP_CHECK(hipGraphAddEventWaitNode(&n, g.get(), nullptr, 0, e.get()));
  HIP_CHECK(hipGraphNodeGetType(n, &type));
  REQUIRE(type == hipGraphNodeTypeWaitEvent);
  HIP_CHECK_ERROR(hipGraphNodeGetType(n, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphNodeGetType(nullptr, &type), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphDestroyNode_Positive_RemovesEdges") {
  Diamond dia;
  HIP_CHECK(hipGraphDestroyNode(dia.b));
  REQUIRE(node_count(dia.g.get()) == 3);
  REQUIRE(edge_count(dia.g.get()) == 2);
  hipGraphNodeType type;
  HIP_CHECK_ERROR(hipGraphNodeGetType(dia.b, &type), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphDestroyNode(nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphClone_Positive_DeepCopy") {
  Diamond dia;
  Graph clone(nullptr);
  HIP_CHECK(hipGraphClone(clone.out(), dia.g.get()));
  REQUIRE(node_count(clone.get()) == 4);
  REQUIRE(edge_count(clone.get()) == 4);
  hipGraphNode_t d2 = nullptr;
  HIP_CHECK(hipGraphNodeFindInClone(&d2, dia.d, clone.get()));
  REQUIRE(d2 != dia.d);
  size_t n = 0;
  HIP_CHECK(hipGraphNodeGetDependencies(d2, nullptr, &n));
  REQUIRE(n == 2);
  // The copy is independent of the original.
  HIP_CHECK(hipGraphDestroyNode(dia.a));
  REQUIRE(node_count(clone.get()) == 4);
}

TEST_CASE("Unit_hipGraphClone_Negative_Parameters") {
  Diamond dia;
  hipGraph_t out = nullptr;
  HIP_CHECK_ERROR(hipGraphClone(nullptr, dia.g.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphClone(&out, nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphNodeFindInClone_Negative_Parameters") {
  Diamond dia, unrelated;
  hipGraphNode_t found = nullptr;
  HIP_CHECK_ERROR(hipGraphNodeFindInClone(&found, dia.a, unrelated.g.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphNodeFindInClone(nullptr, dia.a, dia.g.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphNodeFindInClone(&found, nullptr, dia.g.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphNodeFindInClone(&found, dia.a, nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphAddEmptyNode_Negative_Parameters") {
  Graph g, other;
  hipGraphNode_t n = nullptr, foreign = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&foreign, other.get(), nullptr, 0));
  HIP_CHECK_ERROR(hipGraphAddEmptyNode(nullptr, g.get(), nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddEmptyNode(&n, nullptr, nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddEmptyNode(&n, g.get(), nullptr, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddEmptyNode(&n, g.get(), &foreign, 1), hipErrorInvalidValue);
  hipGraphNode_t twice[] = {foreign, foreign};
  HIP_CHECK_ERROR(hipGraphAddEmptyNode(&n, other.get(), twice, 2), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphInstantiate_Negative_Cycle") {
  Graph g;
  hipGraphNode_t a = nullptr, b = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&a, g.get(), nullptr, 0));
  HIP_CHECK(hipGraphAddEmptyNode(&b, g.get(), &a, 1));
  HIP_CHECK(hipGraphAddDependencies(g.get(), &b, &a, 1));
  hipGraphExec_t e = nullptr;
  char log[128] = {};
  HIP_CHECK_ERROR(hipGraphInstantiate(&e, g.get(), nullptr, log, sizeof log), hipErrorInvalidValue);
  REQUIRE(std::string(log).find("cycle") != std::string::npos);
}
