#pragma once
// Builds graph nodes: checks types with each primitive's shape rule (errors name op and script
// location), enforces the memory budget before anything runs, records nodes on active tapes,
// and keeps the current region, location and phase.
#include <functional>
#include <string>
#include <vector>

#include "engine/graph/graph.h"

namespace gl {

// A GradientTape listens to node creation through this interface.
class TapeHook {
 public:
  virtual ~TapeHook() = default;
  virtual void onNode(const Node& n) = 0;
  virtual bool recordingStopped() const = 0;
};

class Builder {
 public:
  static constexpr size_t kDefaultBudget = size_t(8) << 30;  // 8 GiB

  explicit Builder(Graph& g, size_t memoryBudget = kDefaultBudget);
  Graph& graph() { return g_; }
  const Graph& graph() const { return g_; }
  const TypeInfo& type(Value v) const { return g_.type(v); }
  size_t memoryBudget() const { return budget_; }
  void setMemoryBudget(size_t b) { budget_ = b; }

  void setLoc(SourceLoc l) { loc_ = std::move(l); }
  const SourceLoc& loc() const { return loc_; }
  void setPhase(Phase p) { phase_ = p; }
  Phase phase() const { return phase_; }

  // A primitive node; returns its outputs.
  std::vector<Value> op(const std::string& prim, const std::vector<Value>& inputs,
                        const Attrs& attrs = {});
  Value op1(const std::string& prim, const std::vector<Value>& inputs, const Attrs& attrs = {}) {
    return op(prim, inputs, attrs).at(0);
  }

  Value constant(const Tensor& t, const std::string& name = {});
  Value scalar(double v, DType dt = DType::F32) { return constant(Tensor::scalar(v, dt)); }
  // A trainable variable: a leaf that tapes watch automatically.
  Value variable(const Tensor& init, const std::string& name = {});
  // A value fed at run time (RunOptions::feeds).
  Value placeholder(DType dt, const Shape& shape, const std::string& name = {});
  Value zerosLike(Value v);
  Value onesLike(Value v);
  // tf.print: prints at run time, in order, into the run's log.
  void print(const std::vector<Value>& values, const std::string& prefix = {});

  // Regions. open makes the new region current; close returns to its parent.
  int openRegion(const std::string& kind);
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

 private:
  std::vector<Value> captureScan(const Node& n) const;

  Graph& g_;
  size_t budget_;
  SourceLoc loc_;
  Phase phase_ = Phase::Forward;
  int current_ = 0;
  std::vector<TapeHook*> tapes_;
};

// Defined by autodiff: the value that stands for forward value `v` inside reverse region `r`.
Value savedForReverse(Builder& b, int reverseRegion, Value v);

// RAII: sets builder location/phase for a scope.
class PhaseScope {
 public:
  PhaseScope(Builder& b, Phase p) : b_(b), old_(b.phase()) { b.setPhase(p); }
  ~PhaseScope() { b_.setPhase(old_); }

 private:
  Builder& b_;
  Phase old_;
};

}  // namespace gl
