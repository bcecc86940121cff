#include "ui/panels/params_panel.h"

#include <QButtonGroup>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>

namespace gl::ui {

namespace {

// Maps a param's range onto slider positions. Small int ranges map one to one; wide ranges
// that start above zero (steps 1..100000, a learning rate 1e-4..1) use a log scale, so the
// slider is as useful near the bottom of the range as near the top.
struct SliderScale {
  double lo = 0, hi = 1;
  bool isInt = false;
  bool direct = false;  // slider position == value
  bool log = false;
  static constexpr int kSteps = 1000;

  SliderScale() = default;
  SliderScale(double lo_, double hi_, bool isInt_) : lo(lo_), hi(hi_), isInt(isInt_) {
    direct = isInt && hi - lo <= kSteps && lo >= INT_MIN && hi <= INT_MAX;
    log = !direct && lo > 0 && hi / lo >= 1000;
  }
  int minimum() const { return direct ? static_cast<int>(lo) : 0; }
  int maximum() const { return direct ? static_cast<int>(hi) : kSteps; }
  int toPosition(double v) const {
    if (direct) return static_cast<int>(std::lround(v));
    if (hi <= lo) return 0;
    const double t = log ? std::log(v / lo) / std::log(hi / lo) : (v - lo) / (hi - lo);
    return static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * kSteps));
  }
  double toValue(int position) const {
    if (direct) return position;
    const double t = double(position) / kSteps;
    const double v = log ? lo * std::pow(hi / lo, t) : lo + t * (hi - lo);
    return std::clamp(isInt ? std::round(v) : v, lo, hi);
  }
};

// Enough decimals to show both the range's resolution and its smallest bound.
int decimalsFor(double lo, double hi) {
  int decimals = static_cast<int>(std::ceil(-std::log10(std::max(hi - lo, 1e-12)))) + 3;
  for (double bound : {lo, hi})
    if (bound != 0)
      decimals = std::max(decimals, static_cast<int>(std::ceil(-std::log10(std::abs(bound)))) + 1);
  return std::clamp(decimals, 2, 8);
}

bool sameDeclarations(const std::vector<gl::lang::Param>& a, const QVector<gl::lang::Param>& b) {
  if (a.size() != static_cast<std::size_t>(b.size())) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto& p = a[i];
    const auto& q = b[static_cast<int>(i)];
    if (p.name != q.name || p.isInt != q.isInt || p.lo != q.lo || p.hi != q.hi) return false;
  }
  return true;
}

}  // namespace

struct ParamsPanel::Row {
  gl::lang::Param param;  // as the script declares it
  QLabel* label = nullptr;
  QSlider* slider = nullptr;
  QSpinBox* intSpin = nullptr;
  QDoubleSpinBox* floatSpin = nullptr;
  SliderScale scale;

  QString name() const { return QString::fromStdString(param.name); }
  double value() const { return intSpin ? intSpin->value() : floatSpin->value(); }
};

ParamsPanel::ParamsPanel(QWidget* parent) : QWidget(parent) {
  auto* content = new QWidget;
  form_ = new QFormLayout(content);
  form_->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);

  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(content);

  emptyNote_ =
      new QLabel(tr("This script declares no params. Add one with "
                    "\"param steps = 100 in 1..1000\" (Insert menu, Param line)."));
  emptyNote_->setWordWrap(true);
  emptyNote_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  emptyNote_->setEnabled(false);

  resetButton_ = new QPushButton(tr("Reset to script values"));
  resetButton_->setToolTip(tr("Forget the values set here and use those written in the script"));
  connect(resetButton_, &QPushButton::clicked, this, &ParamsPanel::resetToScriptValues);

  // Two exclusive buttons rather than one toggle: both names are always visible, and the
  // pressed one says which values are shown.
  presetSwitch_ = new QWidget;
  auto* switchLayout = new QHBoxLayout(presetSwitch_);
  switchLayout->setContentsMargins(0, 0, 0, 0);
  switchLayout->setSpacing(0);
  presetGroup_ = new QButtonGroup(this);
  presetGroup_->setExclusive(true);
  const std::pair<lang::ParamPreset, QString> kPresets[] = {
      {lang::ParamPreset::Classroom, tr("Classroom")}, {lang::ParamPreset::Seed, tr("Seed size")}};
  for (const auto& [preset, label] : kPresets) {
    auto* b = new QToolButton;
    b->setText(label);
    b->setCheckable(true);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    b->setToolTip(preset == lang::ParamPreset::Classroom
                      ? tr("Small sizes for a first look (the script's \"class\" values)")
                      : tr("The sizes of the original question (the script's own values)"));
    presetGroup_->addButton(b, int(preset));
    switchLayout->addWidget(b);
  }
  switchLayout->addStretch(1);
  connect(presetGroup_, &QButtonGroup::idClicked, this,
          [this](int id) { choosePreset(lang::ParamPreset(id)); });

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(presetSwitch_);
  layout->addWidget(emptyNote_);
  layout->addWidget(scroll, 1);
  layout->addWidget(resetButton_, 0, Qt::AlignRight);

  debounce_.setSingleShot(true);
  debounce_.setInterval(300);
  connect(&debounce_, &QTimer::timeout, this, &ParamsPanel::paramsChanged);
  rebuild({});
}

