#pragma once
// Text for tensors as the inspector and tooltips show them.
#include <QString>

#include "engine/exec/run.h"

namespace gl::ui {

QString shapeText(const Shape& s);
// "float32[10,5000]  min -1  max 2  mean 0.5  ‖·‖₂ 3.2"
QString recordSummary(const TensorRecord& r);
// Whole tensor when the record holds it (rows of the last axis), else the first elements.
QString recordValues(const TensorRecord& r, int maxRows = 32);

}  // namespace gl::ui
