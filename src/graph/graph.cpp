// SPDX-License-Identifier: MIT
#include "graph/graph.hpp"

#include "graph/handles.hpp"
#include "graph/user_object.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <atomic>

namespace weft::graph {

GraphNode::GraphNode(Graph& graph, hipGraphNodeType type, NodeData data, std::vector<Op> ops)
    : graph_(graph), type_(type), data_(std::move(data)), ops_(std::move(ops)) {
  if (graph_.has_handles()) handles().nodes.add(this);
}

GraphNode::~GraphNode() {
  if (graph_.has_handles()) handles().nodes.remove(this);
}

namespace {
std::atomic<uint64_t> g_next_graph_id{1};
}

Graph::Graph(bool handles)
    : handles_(handles), id_(g_next_graph_id.fetch_add(1, std::memory_order_relaxed)) {
  if (handles_) weft::graph::handles().graphs.add(this);
}

Graph::~Graph() {
  if (handles_) weft::graph::handles().graphs.remove(this);
  for (auto& [object, count] : user_objects_) object->release(count);
}

size_t Graph::edge_count() const {
  size_t edges = 0;
  for (const auto& node : nodes_) edges += node->deps_.size();
  return edges;
}

std::vector<GraphNode*> Graph::roots() const {
  std::vector<GraphNode*> out;
  for (const auto& node : nodes_)
    if (node->deps_.empty()) out.push_back(node.get());
  return out;
}

Result<GraphNode*> Graph::add(hipGraphNodeType type, NodeData data, std::vector<Op> ops,
                              std::span<GraphNode* const> deps) {
  for (size_t i = 0; i < deps.size(); ++i) {
    if (!deps[i]) return Status(hipErrorInvalidValue, "a dependency is null");
    if (&deps[i]->graph_ != this)
      return Status(hipErrorInvalidValue, "a dependency belongs to another graph");
    for (size_t j = 0; j < i; ++j)
      if (deps[j] == deps[i]) return Status(hipErrorInvalidValue, "a dependency is listed twice");
  }
  auto node = std::make_unique<GraphNode>(*this, type, std::move(data), std::move(ops));
  GraphNode* raw = node.get();
  raw->index_ = static_cast<uint32_t>(nodes_.size());
  raw->deps_.assign(deps.begin(), deps.end());
  for (GraphNode* dep : deps) dep->dependents_.push_back(raw);
  if (auto* child = std::get_if<ChildData>(&raw->data_)) child->graph->set_owner(raw);
  nodes_.push_back(std::move(node));
  ++version_;
  return raw;
}

bool Graph::has_edge(const GraphNode* from, const GraphNode* to) const {
  return std::find(to->deps_.begin(), to->deps_.end(), from) != to->deps_.end();
}

Status Graph::add_edge(GraphNode* from, GraphNode* to) {
  if (!from || !to) return Status(hipErrorInvalidValue, "an edge end is null");
  if (&from->graph_ != this || &to->graph_ != this)
    return Status(hipErrorInvalidValue, "an edge end belongs to another graph");
  if (from == to) return Status(hipErrorInvalidValue, "a node cannot depend on itself");
  if (has_edge(from, to)) return Status(hipErrorInvalidValue, "the edge already exists");
  to->deps_.push_back(from);
  from->dependents_.push_back(to);
  ++version_;
  return Status();
}

Status Graph::remove_edge(GraphNode* from, GraphNode* to) {
  if (!from || !to) return Status(hipErrorInvalidValue, "an edge end is null");
  if (&from->graph_ != this || &to->graph_ != this)
    return Status(hipErrorInvalidValue, "an edge end belongs to another graph");
  auto it = std::find(to->deps_.begin(), to->deps_.end(), from);
  if (it == to->deps_.end()) return Status(hipErrorInvalidValue, "the edge does not exist");
  to->deps_.erase(it);
  from->dependents_.erase(std::find(from->dependents_.begin(), from->dependents_.end(), to));
  ++version_;
  return Status();
}

void Graph::destroy(GraphNode* node) {
  for (GraphNode* dep : node->deps_) std::erase(dep->dependents_, node);
  for (GraphNode* next : node->dependents_) std::erase(next->deps_, node);
  uint32_t index = node->index_;
  ++version_;
  nodes_.erase(nodes_.begin() + index);
  for (size_t i = index; i < nodes_.size(); ++i) nodes_[i]->index_ = static_cast<uint32_t>(i);
}

Ref<Graph> Graph::clone(bool private_copy) const {
  auto copy = make_ref<Graph>(!private_copy);
  copy->nodes_.reserve(nodes_.size());
  for (const auto& node : nodes_) {
    NodeData data = node->data_;
    if (auto* child = std::get_if<ChildData>(&data))
      child->graph = child->graph->clone(private_copy);
    if (auto* kernel = std::get_if<KernelData>(&data)) kernel->arg_addresses.clear();
    auto cloned = std::make_unique<GraphNode>(*copy, node->type_, std::move(data), node->ops_);
    cloned->index_ = node->index_;
    cloned->original_ = node.get();
    if (auto* child = std::get_if<ChildData>(&cloned->data_)) child->graph->set_owner(cloned.get());
    copy->nodes_.push_back(std::move(cloned));
  }
  for (const auto& node : nodes_) {
    GraphNode* to = copy->nodes_[node->index_].get();
    to->deps_.reserve(node->deps_.size());
    to->dependents_.reserve(node->dependents_.size());
    for (GraphNode* dep : node->deps_) to->deps_.push_back(copy->nodes_[dep->index_].get());
    for (GraphNode* next : node->dependents_)
      to->dependents_.push_back(copy->nodes_[next->index_].get());
  }
  for (auto& [object, count] : user_objects_) copy->retain_user_object(*object, count);
  return copy;
}

Result<std::vector<const GraphNode*>> Graph::topological_order() const {
  std::vector<uint32_t> waiting(nodes_.size());
  std::vector<const GraphNode*> order;
  order.reserve(nodes_.size());
  for (const auto& node : nodes_) {
    waiting[node->index_] = static_cast<uint32_t>(node->deps_.size());
    if (node->deps_.empty()) order.push_back(node.get());
  }
  for (size_t next = 0; next < order.size(); ++next)
    for (const GraphNode* after : order[next]->dependents_)
      if (--waiting[after->index_] == 0) order.push_back(after);
  if (order.size() != nodes_.size())
    return Status(hipErrorInvalidValue,
                  fmt::format("the graph has a cycle through {} of its {} nodes",
                              nodes_.size() - order.size(), nodes_.size()));
  return order;
}

void Graph::retain_user_object(UserObject& object, unsigned count) {
  object.retain(count);
  user_objects_[&object] += count;
}

Status Graph::release_user_object(UserObject& object, unsigned count) {
  auto it = user_objects_.find(&object);
  if (it == user_objects_.end() || it->second < count)
    return Status(hipErrorInvalidValue, "the graph holds fewer references to the user object");
  it->second -= count;
  if (it->second == 0) user_objects_.erase(it);
  object.release(count);
  return Status();
}

bool Graph::has_memory_nodes() const {
  for (const auto& node : nodes_) {
    if (node->type_ == hipGraphNodeTypeMemAlloc || node->type_ == hipGraphNodeTypeMemFree)
      return true;
    if (auto* child = std::get_if<ChildData>(&node->data_))
      if (child->graph->has_memory_nodes()) return true;
  }
  return false;
}

namespace {
bool same_deps(const GraphNode& a, const GraphNode& b) {
  if (a.deps().size() != b.deps().size()) return false;
  if (a.deps().size() == 1) return a.deps()[0]->index() == b.deps()[0]->index();
  std::vector<uint32_t> x, y;
  for (const GraphNode* d : a.deps()) x.push_back(d->index());
  for (const GraphNode* d : b.deps()) y.push_back(d->index());
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y;
}
}  // namespace

ShapeMismatch compare_shape(const Graph& a, const Graph& b) {
  const auto& x = a.nodes();
  const auto& y = b.nodes();
  if (x.size() != y.size()) {
    const GraphNode* node = y.size() > x.size() ? y[x.size()].get() : nullptr;
    return ShapeMismatch{node, hipGraphExecUpdateErrorTopologyChanged};
  }
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i]->type() != y[i]->type())
      return ShapeMismatch{y[i].get(), hipGraphExecUpdateErrorNodeTypeChanged};
    if (!same_deps(*x[i], *y[i]))
      return ShapeMismatch{y[i].get(), hipGraphExecUpdateErrorTopologyChanged};
    if (x[i]->type() == hipGraphNodeTypeGraph) {
      ShapeMismatch inner =
          compare_shape(*x[i]->as<ChildData>().graph, *y[i]->as<ChildData>().graph);
      if (inner.result != hipGraphExecUpdateSuccess) return ShapeMismatch{y[i].get(), inner.result};
    }
  }
  return ShapeMismatch{};
}

void run_captured_host_function(void* callable) {
  (*static_cast<std::function<void()>*>(callable))();
}

}  // namespace weft::graph
