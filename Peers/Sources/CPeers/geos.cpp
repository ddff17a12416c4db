// GEOS's STRtree through its C API, as GEOS users index envelopes: each frame a new tree
// (an STRtree cannot take inserts after its first query), one rectangle geometry per entry,
// node capacity 10 (the GEOS default); a query is GEOSSTRtree_query_r with a point geometry.
// Double precision: no rounding.
#ifdef HB_HAS_GEOS
#include "peer.hpp"
#include <geos_c.h>

namespace {
void collect(void *item, void *userdata) {
  static_cast<std::vector<int32_t> *>(userdata)->push_back((int32_t)(intptr_t)item);
}

struct GEOSPeer final : hb_peer {
  GEOSContextHandle_t context = GEOS_init_r();
  GEOSSTRtree *tree = nullptr;
  std::vector<GEOSGeometry *> geometries;

  void clear() {
    if (tree) GEOSSTRtree_destroy_r(context, tree);
    tree = nullptr;
    for (GEOSGeometry *g : geometries) GEOSGeom_destroy_r(context, g);
    geometries.clear();
  }

  ~GEOSPeer() override {
    clear();
    GEOS_finish_r(context);
  }

  void update(const double *boxes, int32_t count) override {
    clear();
    tree = GEOSSTRtree_create_r(context, 10);
    geometries.reserve((size_t)count);
    for (int32_t i = 0; i < count; i++) {
      const double *b = boxes + 4 * i;
      GEOSGeometry *g = GEOSGeom_createRectangle_r(context, b[0], b[1], b[2], b[3]);
      if (!g) continue;
      geometries.push_back(g);
      GEOSSTRtree_insert_r(context, tree, g, (void *)(intptr_t)i);
    }
  }

  void query(double x, double y, float) override {
    if (!tree) return;
    GEOSGeometry *p = GEOSGeom_createPointFromXY_r(context, x, y);
    GEOSSTRtree_query_r(context, tree, p, collect, &found);
    GEOSGeom_destroy_r(context, p);
  }
};
} // namespace

hb_peer *hb_make_geos() { return new GEOSPeer(); }
#endif
