#pragma once
// Keras initializers, by name ('glorot_uniform') or as objects
// (tf.keras.initializers.Constant(2.0)), with Keras's formulas and defaults: what a layer's
// kernel_initializer and bias_initializer make its weights from.
#include <string>

#include "engine/lang/tracer_builtins.h"

namespace gl::lang::trace {

// The initializer argument `param` of a layer constructor: a known name or an initializer
// object. Anything else (a function, an unknown name) fails at the argument.
Val initializerArg(Bound& a, const std::string& param);
// The same for a value given at loc; `what` names it in errors ("add_weight(): argument
// 'initializer'").
Val initializerValue(Context& cx, const Val& v, const SourceLoc& loc, const std::string& what);

// The initial weights of `shape` that `init` (from initializerArg) makes; a seedless random
// initializer draws from the script's seed sequence.
Tensor initialValue(Context& cx, const Val& init, const Shape& shape, DType dt);

void addKerasInitializers(BuiltinTable& t);
// Keras losses, functions and classes (tracer_keras_losses.cpp).
void addKerasLosses(BuiltinTable& t);

}  // namespace gl::lang::trace
