#pragma once
// What the graph view shows, as plain data: the visible nodes, frames and edges of a gl::Graph
// under the current folding and phase filters. A pure function of its inputs, so it is tested
// without a screen; the layout and the scene items are built from it.
//
// Every control-flow node (while, cond, map) becomes a frame. Unfolded, the frame holds an
// entry node (receives the inputs, feeds the body params), one sub-frame per owned region when
// there are several (cond/body, then/else), and an exit node (collects the region results,
// sends the outputs on). Folded, the whole frame is a single node with an iteration badge.
// Repeated structure (repeat_groups.h) folds the same way: one node "×N" for all instances,
// unfolded into a frame that holds them; so do the calls of a tf.function from eager code.
// The top-level ops a GradientTape recorded sit in a frame of the tape's, every other op
// outside it (nested tapes nest; a tape whose ops interleave with another's gets no frame).
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/graph/graph.h"
#include "ui/graph/repeat_groups.h"

namespace gl::ui {

enum class VisNodeKind { Op, Entry, Exit, Folded };
enum class NodeCategory { Primitive, ControlFlow, Leaf, Param };

struct VisNode {
  std::string key;  // unique layout key: n12, x12 (exit of 12)
  int node = -1;    // the gl::Node it stands for
  std::string op;   // the gl::Node's op name, for display
  gl::NodeKind nodeKind = gl::NodeKind::Primitive;
  VisNodeKind kind = VisNodeKind::Op;
  int frame = -1;  // index into VisibleGraph::frames of the innermost enclosing frame, -1: top
  NodeCategory category = NodeCategory::Primitive;
  bool backward = false;
  std::string title;        // "mul 'y'", "while ×20"
  std::string subtitle;     // "float32[3,4]"
  int64_t iterations = -1;  // folded loops and maps with a known count: the badge
  int group = -1;           // a folded repeat group (kind Folded): its RepeatGroups index
};

struct VisFrame {
  std::string key;     // cluster_f12 / cluster_f12_r3
  int owner = -1;      // the control-flow node
  int region = -1;     // set for region sub-frames, -1 for the frame of the whole node
  int group = -1;      // set for the frame of an unfolded repeat group (owner -1)
  int tape = -1;       // set for the frame of a GradientTape's recorded ops (Graph::tapes index)
  bool calls = false;  // the group frame holds a tf.function's calls (GroupKind::FunctionCalls)
  int parent = -1;     // enclosing frame index, -1: top
  bool backward = false;
  std::string title;  // "while_loop #12 ×20", "body"
  int64_t iterations = -1;
};

struct VisEdge {
  int from = -1, to = -1;     // indices into VisibleGraph::nodes
  std::vector<Value> values;  // the producer values it carries (for gradient norms)
  bool structural = false;    // entry->param or result->exit: drawn dashed
  bool layoutOnly = false;    // entry->region root: keeps the entry on top, never drawn
};

struct GraphFilter {
  bool showForward = true;
  bool showBackward = true;
  std::set<int> folded;               // control-flow node ids shown as one node
  std::map<int, int64_t> iterations;  // loop node id -> iteration count (badges)
  // When set, only these top-level nodes (and everything inside their frames) are shown:
  // one variant of a lesson instead of all of them side by side.
  std::shared_ptr<const std::set<int>> only;
  // With `only`: where the shown block's own nodes begin. A tape that recorded nothing from
  // here on was opened in an earlier block (whose variables this view shares) and gets no frame.
  int firstOwnNode = 0;
  // Repeated structure of the shown nodes; each group is one node unless unfolded.
  std::shared_ptr<const RepeatGroups> repeats;
  std::set<int> unfoldedGroups;
};

struct VisibleGraph {
  std::vector<VisNode> nodes;
  std::vector<VisFrame> frames;
  std::vector<VisEdge> edges;
  std::map<int, int> nodeIndex;   // gl node id -> index of the node that represents it
  int indexOf(int glNode) const;  // -1 when hidden
};

// True for nodes that own regions and are drawn as frames.
bool isFrameOwner(const Node& n);
// Every frame owner of the graph, outermost first.
std::vector<int> frameOwners(const Graph& g);
// Nested frames fold by default on big graphs so that dot stays fast.
std::set<int> defaultFolding(const Graph& g, int maxVisibleNodes = 600);

VisibleGraph buildVisibleGraph(const Graph& g, const GraphFilter& filter);
// A frame (owner) or a repeat group (group) drawn as one folded node.
struct FoldedItem {
  int owner = -1;
  int group = -1;
  auto operator<=>(const FoldedItem&) const = default;
};
struct VisibleCount {
  size_t nodes = 0;                // buildVisibleGraph(g, filter).nodes.size()
  std::vector<FoldedItem> folded;  // the folded nodes among them
};
// What buildVisibleGraph would show, counted in a fraction of its time: a fold is weighed
// before it is made.
VisibleCount countVisible(const Graph& g, const GraphFilter& filter);

// Label pieces, shared with the DOT export.
std::string nodeTitle(const Node& n);
std::string nodeSubtitle(const Node& n);
NodeCategory categoryOf(const Node& n);

}  // namespace gl::ui
