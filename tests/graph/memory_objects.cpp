// SPDX-License-Identifier: MIT
// Conformance, second part of graph_misc.cpp: graph memory kept at one
// address across replays and instantiations, user-object reference counting
// and destructor timing, and hipGraphDebugDotPrint parsed as Graphviz DOT.
#include "graph_test.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

using namespace graph_test;

namespace {

constexpr int kN = 256;

hipMemAllocNodeParams alloc_params(size_t bytes) {
  hipMemAllocNodeParams p{};
  p.poolProps.allocType = hipMemAllocationTypePinned;
  p.poolProps.location.type = hipMemLocationTypeDevice;
  p.poolProps.location.id = hip_test::device();
  p.bytesize = bytes;
  return p;
}

hipMemsetParams memset_of(void* dst, unsigned value, size_t elements) {
  hipMemsetParams p{};
  p.dst = dst;
  p.value = value;
  p.elementSize = 4;
  p.width = elements;
  p.height = 1;
  return p;
}

// The destroy callback counts into the object the user pointer names.
void count_destroy(void* p) { static_cast<std::atomic<int>*>(p)->fetch_add(1); }

// User-object destructors may run on a runtime thread after the work that held
// them finished; waits (bounded) for `counter` to reach `expected`.
bool eventually_equals(const std::atomic<int>& counter, int expected) {
  for (int i = 0; i < 10000 && counter.load() != expected; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return counter.load() == expected;
}

}  // namespace

// ---- graph memory ---------------------------------------------------------------------------

TEST_CASE("Unit_hipGraphAddMemAllocNode_Positive_AddressStableAcrossInstantiations") {
  Graph g;
  hipMemAllocNodeParams p = alloc_params(kN * sizeof(int));
  hipGraphNode_t alloc = nullptr, set = nullptr, copy = nullptr;
  HIP_CHECK(hipGraphAddMemAllocNode(&alloc, g.get(), nullptr, 0, &p));
  void* const d = p.dptr;
  REQUIRE(d != nullptr);
  hipMemsetParams ms = memset_of(d, 0, kN);
  HIP_CHECK(hipGraphAddMemsetNode(&set, g.get(), &alloc, 1, &ms));
  std::vector<int> h(kN, -1);
  HIP_CHECK(hipGraphAddMemcpyNode1D(&copy, g.get(), &set, 1, h.data(), d, kN * sizeof(int),
                                    hipMemcpyDeviceToHost));
  // No free node: the memory stays valid after a replay, and every replay and
  // every instantiation (one at a time) uses the same block.
  for (int round = 0; round < 3; ++round) {
    INFO("instantiation " << round);
    Exec exec(g.get());
    for (int replay = 0; replay < 4; ++replay) {
      const unsigned value = 0x100u * static_cast<unsigned>(round) + static_cast<unsigned>(replay);
      ms.value = value;
      HIP_CHECK(hipGraphExecMemsetNodeSetParams(exec.get(), set, &ms));
      std::fill(h.begin(), h.end(), -1);
      HIP_CHECK(hipGraphLaunch(exec.get(), nullptr));
      HIP_CHECK(hipStreamSynchronize(nullptr));
      REQUIRE(h[0] == static_cast<int>(value));
      REQUIRE(h[kN - 1] == static_cast<int>(value));
      hipMemAllocNodeParams back{};
      HIP_CHECK(hipGraphMemAllocNodeGetParams(alloc, &back));
      REQUIRE(back.dptr == d);
      // The block outlives the replay: it can be read outside the graph.
      int last = 0;
      HIP_CHECK(
          hipMemcpy(&last, static_cast<int*>(d) + kN - 1, sizeof last, hipMemcpyDeviceToHost));
      REQUIRE(last == static_cast<int>(value));
    }
  }
  // hipGraphAddNode returns the address through the parameters as well.
  hipGraphNodeParams np{};
  np.type = hipGraphNodeTypeMemAlloc;
  np.alloc = alloc_params(64);
  hipGraphNode_t second = nullptr;
  HIP_CHECK(hipGraphAddNode(&second, g.get(), nullptr, 0, &np));
  REQUIRE(np.alloc.dptr != nullptr);
  REQUIRE(np.alloc.dptr != d);
  hipMemAllocNodeParams back{};
  HIP_CHECK(hipGraphMemAllocNodeGetParams(second, &back));
  REQUIRE(back.dptr == np.alloc.dptr);
  REQUIRE(back.bytesize == 64);
}

TEST_CASE("Unit_hipGraphAddMemFreeNode_Positive_FreeInAnotherGraph") {
  Graph producer, consumer;
  hipMemAllocNodeParams p = alloc_params(kN * sizeof(int));
  hipGraphNode_t alloc = nullptr, set = nullptr, copy = nullptr, free_node = nullptr;
  HIP_CHECK(hipGraphAddMemAllocNode(&alloc, producer.get(), nullptr, 0, &p));
  hipMemsetParams ms = memset_of(p.dptr, 77, kN);
  HIP_CHECK(hipGraphAddMemsetNode(&set, producer.get(), &alloc, 1, &ms));
  // The consumer reads the producer's memory and frees it.
  std::vector<int> h(kN, 0);
  HIP_CHECK(hipGraphAddMemcpyNode1D(&copy, consumer.get(), nullptr, 0, h.data(), p.dptr,
                                    kN * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipDrvGraphAddMemFreeNode(&free_node, consumer.get(), &copy, 1, p.dptr));
  void* freed = nullptr;
  HIP_CHECK(hipGraphMemFreeNodeGetParams(free_node, &freed));
  REQUIRE(freed == p.dptr);
  hipGraphNodeType type{};
  HIP_CHECK(hipGraphNodeGetType(free_node, &type));
  REQUIRE(type == hipGraphNodeTypeMemFree);
  Exec first(producer.get()), second(consumer.get());
  HIP_CHECK(hipGraphLaunch(first.get(), nullptr));
  HIP_CHECK(hipGraphLaunch(second.get(), nullptr));
  HIP_CHECK(hipStreamSynchronize(nullptr));
  REQUIRE(h[0] == 77);
  REQUIRE(h[kN - 1] == 77);
}

TEST_CASE("Unit_hipGraphAddMemAllocNode_Negative_Placement") {
  Graph g, holder;
  hipMemAllocNodeParams p = alloc_params(kN * sizeof(int));
  hipGraphNode_t alloc = nullptr, n = nullptr;
  HIP_CHECK(hipGraphAddMemAllocNode(&alloc, g.get(), nullptr, 0, &p));
  SECTION("not inside a child graph") {
    HIP_CHECK_ERROR(hipGraphAddChildGraphNode(&n, holder.get(), nullptr, 0, g.get()),
                    hipErrorNotSupported);
    REQUIRE(node_count(holder.get()) == 0);
  }
  SECTION("free nodes need the start of a graph allocation") {
    HIP_CHECK_ERROR(hipGraphAddMemFreeNode(&n, g.get(), &alloc, 1, static_cast<char*>(p.dptr) + 4),
                    hipErrorInvalidValue);
    REQUIRE(node_count(g.get()) == 1);
  }
  SECTION("the block goes with its last graph") {
    void* gone = p.dptr;
    HIP_CHECK(hipGraphDestroyNode(alloc));
    HIP_CHECK_ERROR(hipGraphAddMemFreeNode(&n, holder.get(), nullptr, 0, gone),
                    hipErrorInvalidValue);
  }
  SECTION("memory node parameters cannot change") {
    hipGraphNodeParams np{};
    np.type = hipGraphNodeTypeMemAlloc;
    np.alloc = alloc_params(16);
    HIP_CHECK_ERROR(hipGraphNodeSetParams(alloc, &np), hipErrorInvalidValue);
  }
  SECTION("an executable graph with memory nodes cannot be updated to other memory") {
    Exec exec(g.get());
    Graph other;
    hipMemAllocNodeParams q = alloc_params(kN * sizeof(int));
    HIP_CHECK(hipGraphAddMemAllocNode(&n, other.get(), nullptr, 0, &q));
    hipGraphNode_t error = nullptr;
    hipGraphExecUpdateResult result = hipGraphExecUpdateSuccess;
    HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), other.get(), &error, &result),
                    hipErrorGraphExecUpdateFailure);
    REQUIRE(result == hipGraphExecUpdateErrorNotSupported);
    REQUIRE(error == n);
    // Its own graph, unchanged, is fine.
    HIP_CHECK(hipGraphExecUpdate(exec.get(), g.get(), &error, &result));
    REQUIRE(result == hipGraphExecUpdateSuccess);
  }
}

