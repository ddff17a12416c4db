// Box2D 2.4's b2DynamicTree as a Box2D world drives it: one proxy per entry, created once;
// each frame MoveProxy with the entry's new box and its displacement (the tree reinserts only
// proxies that left their fattened box); Query per point. Box2D works in metres with floats:
// points become metres at 32 points per metre (a common pixels-per-metre ratio; a power of
// two, so exact), boxes rounded outward.
#ifdef HB_HAS_BOX2D
#include "peer.hpp"
#include <box2d/b2_dynamic_tree.h>

namespace {
constexpr double kMetresPerPoint = 1.0 / 32.0;

b2AABB box(const double *b) {
  b2AABB a;
  a.lowerBound.Set(hb_down(b[0] * kMetresPerPoint), hb_down(b[1] * kMetresPerPoint));
  a.upperBound.Set(hb_up(b[2] * kMetresPerPoint), hb_up(b[3] * kMetresPerPoint));
  return a;
}

struct Box2DPeer final : hb_peer {
  b2DynamicTree tree;
  std::vector<int32_t> proxies;
  std::vector<double> previous;

  void update(const double *boxes, int32_t count) override {
    while ((int32_t)proxies.size() > count) {
      tree.DestroyProxy(proxies.back());
      proxies.pop_back();
    }
    previous.resize(4 * (size_t)count);
    for (int32_t i = 0; i < count; i++) {
      const double *b = boxes + 4 * i;
      if (i < (int32_t)proxies.size()) {
        double *p = previous.data() + 4 * i;
        b2Vec2 d((float)((b[0] + b[2] - p[0] - p[2]) * 0.5 * kMetresPerPoint),
                 (float)((b[1] + b[3] - p[1] - p[3]) * 0.5 * kMetresPerPoint));
        tree.MoveProxy(proxies[i], box(b), d);
      } else {
        proxies.push_back(tree.CreateProxy(box(b), (void *)(intptr_t)i));
      }
      for (int k = 0; k < 4; k++) previous[4 * i + k] = b[k];
    }
  }

  bool QueryCallback(int32_t proxy) {
    found.push_back((int32_t)(intptr_t)tree.GetUserData(proxy));
    return true;
  }

  void query(double x, double y, float) override {
    b2AABB a;
    a.lowerBound.Set(hb_down(x * kMetresPerPoint), hb_down(y * kMetresPerPoint));
    a.upperBound.Set(hb_up(x * kMetresPerPoint), hb_up(y * kMetresPerPoint));
    tree.Query(this, a);
  }
};
} // namespace

hb_peer *hb_make_box2d() { return new Box2DPeer(); }
#endif
