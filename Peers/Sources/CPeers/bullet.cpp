// Bullet's btDbvt as btDbvtBroadphase drives it: one leaf per entry; each frame update(leaf,
// volume, velocity, margin) (a leaf still inside its expanded volume is left alone, others
// are reinserted with the margin and twice the velocity, as the broadphase predicts), then
// optimizeIncremental(1); a point query is collideTV over a reused stack. Metres at 32 points
// per metre, single precision (Debian's default build), boxes rounded outward.
#ifdef HB_HAS_BULLET
#include "peer.hpp"
#include <BulletCollision/BroadphaseCollision/btDbvt.h>

namespace {
constexpr double kMetresPerPoint = 1.0 / 32.0;
constexpr btScalar kMargin = btScalar(0.05); // gDbvtMargin
constexpr btScalar kPredictedFrames = btScalar(2);

btDbvtVolume volume(const double *b) {
  return btDbvtVolume::FromMM(
      btVector3(hb_down(b[0] * kMetresPerPoint), hb_down(b[1] * kMetresPerPoint), -1),
      btVector3(hb_up(b[2] * kMetresPerPoint), hb_up(b[3] * kMetresPerPoint), 1));
}

struct Collect : btDbvt::ICollide {
  std::vector<int32_t> *out;
  void Process(const btDbvtNode *leaf) override { out->push_back((int32_t)leaf->dataAsInt); }
};

struct BulletPeer final : hb_peer {
  btDbvt tree;
  std::vector<btDbvtNode *> leaves;
  std::vector<double> previous;
  btAlignedObjectArray<const btDbvtNode *> stack;

  ~BulletPeer() override { tree.clear(); }

  void update(const double *boxes, int32_t count) override {
    while ((int32_t)leaves.size() > count) {
      tree.remove(leaves.back());
      leaves.pop_back();
    }
    previous.resize(4 * (size_t)count);
    for (int32_t i = 0; i < count; i++) {
      const double *b = boxes + 4 * i;
      btDbvtVolume v = volume(b);
      if (i < (int32_t)leaves.size()) {
        double *p = previous.data() + 4 * i;
        btVector3 velocity((btScalar)((b[0] + b[2] - p[0] - p[2]) * 0.5 * kMetresPerPoint) * kPredictedFrames,
                           (btScalar)((b[1] + b[3] - p[1] - p[3]) * 0.5 * kMetresPerPoint) * kPredictedFrames, 0);
        tree.update(leaves[i], v, velocity, kMargin);
      } else {
        btDbvtNode *leaf = tree.insert(v, nullptr);
        leaf->dataAsInt = i;
        leaves.push_back(leaf);
      }
      for (int k = 0; k < 4; k++) previous[4 * i + k] = b[k];
    }
    tree.optimizeIncremental(1);
  }

  void query(double x, double y, float) override {
    if (!tree.m_root) return;
    btDbvtVolume v = btDbvtVolume::FromMM(btVector3(hb_down(x * kMetresPerPoint), hb_down(y * kMetresPerPoint), 0),
                                          btVector3(hb_up(x * kMetresPerPoint), hb_up(y * kMetresPerPoint), 0));
    Collect c;
    c.out = &found;
    tree.collideTVNoStackAlloc(tree.m_root, v, stack, c);
  }
};
} // namespace

hb_peer *hb_make_bullet() { return new BulletPeer(); }
#endif
