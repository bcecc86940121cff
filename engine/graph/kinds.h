#pragma once
// Typed kinds of graph nodes and regions. A primitive node's behaviour lives in its registry
// entry (ops/); a control-flow node's in its kind's entry (control/). These enums only name
// what a node or region is, so nothing compares strings to find out.
#include <cstdint>
#include <string_view>

namespace gl {

enum class NodeKind : uint8_t {
  Primitive,    // an entry of the primitive registry (Node::prim)
  Const,        // a tensor fixed at trace time
  Variable,     // a trainable leaf that tapes watch automatically
  Placeholder,  // fed at run time
  Param,        // a region's parameter (loop variable, slice, iteration index)
  Print,        // tf.print: a side effect, never pruned
  While,        // tf.while_loop: regions {cond, body}
  Map,          // tf.map_fn: regions {body}
  Cond,         // tf.cond: regions {then, else}
  Scan,         // tf.scan, tf.foldl, tf.foldr: regions {body}
};

enum class RegionKind : uint8_t { Top, WhileCond, WhileBody, Then, Else, MapBody, ScanBody };

constexpr std::string_view kindName(NodeKind k) {
  switch (k) {
    case NodeKind::Primitive:
      return "primitive";
    case NodeKind::Const:
      return "const";
    case NodeKind::Variable:
      return "variable";
    case NodeKind::Placeholder:
      return "placeholder";
    case NodeKind::Param:
      return "param";
    case NodeKind::Print:
      return "print";
    case NodeKind::While:
      return "while";
    case NodeKind::Map:
      return "map";
    case NodeKind::Cond:
      return "cond";
    case NodeKind::Scan:
      return "scan";
  }
  return "?";
}

constexpr std::string_view regionKindName(RegionKind k) {
  switch (k) {
    case RegionKind::Top:
      return "top";
    case RegionKind::WhileCond:
      return "while_cond";
    case RegionKind::WhileBody:
      return "while_body";
    case RegionKind::Then:
      return "then";
    case RegionKind::Else:
      return "else";
    case RegionKind::MapBody:
      return "map_body";
    case RegionKind::ScanBody:
      return "scan_body";
  }
  return "?";
}

// Leaves: nodes whose value is not computed from inputs.
constexpr bool isLeaf(NodeKind k) {
  return k == NodeKind::Const || k == NodeKind::Variable || k == NodeKind::Placeholder ||
         k == NodeKind::Param;
}

// Control-flow nodes: they own regions and run through their kind's entry (control/kind.h).
constexpr bool isControlFlow(NodeKind k) {
  switch (k) {
    case NodeKind::While:
    case NodeKind::Map:
    case NodeKind::Cond:
    case NodeKind::Scan:
      return true;
    case NodeKind::Primitive:
    case NodeKind::Const:
    case NodeKind::Variable:
    case NodeKind::Placeholder:
    case NodeKind::Param:
    case NodeKind::Print:
      return false;
  }
  return false;
}

// Regions run once per iteration of a loop, map or scan: a loop nested in one runs once per
// enclosing iteration (LoopRecord::at counts them). A while's condition is not one of them.
constexpr bool isIterationBody(RegionKind k) {
  switch (k) {
    case RegionKind::WhileBody:
    case RegionKind::MapBody:
    case RegionKind::ScanBody:
      return true;
    case RegionKind::Top:
    case RegionKind::WhileCond:
    case RegionKind::Then:
    case RegionKind::Else:
      return false;
  }
  return false;
}

// Loops and maps keep what their reverse body needs once per iteration (a list indexed by the
// iteration); a cond runs its body once and exposes the value itself. A switch without a
// default: a new kind does not compile until it says which it is.
constexpr bool savesPerIteration(NodeKind k) {
  switch (k) {
    case NodeKind::While:
    case NodeKind::Map:
    case NodeKind::Scan:
      return true;
    case NodeKind::Cond:
    case NodeKind::Primitive:
    case NodeKind::Const:
    case NodeKind::Variable:
    case NodeKind::Placeholder:
    case NodeKind::Param:
    case NodeKind::Print:
      return false;
  }
  return false;
}

// Regions that run once per iteration: a value created there is a new leaf each time.
constexpr bool isLoopBody(RegionKind k) {
  switch (k) {
    case RegionKind::WhileCond:
    case RegionKind::WhileBody:
    case RegionKind::MapBody:
    case RegionKind::ScanBody:
      return true;
    case RegionKind::Top:
    case RegionKind::Then:
    case RegionKind::Else:
      return false;
  }
  return false;
}

}  // namespace gl