ParamsPanel::~ParamsPanel() = default;

void ParamsPanel::setParams(const QVector<gl::lang::Param>& params) {
  std::vector<gl::lang::Param> current;
  for (const auto& row : rows_) current.push_back(row->param);
  // Same knobs as before (the usual case while typing): update values in place, so a slider
  // the user is dragging or a spin box being typed into keeps its focus.
  if (!sameDeclarations(current, params)) {
    rebuild(params);
  } else {
    for (int i = 0; i < params.size(); ++i) rows_[static_cast<std::size_t>(i)]->param = params[i];
  }
  for (const auto& row : rows_) {
    const auto user = userValues_.constFind(row->name());
    showValue(*row, user != userValues_.cend() ? user.value() : scriptValue(*row));
    updateRowLabel(*row);
  }
  updatePresetSwitch();
}

double ParamsPanel::scriptValue(const Row& row) const {
  const gl::lang::Param& p = row.param;
  return preset_ == lang::ParamPreset::Classroom && p.classroom ? *p.classroom : p.seedValue;
}

void ParamsPanel::updatePresetSwitch() {
  bool anyClassroom = false;
  for (const auto& row : rows_) anyClassroom = anyClassroom || row->param.classroom.has_value();
  presetSwitch_->setVisible(anyClassroom);
  // A value set by hand (a slider, `gradlab --set`) differs from the preset's: then neither
  // button is pressed, since the shown values are neither the classroom's nor the seed's.
  const bool custom = std::any_of(rows_.begin(), rows_.end(), [this](const auto& row) {
    const auto user = userValues_.constFind(row->name());
    return user != userValues_.cend() && user.value() != scriptValue(*row);
  });
  presetGroup_->setExclusive(false);  // an exclusive group cannot uncheck its pressed button
  for (QAbstractButton* b : presetGroup_->buttons())
    b->setChecked(!custom && presetGroup_->id(b) == int(preset_));
  presetGroup_->setExclusive(true);
  presetSwitch_->setToolTip(custom ? tr("Custom values: press a preset to go back to its sizes")
                                   : QString());
}

void ParamsPanel::choosePreset(lang::ParamPreset preset) {
  if (preset == preset_) {  // pressed again while custom: back to the preset's own values
    resetToScriptValues();
    return;
  }
  preset_ = preset;
  debounce_.stop();
  userValues_.clear();
  for (const auto& row : rows_) {
    showValue(*row, scriptValue(*row));
    updateRowLabel(*row);
  }
  updatePresetSwitch();
  emit presetChanged(preset);
}

void ParamsPanel::startOver(lang::ParamPreset preset) {
  debounce_.stop();
  userValues_.clear();
  preset_ = preset;
  rebuild({});
  updatePresetSwitch();
}

void ParamsPanel::setUserValues(const QMap<QString, double>& values) {
  for (auto it = values.begin(); it != values.end(); ++it) userValues_[it.key()] = it.value();
  for (const auto& row : rows_) {
    const auto user = userValues_.constFind(row->name());
    if (user != userValues_.cend()) showValue(*row, user.value());
    updateRowLabel(*row);
  }
  updatePresetSwitch();
}

bool ParamsPanel::commitPendingEdit() {
  if (!debounce_.isActive()) return false;
  debounce_.stop();
  emit paramsChanged();
  return true;
}

QAbstractButton* ParamsPanel::presetButton(lang::ParamPreset preset) const {
  return presetGroup_->button(int(preset));
}

