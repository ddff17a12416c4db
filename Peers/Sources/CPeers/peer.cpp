#include "peer.hpp"

extern "C" int hb_peer_available(int kind) {
  switch (kind) {
#ifdef HB_HAS_BOX2D
  case HB_PEER_BOX2D: return 1;
#endif
#ifdef HB_HAS_BULLET
  case HB_PEER_BULLET: return 1;
#endif
#ifdef HB_HAS_GEOS
  case HB_PEER_GEOS: return 1;
#endif
#ifdef HB_HAS_SPATIALINDEX
  case HB_PEER_SPATIALINDEX: return 1;
#endif
#ifdef HB_HAS_EMBREE
  case HB_PEER_EMBREE: return 1;
  case HB_PEER_EMBREE_MOTION: return 1;
  case HB_PEER_EMBREE_REFIT: return 1;
#endif
  default: return 0;
  }
}

extern "C" hb_peer *hb_peer_create(int kind) {
  switch (kind) {
#ifdef HB_HAS_BOX2D
  case HB_PEER_BOX2D: return hb_make_box2d();
#endif
#ifdef HB_HAS_BULLET
  case HB_PEER_BULLET: return hb_make_bullet();
#endif
#ifdef HB_HAS_GEOS
  case HB_PEER_GEOS: return hb_make_geos();
#endif
#ifdef HB_HAS_SPATIALINDEX
  case HB_PEER_SPATIALINDEX: return hb_make_spatialindex();
#endif
#ifdef HB_HAS_EMBREE
  case HB_PEER_EMBREE: return hb_make_embree(false, false);
  case HB_PEER_EMBREE_MOTION: return hb_make_embree(true, false);
  case HB_PEER_EMBREE_REFIT: return hb_make_embree(false, true);
#endif
  default: return nullptr;
  }
}

extern "C" void hb_peer_destroy(hb_peer *peer) { delete peer; }

extern "C" void hb_peer_update(hb_peer *peer, const double *boxes, int32_t count) { peer->update(boxes, count); }

extern "C" void hb_peer_update_motion(hb_peer *peer, const double *boxes, int32_t count, int32_t steps) {
  peer->update_motion(boxes, count, steps);
}

extern "C" int32_t hb_peer_query(hb_peer *peer, double x, double y, float time, const int32_t **entries) {
  peer->found.clear();
  peer->query(x, y, time);
  *entries = peer->found.data();
  return (int32_t)peer->found.size();
}
