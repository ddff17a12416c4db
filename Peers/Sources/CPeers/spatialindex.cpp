// libspatialindex's R*-tree through its C API (sidx): each frame a new in-memory index
// bulk-loaded from a stream of the entries (the C API's stream constructor packs with STR),
// a query is Index_Intersects_id with a degenerate box at the point. Double precision.
#ifdef HB_HAS_SPATIALINDEX
#include "peer.hpp"
#include <spatialindex/capi/sidx_api.h>

namespace {
// The stream callback has no user argument: the index being loaded is published here for the
// duration of one load (loads never overlap: one harness thread drives a peer).
thread_local const double *streamBoxes = nullptr;
thread_local int32_t streamCount = 0;
thread_local int32_t streamNext = 0;
thread_local double streamMin[2], streamMax[2];

int next(int64_t *id, double **pMin, double **pMax, uint32_t *dimension, const uint8_t **data, size_t *length) {
  if (streamNext >= streamCount) return 1; // end of stream
  const double *b = streamBoxes + 4 * streamNext;
  streamMin[0] = b[0];
  streamMin[1] = b[1];
  streamMax[0] = b[2];
  streamMax[1] = b[3];
  *id = streamNext++;
  *pMin = streamMin;
  *pMax = streamMax;
  *dimension = 2;
  *data = nullptr;
  *length = 0;
  return 0;
}

struct SpatialIndexPeer final : hb_peer {
  IndexPropertyH properties;
  IndexH index = nullptr;

  SpatialIndexPeer() {
    properties = IndexProperty_Create();
    IndexProperty_SetIndexType(properties, RT_RTree);
    IndexProperty_SetIndexVariant(properties, RT_Star);
    IndexProperty_SetIndexStorage(properties, RT_Memory);
    IndexProperty_SetDimension(properties, 2);
  }

  ~SpatialIndexPeer() override {
    if (index) Index_Destroy(index);
    IndexProperty_Destroy(properties);
  }

  void update(const double *boxes, int32_t count) override {
    if (index) Index_Destroy(index);
    index = nullptr;
    if (count == 0) return; // the stream loader refuses an empty stream
    streamBoxes = boxes;
    streamCount = count;
    streamNext = 0;
    index = Index_CreateWithStream(properties, next);
    streamBoxes = nullptr;
  }

  void query(double x, double y, float) override {
    if (!index) return;
    double p[2] = {x, y};
    int64_t *ids = nullptr;
    uint64_t n = 0;
    if (Index_Intersects_id(index, p, p, 2, &ids, &n) != RT_None) return;
    for (uint64_t k = 0; k < n; k++) found.push_back((int32_t)ids[k]);
    Index_Free(ids);
  }
};
} // namespace

hb_peer *hb_make_spatialindex() { return new SpatialIndexPeer(); }
#endif