// ---- user objects ---------------------------------------------------------------------------

TEST_CASE("Unit_hipUserObject_Positive_RetainReleaseCounts") {
  std::atomic<int> destroyed{0};
  hipUserObject_t obj = nullptr;
  HIP_CHECK(hipUserObjectCreate(&obj, &destroyed, count_destroy, 2, hipUserObjectNoDestructorSync));
  HIP_CHECK(hipUserObjectRetain(obj, 3));   // 5
  HIP_CHECK(hipUserObjectRelease(obj, 4));  // 1
  REQUIRE(destroyed == 0);
  // Releasing more than is held is refused and changes nothing.
  HIP_CHECK_ERROR(hipUserObjectRelease(obj, 2), hipErrorInvalidValue);
  REQUIRE(destroyed == 0);
  HIP_CHECK(hipUserObjectRelease(obj, 1));  // 0: the destructor runs, with the user's pointer
  REQUIRE(eventually_equals(destroyed, 1));
  // The handle is dead from then on.
  HIP_CHECK_ERROR(hipUserObjectRetain(obj, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipUserObjectRelease(obj, 1), hipErrorInvalidValue);
  REQUIRE(destroyed == 1);
}

TEST_CASE("Unit_hipGraphRetainUserObject_Positive_GraphAndCloneReferences") {
  std::atomic<int> destroyed_a{0}, destroyed_b{0};
  hipUserObject_t a = nullptr, b = nullptr;
  HIP_CHECK(hipUserObjectCreate(&a, &destroyed_a, count_destroy, 1, hipUserObjectNoDestructorSync));
  HIP_CHECK(hipUserObjectCreate(&b, &destroyed_b, count_destroy, 1, hipUserObjectNoDestructorSync));
  hipGraph_t g = nullptr, clone = nullptr;
  HIP_CHECK(hipGraphCreate(&g, 0));
  HIP_CHECK(hipGraphRetainUserObject(g, a, 3, 0));                       // the graph's own three
  HIP_CHECK(hipGraphRetainUserObject(g, b, 1, hipGraphUserObjectMove));  // ours moves in
  HIP_CHECK(hipUserObjectRelease(a, 1));  // ours goes; the graph still holds a
  REQUIRE(destroyed_a == 0);
  REQUIRE(destroyed_b == 0);
  HIP_CHECK(hipGraphReleaseUserObject(g, a, 2));
  HIP_CHECK_ERROR(hipGraphReleaseUserObject(g, a, 2), hipErrorInvalidValue);  // holds one
  REQUIRE(destroyed_a == 0);
  HIP_CHECK(hipGraphClone(&clone, g));  // the clone takes references of its own
  HIP_CHECK(hipGraphDestroy(g));
  REQUIRE(destroyed_a == 0);
  REQUIRE(destroyed_b == 0);
  HIP_CHECK(hipGraphDestroy(clone));
  REQUIRE(eventually_equals(destroyed_a, 1));
  REQUIRE(eventually_equals(destroyed_b, 1));
}

TEST_CASE("Unit_hipUserObject_Positive_DestructorAfterLastReplay") {
  std::atomic<int> destroyed{0};
  std::atomic<int> open{0}, entered{0};
  struct HostState {
    std::atomic<int>* open;
    std::atomic<int>* entered;
  } state{&open, &entered};
  hip_test::Stream s;
  hipUserObject_t obj = nullptr;
  HIP_CHECK(hipUserObjectCreate(&obj, &destroyed, count_destroy, 1, hipUserObjectNoDestructorSync));
  hipGraph_t g = nullptr;
  HIP_CHECK(hipGraphCreate(&g, 0));
  // A host node that holds the replay until the test lets it go (bounded).
  hipHostNodeParams hp{[](void* p) {
    auto* st = static_cast<HostState*>(p);
    st->entered->store(1);
    for (int i = 0; i < 10000 && !st->open->load(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
                       },
                       &state};
  hipGraphNode_t host = nullptr;
  HIP_CHECK(hipGraphAddHostNode(&host, g, nullptr, 0, &hp));
  HIP_CHECK(hipGraphRetainUserObject(g, obj, 1, hipGraphUserObjectMove));
  hipGraphExec_t exec = nullptr, second = nullptr;
  HIP_CHECK(hipGraphInstantiate(&exec, g, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphInstantiate(&second, g, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphDestroy(g));
  HIP_CHECK(hipGraphExecDestroy(second));  // never launched; the other plan still holds it
  REQUIRE(destroyed == 0);
  HIP_CHECK(hipGraphLaunch(exec, s.get()));
  HIP_CHECK(hipGraphExecDestroy(exec));  // the queued replay still holds it
  REQUIRE(destroyed == 0);
  for (int i = 0; i < 10000 && !entered.load(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  REQUIRE(entered == 1);
  REQUIRE(destroyed == 0);  // the replay is running
  open = 1;
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(eventually_equals(destroyed, 1));
}

// ---- hipGraphDebugDotPrint ------------------------------------------------------------------

namespace {

// A parser for the Graphviz DOT language (graphviz.org/doc/info/lang.html):
// graph, statements, node/edge/attribute statements, subgraphs, attribute
// lists, IDs (names, numerals, quoted strings with '+' concatenation, HTML
// strings) and comments. It fails the test on any syntax error and collects
// what the file declares.
class DotParser {
 public:
  struct Node {
    std::map<std::string, std::string> attrs;
    int depth;  // 0 for the top level, 1 inside one subgraph, ...
  };
  std::map<std::string, Node> nodes;
  std::vector<std::pair<std::string, std::string>> edges;
  std::set<std::string> implicit;  // edge endpoints never declared as nodes
  int clusters = 0;

  explicit DotParser(std::string text) : s_(std::move(text)) {}

  void parse() {
    next();
    if (keyword("strict")) next();
    INFO("DOT: expected 'digraph'");
    REQUIRE(keyword("digraph"));  // the graph has directed edges
    next();
    if (tok_ == Tok::kId) next();
    expect("{");
    stmt_list();
    expect("}");
    INFO("DOT: trailing text after the graph");
    REQUIRE(tok_ == Tok::kEnd);
    for (const auto& [from, to] : edges) {
      if (!nodes.count(from)) implicit.insert(from);
      if (!nodes.count(to)) implicit.insert(to);
    }
  }

 private:
  enum class Tok { kEnd, kId, kPunct, kEdgeOp };

  void stmt_list() {
    while (tok_ != Tok::kEnd && !punct("}")) {
      stmt();
      if (punct(";")) next();
    }
  }

  void stmt() {
    if (keyword("graph") || keyword("node") || keyword("edge")) {
      next();
      std::map<std::string, std::string> attrs;
      attr_list(attrs);
      return;
    }
    if (keyword("subgraph") || punct("{")) {
      std::vector<std::string> members = subgraph();
      if (tok_ == Tok::kEdgeOp) edge_rhs(members);
      return;
    }
    INFO("DOT: expected a statement near offset " << pos_);
    REQUIRE(tok_ == Tok::kId);
    std::string id = value_;
    next();
    if (punct("=")) {  // ID '=' ID
      next();
      REQUIRE(tok_ == Tok::kId);
      next();
      return;
    }
    port();
    if (tok_ == Tok::kEdgeOp) {
      edge_rhs({id});
      return;
    }
    Node node{{}, depth_};
    attr_list(node.attrs);
    INFO("DOT: node " << id << " declared twice");
    REQUIRE(!nodes.count(id));
    nodes[id] = std::move(node);
  }

  void edge_rhs(std::vector<std::string> from) {
    while (tok_ == Tok::kEdgeOp) {
      INFO("DOT: a digraph's edges are '->'");
      REQUIRE(value_ == "->");
      next();
      std::vector<std::string> to;
      if (keyword("subgraph") || punct("{")) {
        to = subgraph();
      } else {
        REQUIRE(tok_ == Tok::kId);
        to.push_back(value_);
        next();
        port();
      }
      for (const auto& f : from)
        for (const auto& t : to) edges.emplace_back(f, t);
      from = to;
    }
    std::map<std::string, std::string> attrs;
    attr_list(attrs);
  }

  // An edge to or from a subgraph would join its nodes; not collected.
  std::vector<std::string> subgraph() {
    if (keyword("subgraph")) {
      next();
      if (tok_ == Tok::kId) {
        if (value_.rfind("cluster", 0) == 0) ++clusters;
        next();
      }
    }
    expect("{");
    ++depth_;
    stmt_list();
    --depth_;
    expect("}");
    return {};  // weft never draws edges to or from a whole subgraph
  }

  void port() {
    while (punct(":")) {
      next();
      REQUIRE(tok_ == Tok::kId);
      next();
    }
  }

  void attr_list(std::map<std::string, std::string>& attrs) {
    while (punct("[")) {
      next();
      while (!punct("]")) {
        INFO("DOT: expected an attribute name near offset " << pos_);
        REQUIRE(tok_ == Tok::kId);
        std::string key = value_;
        next();
        expect("=");
        INFO("DOT: expected an attribute value near offset " << pos_);
        REQUIRE(tok_ == Tok::kId);
        attrs[key] = value_;
        next();
        if (punct(";") || punct(",")) next();
      }
      next();
    }
  }

  bool keyword(const char* word) const {
    if (tok_ != Tok::kId || quoted_) return false;
    std::string lower = value_;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower == word;
  }
  bool punct(const char* p) const { return tok_ == Tok::kPunct && value_ == p; }
  void expect(const char* p) {
    INFO("DOT: expected '" << p << "' near offset " << pos_ << ", got '" << value_ << "'");
    REQUIRE(punct(p));
    next();
  }

  void skip_space_and_comments() {
    for (;;) {
      while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (s_.compare(pos_, 2, "//") == 0 ||
          (s_[pos_] == '#' && (pos_ == 0 || s_[pos_ - 1] == '\n'))) {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else if (s_.compare(pos_, 2, "/*") == 0) {
        size_t end = s_.find("*/", pos_ + 2);
        INFO("DOT: unterminated comment");
        REQUIRE(end != std::string::npos);
        pos_ = end + 2;
      } else {
        return;
      }
    }
  }

  std::string quoted_string() {
    std::string out;
    ++pos_;  // opening quote
    for (;;) {
      INFO("DOT: unterminated string");
      REQUIRE(pos_ < s_.size());
      char c = s_[pos_++];
      if (c == '"') break;
      if (c == '\\' && pos_ < s_.size() && (s_[pos_] == '"' || s_[pos_] == '\\')) {
        out += s_[pos_++];
        continue;
      }
      if (c == '\\' && pos_ < s_.size() && s_[pos_] == '\n') {  // line continuation
        ++pos_;
        continue;
      }
      out += c;
    }
    return out;
  }

  void next() {
    skip_space_and_comments();
    quoted_ = false;
    if (pos_ >= s_.size()) {
      tok_ = Tok::kEnd;
      value_.clear();
      return;
    }
    char c = s_[pos_];
    if (c == '"') {
      value_ = quoted_string();
      // "a" + "b" concatenates.
      for (;;) {
        size_t save = pos_;
        skip_space_and_comments();
        if (pos_ < s_.size() && s_[pos_] == '+') {
          ++pos_;
          skip_space_and_comments();
          REQUIRE(pos_ < s_.size());
          REQUIRE(s_[pos_] == '"');
          value_ += quoted_string();
        } else {
          pos_ = save;
          break;
        }
      }
      tok_ = Tok::kId;
      quoted_ = true;
      return;
    }
    if (c == '<') {  // HTML string: balanced angle brackets
      int depth = 0;
      size_t start = pos_;
      do {
        INFO("DOT: unterminated HTML string");
        REQUIRE(pos_ < s_.size());
        if (s_[pos_] == '<') ++depth;
        if (s_[pos_] == '>') --depth;
        ++pos_;
      } while (depth > 0);
      value_ = s_.substr(start, pos_ - start);
      tok_ = Tok::kId;
      quoted_ = true;
      return;
    }
    if (s_.compare(pos_, 2, "->") == 0 || s_.compare(pos_, 2, "--") == 0) {
      value_ = s_.substr(pos_, 2);
      pos_ += 2;
      tok_ = Tok::kEdgeOp;
      return;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
        static_cast<unsigned char>(c) >= 0x80) {
      size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                  s_[pos_] == '_' || static_cast<unsigned char>(s_[pos_]) >= 0x80))
        ++pos_;
      value_ = s_.substr(start, pos_ - start);
      tok_ = Tok::kId;
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-') {
      size_t start = pos_;
      if (s_[pos_] == '-') ++pos_;
      bool digits = false, dot = false;
      while (pos_ < s_.size() &&
             (std::isdigit(static_cast<unsigned char>(s_[pos_])) || (s_[pos_] == '.' && !dot))) {
        if (s_[pos_] == '.') dot = true;
        else digits = true;
        ++pos_;
      }
      INFO("DOT: stray character near offset " << start);
      REQUIRE(digits);
      value_ = s_.substr(start, pos_ - start);
      tok_ = Tok::kId;
      return;
    }
    INFO("DOT: unexpected character '" << c << "' at offset " << pos_);
    REQUIRE(std::strchr("{}[];,=:", c) != nullptr);
    value_ = std::string(1, c);
    ++pos_;
    tok_ = Tok::kPunct;
  }

  std::string s_;
  size_t pos_ = 0;
  Tok tok_ = Tok::kEnd;
  std::string value_;
  bool quoted_ = false;
  int depth_ = 0;
};

std::string dot_of(hipGraph_t g, unsigned flags) {
  const std::string path = "weft_graph_dot_test_" + std::to_string(flags) + ".dot";
  HIP_CHECK(hipGraphDebugDotPrint(g, path.c_str(), flags));
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::remove(path.c_str());
  return ss.str();
}

std::string handle_text(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

}  // namespace

TEST_CASE("Unit_hipGraphDebugDotPrint_Positive_ParsesAsDot") {
  const unsigned flags = GENERATE(
      0u, unsigned(hipGraphDebugDotFlagsVerbose), unsigned(hipGraphDebugDotFlagsHandles),
      unsigned(hipGraphDebugDotFlagsKernelNodeParams | hipGraphDebugDotFlagsHandles),
      unsigned(hipGraphDebugDotFlagsMemcpyNodeParams | hipGraphDebugDotFlagsMemsetNodeParams |
               hipGraphDebugDotFlagsHostNodeParams | hipGraphDebugDotFlagsEventNodeParams));
  INFO("flags " << flags);
  int value = 0;
  hip_test::DeviceBuffer<int> d(16);
  std::vector<int> h(16);
  hip_test::Event e1, e2;
  Graph g, child, grandchild;
  // A grandchild inside a child graph inside g: clusters nest.
  hipGraphNode_t gc = nullptr, c0 = nullptr, c1 = nullptr;
  hipHostNodeParams hp{[](void*) {}, &value};
  HIP_CHECK(hipGraphAddHostNode(&gc, grandchild.get(), nullptr, 0, &hp));
  HIP_CHECK(hipGraphAddEmptyNode(&c0, child.get(), nullptr, 0));
  HIP_CHECK(hipGraphAddChildGraphNode(&c1, child.get(), &c0, 1, grandchild.get()));

  std::vector<hipGraphNode_t> top;
  hipGraphNode_t n = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&n, g.get(), nullptr, 0));
  top.push_back(n);
  hipMemAllocNodeParams ap = alloc_params(64);
  HIP_CHECK(hipGraphAddMemAllocNode(&n, g.get(), &top[0], 1, &ap));
  top.push_back(n);
  hipMemsetParams ms = memset_of(d.get(), 3, 16);
  HIP_CHECK(hipGraphAddMemsetNode(&n, g.get(), &top[0], 1, &ms));
  top.push_back(n);
  HIP_CHECK(hipGraphAddMemcpyNode1D(&n, g.get(), &top[2], 1, h.data(), d.get(), d.bytes(),
                                    hipMemcpyDeviceToHost));
  top.push_back(n);
  HIP_CHECK(hipGraphAddHostNode(&n, g.get(), &top[3], 1, &hp));
  top.push_back(n);
  HIP_CHECK(hipGraphAddChildGraphNode(&n, g.get(), &top[0], 1, child.get()));
  top.push_back(n);
  hipGraphNode_t joined[] = {top[4], top[5], top[1]};
  HIP_CHECK(hipGraphAddEventRecordNode(&n, g.get(), joined, 3, e1.get()));
  top.push_back(n);
  HIP_CHECK(hipGraphAddEventWaitNode(&n, g.get(), &top[6], 1, e2.get()));
  top.push_back(n);
  HIP_CHECK(hipGraphAddMemFreeNode(&n, g.get(), &top[7], 1, ap.dptr));
  top.push_back(n);
  if (hip_test::kernels_supported()) {
    hip_test::DeviceBuffer<int> warm(1);
    HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, nullptr, warm.get(), 1);  // makes add_one known
    HIP_CHECK(hipDeviceSynchronize());
    int* ptr = d.get();
    int count = 16;
    void* args[] = {&ptr, &count};
    hipKernelNodeParams kp =
        kernel_node(reinterpret_cast<void*>(&add_one), dim3(1), dim3(16), args);
    HIP_CHECK(hipGraphAddKernelNode(&n, g.get(), &top[2], 1, &kp));
    top.push_back(n);
  }

  std::string text = dot_of(g.get(), flags);
  DotParser dot(text);
  dot.parse();
  INFO(text);
  // Every node of g, the child and the grandchild is declared once with a
  // label; edges join declared nodes only.
  REQUIRE(dot.nodes.size() == top.size() + 3);
  REQUIRE(dot.implicit.empty());
  REQUIRE(dot.clusters == 2);
  for (const auto& [id, node] : dot.nodes) {
    INFO("node " << id);
    REQUIRE(node.attrs.count("label"));
  }
  size_t top_level = 0;
  for (const auto& [id, node] : dot.nodes) top_level += node.depth == 0;
  REQUIRE(top_level == top.size());
  // The graph's edges, each once, plus the edges into child graphs.
  REQUIRE(dot.edges.size() == edge_count(g.get()) + edge_count(child.get()) + 2);
  std::set<std::pair<std::string, std::string>> unique(dot.edges.begin(), dot.edges.end());
  REQUIRE(unique.size() == dot.edges.size());

  if (flags & hipGraphDebugDotFlagsHandles) {
    // With handles, every top-level node's label names it: the edges must be
    // exactly hipGraphGetEdges'.
    std::map<std::string, std::string> id_of;  // handle text -> DOT id
    for (hipGraphNode_t node : top) {
      std::string handle = handle_text(node);
      for (const auto& [id, dn] : dot.nodes) {
        const std::string& label = dn.attrs.at("label");
        size_t at = label.find(handle);
        bool whole = at != std::string::npos &&
                     (at + handle.size() == label.size() || label[at + handle.size()] == '\\');
        if (dn.depth == 0 && whole) id_of[handle] = id;
      }
      INFO("handle " << handle);
      REQUIRE(id_of.count(handle));
    }
    size_t count = edge_count(g.get());
    std::vector<hipGraphNode_t> from(count), to(count);
    HIP_CHECK(hipGraphGetEdges(g.get(), from.data(), to.data(), &count));
    for (size_t i = 0; i < count; ++i) {
      auto edge = std::make_pair(id_of.at(handle_text(from[i])), id_of.at(handle_text(to[i])));
      INFO("edge " << edge.first << " -> " << edge.second);
      REQUIRE(unique.count(edge));
    }
  }
}

TEST_CASE("Unit_hipGraphDebugDotPrint_Positive_EmptyGraph") {
  Graph g;
  std::string text = dot_of(g.get(), hipGraphDebugDotFlagsVerbose);
  DotParser dot(text);
  dot.parse();
  REQUIRE(dot.nodes.empty());
  REQUIRE(dot.edges.empty());
}

TEST_CASE("Unit_hipGraphDebugDotPrint_Negative_DestroyedGraph") {
  hipGraph_t g = nullptr;
  HIP_CHECK(hipGraphCreate(&g, 0));
  HIP_CHECK(hipGraphDestroy(g));
  HIP_CHECK_ERROR(hipGraphDebugDotPrint(g, "weft_graph_dead.dot", 0), hipErrorInvalidValue);
  std::ifstream in("weft_graph_dead.dot");
  REQUIRE(!in.good());  // nothing was written
}
