// TensorList versions (tensor_list.h): every version keeps its entries whatever is written
// after it, writes to the newest version reuse its storage, and long chains of versions are
// released without recursion.
#include "test_main.h"

#include "engine/tensor/tensor_list.h"

using namespace gl;

namespace {

Tensor scalar(double v) { return Tensor::scalar(v, DType::F64); }

std::shared_ptr<TensorList> newList(int64_t size) {
  auto l = std::make_shared<TensorList>();
  l->dtype = DType::F64;
  l->resize(size);
  return l;
}

// The entries of `l` as numbers, NAN for unwritten ones.
std::vector<double> values(const TensorList& l) {
  std::vector<double> out;
  for (const Tensor& t : l.entries()) out.push_back(t.defined() ? t.item() : NAN);
  return out;
}

bool same(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}

}  // namespace

class TestTensorList : public QObject {
  Q_OBJECT
 private slots:
  // v0 -> v1 -> v2 written in a line, then v3 written from the older v1, and v4 past the end.
  void versionsKeepTheirEntries() {
    ListPtr v0 = newList(3);
    ListPtr v1 = v0->withEntry(0, scalar(10));
    ListPtr v2 = v1->withEntry(1, scalar(11));
    ListPtr v3 = v1->withEntry(1, scalar(21));  // v1 was written over: a copy
    ListPtr v4 = v2->withEntry(4, scalar(14));  // grows
    const double u = NAN;
    QVERIFY(same(values(*v0), {u, u, u}));
    QVERIFY(same(values(*v1), {10, u, u}));
    QVERIFY(same(values(*v2), {10, 11, u}));
    QVERIFY(same(values(*v3), {10, 21, u}));
    QVERIFY(same(values(*v4), {10, 11, u, u, 14}));
    QCOMPARE(v2->size(), int64_t(3));
    QCOMPARE(v4->size(), int64_t(5));
    QCOMPARE(v1->entry(0).item(), 10.0);
    QVERIFY(!v1->entry(1).defined());
    QVERIFY(!v2->entry(3).defined());  // out of range for v2, written in no version
    QCOMPARE(v2->entry(1).item(), 11.0);
    QCOMPARE(v3->entry(1).item(), 21.0);
    // Written in a line: one storage. Written from an older version: a storage of its own.
    QVERIFY(v0->sharesStorageWith(*v4));
    QVERIFY(!v3->sharesStorageWith(*v1));
    int written = 0;
    v1->forEachWritten([&](int64_t i, const Tensor& t) {
      QCOMPARE(i, int64_t(0));
      QCOMPARE(t.item(), 10.0);
      ++written;
    });
    QCOMPARE(written, 1);
    QCOMPARE(v4->bytes(), size_t(3 * sizeof(double)));
  }

  // copy() gives an independent list with the same entries.
  void copyIsIndependent() {
    ListPtr v1 = newList(2)->withEntry(1, scalar(5));
    auto c = v1->copy();
    c->set(0, scalar(7));
    QVERIFY(!c->sharesStorageWith(*v1));
    QVERIFY(same(values(*c), {7, 5}));
    QVERIFY(same(values(*v1), {NAN, 5}));
  }

  // Unwritten entries of an adjoint list read as one shared zeros tensor.
  void zeroEntryIsShared() {
    auto l = newList(4);
    const Tensor a = l->zeroEntry({2, 2});
    const Tensor b = l->zeroEntry({2, 2});
    QVERIFY(a.sharesBufferWith(b));
    QCOMPARE(a.shape(), Shape({2, 2}));
    for (int64_t i = 0; i < 4; ++i) QCOMPARE(a.at(i), 0.0);
    QCOMPARE(l->zeroEntry({3}).shape(), Shape({3}));
  }

  // A loop that writes every step builds a chain of versions as long as the loop while its
  // first version is held (a step record holds it); that version still reads its own entries,
  // and releasing it frees the chain without recursing once per version.
  void longChainsOfVersions() {
    const int64_t n = 200000;
    ListPtr first = newList(n)->withEntry(0, scalar(0));
    ListPtr v = first;
    for (int64_t i = 1; i < n; ++i) v = v->withEntry(i, scalar(double(i)));
    QVERIFY(first->sharesStorageWith(*v));
    QCOMPARE(v->entry(n - 1).item(), double(n - 1));
    QCOMPARE(first->entry(0).item(), 0.0);
    QVERIFY(!first->entry(1).defined());
    QCOMPARE(int(first->entries().size()), int(n));
    v.reset();
    first.reset();  // overflows the stack if the chain is released recursively
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestTensorList)
#include "test_tensor_list.moc"