void ParamsPanel::rebuild(const QVector<gl::lang::Param>& params) {
  while (form_->rowCount() > 0) form_->removeRow(0);
  rows_.clear();
  for (const gl::lang::Param& p : params) {
    auto row = std::make_unique<Row>();
    Row* r = row.get();
    r->param = p;
    r->scale = SliderScale(p.lo, p.hi, p.isInt);
    r->label = new QLabel(r->name());
    r->slider = new QSlider(Qt::Horizontal);
    r->slider->setRange(r->scale.minimum(), r->scale.maximum());
    r->slider->setMinimumWidth(80);
    QWidget* spin = nullptr;
    if (p.isInt) {
      r->intSpin = new QSpinBox;
      r->intSpin->setRange(static_cast<int>(std::max<double>(p.lo, INT_MIN)),
                           static_cast<int>(std::min<double>(p.hi, INT_MAX)));
      r->intSpin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
      connect(r->intSpin, &QSpinBox::valueChanged, this, [this, r](int v) {
        const QSignalBlocker block(r->slider);
        r->slider->setValue(r->scale.toPosition(v));
        onUserEdit(*r, v);
      });
      spin = r->intSpin;
    } else {
      r->floatSpin = new QDoubleSpinBox;
      r->floatSpin->setDecimals(decimalsFor(p.lo, p.hi));
      r->floatSpin->setRange(p.lo, p.hi);
      r->floatSpin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
      connect(r->floatSpin, &QDoubleSpinBox::valueChanged, this, [this, r](double v) {
        const QSignalBlocker block(r->slider);
        r->slider->setValue(r->scale.toPosition(v));
        onUserEdit(*r, v);
      });
      spin = r->floatSpin;
    }
    spin->setMinimumWidth(90);
    connect(r->slider, &QSlider::valueChanged, this, [this, r](int position) {
      const double v = r->scale.toValue(position);
      if (r->intSpin) {
        const QSignalBlocker block(r->intSpin);
        r->intSpin->setValue(static_cast<int>(v));
      } else {
        const QSignalBlocker block(r->floatSpin);
        r->floatSpin->setValue(v);
      }
      onUserEdit(*r, r->value());
    });

    auto* field = new QWidget;
    auto* fieldLayout = new QHBoxLayout(field);
    fieldLayout->setContentsMargins(0, 0, 0, 0);
    fieldLayout->addWidget(r->slider, 1);
    fieldLayout->addWidget(spin);
    form_->addRow(r->label, field);
    rows_.push_back(std::move(row));
  }
  emptyNote_->setVisible(params.isEmpty());
  resetButton_->setVisible(!params.isEmpty());
}

void ParamsPanel::showValue(Row& row, double value) {
  value = std::clamp(value, row.param.lo, row.param.hi);
  const QSignalBlocker blockSlider(row.slider);
  row.slider->setValue(row.scale.toPosition(value));
  if (row.intSpin) {
    const QSignalBlocker block(row.intSpin);
    // Bounds beyond int (rare, but a script may say 1..1e12) are cut to the spin box's range.
    const double shown =
        std::clamp(value, double(row.intSpin->minimum()), double(row.intSpin->maximum()));
    row.intSpin->setValue(static_cast<int>(std::lround(shown)));
  } else {
    const QSignalBlocker block(row.floatSpin);
    row.floatSpin->setValue(value);
  }
}

void ParamsPanel::onUserEdit(Row& row, double value) {
  userValues_[row.name()] = value;
  updateRowLabel(row);
  updatePresetSwitch();
  debounce_.start();
}

void ParamsPanel::updateRowLabel(Row& row) {
  // A bold name says "not the value written in the script".
  QFont f = row.label->font();
  f.setBold(row.value() != scriptValue(row));
  row.label->setFont(f);
  QString range = tr("%1 = %2 in %3..%4")
                      .arg(row.name())
                      .arg(row.param.seedValue)
                      .arg(row.param.lo)
                      .arg(row.param.hi);
  if (row.param.classroom) range += tr(" class %1").arg(*row.param.classroom);
  const QString where =
      row.param.loc.known() ? tr(" (line %1)").arg(row.param.loc.line) : QString();
  row.label->setToolTip(tr("In the script: %1%2").arg(range, where));
}

void ParamsPanel::resetToScriptValues() {
  const QMap<QString, double> before = values();
  const bool hadUserValues = !userValues_.isEmpty();
  userValues_.clear();
  for (const auto& row : rows_) {
    showValue(*row, scriptValue(*row));
    updateRowLabel(*row);
  }
  updatePresetSwitch();
  // The trace still carries the user's values as overrides until told: emit even when the
  // shown numbers happen to be equal.
  if (hadUserValues || values() != before) debounce_.start();
}

QMap<QString, double> ParamsPanel::values() const {
  QMap<QString, double> out;
  for (const auto& row : rows_) out[row->name()] = row->value();
  return out;
}

ParamsPanel::Row* ParamsPanel::rowFor(const QString& name) const {
  for (const auto& row : rows_)
    if (row->name() == name) return row.get();
  return nullptr;
}

QSlider* ParamsPanel::sliderFor(const QString& name) const {
  const Row* row = rowFor(name);
  return row ? row->slider : nullptr;
}

QWidget* ParamsPanel::spinBoxFor(const QString& name) const {
  const Row* row = rowFor(name);
  if (!row) return nullptr;
  return row->intSpin ? static_cast<QWidget*>(row->intSpin) : row->floatSpin;
}

}  // namespace gl::ui
