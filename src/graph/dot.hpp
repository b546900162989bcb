// SPDX-License-Identifier: MIT
// hipGraphDebugDotPrint: a graph as Graphviz DOT. Every node is a box labelled
// with its number and kind (plus parameters per hipGraphDebugDotFlags); child
// graphs are clusters, entered through a dashed edge from their node.
#pragma once

#include "graph/graph.hpp"

#include <cstdint>
#include <string>

namespace weft::graph {

std::string to_dot(const Graph& graph, unsigned flags);

// A byte count as every label writes it: "4096 bytes (4.0 KiB)", "12 bytes".
std::string size_text(uint64_t bytes);

}  // namespace weft::graph
