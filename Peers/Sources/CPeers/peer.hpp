// The shared shape of a peer: a virtual index over entry boxes and a reusable result list.
#pragma once
#include "CPeers.h"
#include <cmath>
#include <cstdint>
#include <vector>

struct hb_peer {
  std::vector<int32_t> found;
  virtual ~hb_peer() {}
  virtual void update(const double *boxes, int32_t count) = 0;
  virtual void update_motion(const double *, int32_t, int32_t) {}
  virtual void query(double x, double y, float time) = 0;
};

// Outward rounding to float: the float box always holds the double box (conservative).
static inline float hb_down(double v) {
  float f = (float)v;
  return (double)f > v ? std::nextafter(f, -INFINITY) : f;
}
static inline float hb_up(double v) {
  float f = (float)v;
  return (double)f < v ? std::nextafter(f, INFINITY) : f;
}

hb_peer *hb_make_box2d();
hb_peer *hb_make_bullet();
hb_peer *hb_make_geos();
hb_peer *hb_make_spatialindex();
hb_peer *hb_make_embree(bool motion, bool refit);
