// C interface over the peer libraries: each peer indexes a list of boxes (entries) and
// answers, for a point, the entries whose boxes it overlaps. The harness keeps which frame
// row each entry is and runs the exact test itself.
#ifndef HITBENCH_CPEERS_H
#define HITBENCH_CPEERS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum hb_peer_kind {
  HB_PEER_BOX2D = 0,
  HB_PEER_BULLET = 1,
  HB_PEER_GEOS = 2,
  HB_PEER_SPATIALINDEX = 3,
  HB_PEER_EMBREE = 4,
  HB_PEER_EMBREE_MOTION = 5,
  HB_PEER_EMBREE_REFIT = 6,
};

typedef struct hb_peer hb_peer;

/// Whether the library was found when the package was built (1) or not (0).
int hb_peer_available(int kind);

/// A new empty index, or NULL when the library is not built in.
hb_peer *hb_peer_create(int kind);
void hb_peer_destroy(hb_peer *peer);

/// Replaces the entries: entry i has box (boxes[4i], boxes[4i+1]) - (boxes[4i+2], boxes[4i+3])
/// (min x, min y, max x, max y; finite). Each library updates its index the way its users do
/// (move, refit or rebuild).
void hb_peer_update(hb_peer *peer, const double *boxes, int32_t count);

/// Motion form (HB_PEER_EMBREE_MOTION): entry i has `steps` boxes, box k at
/// boxes[4(i * steps + k) ...], valid from time 0 to 1 and interpolated linearly between steps.
void hb_peer_update_motion(hb_peer *peer, const double *boxes, int32_t count, int32_t steps);

/// The entries whose boxes hold (x, y) (at time `time` in [0, 1] for the motion form): a
/// superset of the exact answer. The list lives in the peer until the next query.
int32_t hb_peer_query(hb_peer *peer, double x, double y, float time, const int32_t **entries);

#ifdef __cplusplus
}
#endif

#endif
