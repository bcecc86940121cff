#pragma once
// Builds graph nodes: checks types with each primitive's shape rule (errors name op and script
// location), enforces the memory budget before anything runs, records nodes on active tapes,
// and keeps the current region, location and phase.
#include <functional>
#include <string>
#include <vector>

#include "engine/graph/graph.h"
#include "engine/ops/emitter.h"
#include "engine/tensor/limits.h"

namespace gl {

// A GradientTape listens to node creation through this interface.
class TapeHook {
 public:
  virtual ~TapeHook() = default;
  virtual void onNode(const Node& n) = 0;
  virtual bool recordingStopped() const = 0;
};

class Builder : public Emitter {
 public:
  explicit Builder(Graph& g, size_t memoryBudget = kDefaultMemoryBudget);
  Graph& graph() { return g_; }
  const Graph& graph() const { return g_; }
  const TypeInfo& type(Value v) const override { return g_.type(v); }
  const Node* producer(Value v) const override { return &g_.node(v.node); }
  size_t memoryBudget() const { return budget_; }
  void setMemoryBudget(size_t b) { budget_ = b; }

  void setLoc(SourceLoc l) { loc_ = std::move(l); }
  const SourceLoc& loc() const { return loc_; }
  void setPhase(Phase p) { phase_ = p; }
  Phase phase() const { return phase_; }

  // A primitive node; returns its outputs.
  std::vector<Value> op(const std::string& prim, const std::vector<Value>& inputs,
                        const Attrs& attrs = {}) override;
  using Emitter::op1;

  Value constant(const Tensor& t, const std::string& name = {}) override;
  // A trainable variable: a leaf that tapes watch automatically.
  Value variable(const Tensor& init, const std::string& name = {});
  // A value fed at run time (RunOptions::feeds).
  Value placeholder(DType dt, const Shape& shape, const std::string& name = {});
  // tf.print: prints at run time, in order, into the run's log.
  // A print node: prefix then the values; or, with attrs "format" (text with kPrintSlot where
  // each value goes), "summarize" and "end", tf.print's line.
  void print(const std::vector<Value>& values, const std::string& prefix = {},
             const Attrs& attrs = {});

  // Regions. open makes the new region current; close returns to its parent.
  int openRegion(RegionKind kind);
  Value addParam(const TypeInfo& t, const std::string& name = {});
  void closeRegion(int region, const std::vector<Value>& results);
  int currentRegion() const { return current_; }
  void setCurrentRegion(int r) { current_ = r; }

  // Adds a structural node (control flow, params, constants). Fills region, loc, phase,
  // captures of owned regions, and records it on active tapes.
  Node& addNode(Node n);

  void pushTape(TapeHook* t) { tapes_.push_back(t); }
  void popTape(TapeHook* t);
  const std::vector<TapeHook*>& tapes() const { return tapes_; }

  // A value usable in the current region: forward values of a loop body referenced from its
  // reverse body become reads of what the forward loop saved.
  Value resolve(Value v);

  // Checks that `bytes` fit in the budget; throws an EngineError naming op and location.
  void checkBudget(size_t bytes, const std::string& op) const;
  // The same for a tensor of type t, before a trace-time constant of that type is allocated.
  void checkBudget(const TypeInfo& t, const std::string& op) const;

 private:
  std::vector<Value> captureScan(const Node& n) const;
  // The value standing for forward value `v` inside reverse region `r` (see resolve).
  Value readSaved(int reverseRegion, Value v);

  Graph& g_;
  size_t budget_;
  SourceLoc loc_;
  Phase phase_ = Phase::Forward;
  int current_ = 0;
  std::vector<TapeHook*> tapes_;
};

// RAII: sets builder phase for a scope.
class PhaseScope {
 public:
  PhaseScope(Builder& b, Phase p) : b_(b), old_(b.phase()) { b.setPhase(p); }
  ~PhaseScope() { b_.setPhase(old_); }

 private:
  Builder& b_;
  Phase old_;
};

// RAII: makes region `r` current for a scope (building a region from elsewhere).
class RegionScope {
 public:
  RegionScope(Builder& b, int r) : b_(b), old_(b.currentRegion()) { b.setCurrentRegion(r); }
  ~RegionScope() { b_.setCurrentRegion(old_); }

 private:
  Builder& b_;
  int old_;
};

}  // namespace gl
