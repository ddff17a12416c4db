// Embree 3 as a ray tracer drives a user-geometry BVH: one user primitive per entry whose
// bounds callback reads the entry's box (floats, rounded outward, z from -1 to 1).
// Static form: a dynamic scene recommitted each frame, rebuilt at low quality (Embree's
// builder for animated geometry) or, in the refit form, refit while the primitive count is
// unchanged (rebuilt when it changes).
// Motion form: `steps` boxes per primitive over the geometry's time range [0, 1]; Embree
// builds its motion-blur BVH (linear bounds per time segment) and a point query at time t
// tests the boxes interpolated at t. Queries are rtcPointQuery with radius 0; the callback
// collects the primitives whose leaves the point reaches.
#ifdef HB_HAS_EMBREE
#include "peer.hpp"
#include <embree3/rtcore.h>

namespace {
struct EmbreePeer;

void bounds(const RTCBoundsFunctionArguments *args);
bool collect(RTCPointQueryFunctionArguments *args);

struct EmbreePeer final : hb_peer {
  bool motion;
  bool refit = false;
  RTCDevice device = rtcNewDevice(nullptr);
  RTCScene scene = nullptr;
  RTCGeometry geometry = nullptr;
  std::vector<float> boxes; // min x, min y, max x, max y per primitive and step
  int32_t count = -1;
  int32_t steps = 1;

  EmbreePeer(bool motion, bool refit) : motion(motion), refit(refit) {}

  ~EmbreePeer() override {
    if (scene) rtcReleaseScene(scene);
    if (geometry) rtcReleaseGeometry(geometry);
    rtcReleaseDevice(device);
  }

  void store(const double *b, int32_t n, int32_t s) {
    boxes.resize(4 * (size_t)n * (size_t)s);
    for (size_t k = 0; k < (size_t)n * (size_t)s; k++) {
      boxes[4 * k] = hb_down(b[4 * k]);
      boxes[4 * k + 1] = hb_down(b[4 * k + 1]);
      boxes[4 * k + 2] = hb_up(b[4 * k + 2]);
      boxes[4 * k + 3] = hb_up(b[4 * k + 3]);
    }
  }

  void build(int32_t n, int32_t s) {
    if (scene && n == count && s == steps) {
      rtcCommitGeometry(geometry); // same primitives, new bounds: refit or rebuild
      rtcCommitScene(scene);
      return;
    }
    if (scene) rtcReleaseScene(scene);
    if (geometry) rtcReleaseGeometry(geometry);
    count = n;
    steps = s;
    scene = rtcNewScene(device);
    rtcSetSceneFlags(scene, motion ? RTC_SCENE_FLAG_NONE : RTC_SCENE_FLAG_DYNAMIC);
    rtcSetSceneBuildQuality(scene, motion ? RTC_BUILD_QUALITY_MEDIUM : RTC_BUILD_QUALITY_LOW);
    geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_USER);
    rtcSetGeometryUserPrimitiveCount(geometry, (unsigned)n);
    rtcSetGeometryUserData(geometry, this);
    rtcSetGeometryBoundsFunction(geometry, bounds, this);
    if (motion) {
      rtcSetGeometryTimeStepCount(geometry, (unsigned)s);
      rtcSetGeometryTimeRange(geometry, 0, 1);
    } else {
      rtcSetGeometryBuildQuality(geometry, refit ? RTC_BUILD_QUALITY_REFIT : RTC_BUILD_QUALITY_LOW);
    }
    rtcCommitGeometry(geometry);
    rtcAttachGeometry(scene, geometry);
    rtcCommitScene(scene);
  }

  void update(const double *b, int32_t n) override {
    store(b, n, 1);
    build(n, 1);
  }

  void update_motion(const double *b, int32_t n, int32_t s) override {
    store(b, n, s);
    build(n, s);
  }

  void query(double x, double y, float time) override {
    if (!scene || count == 0) return;
    RTCPointQuery q;
    q.x = (float)x;
    q.y = (float)y;
    q.z = 0;
    q.time = motion ? time : 0;
    q.radius = 0;
    RTCPointQueryContext context;
    rtcInitPointQueryContext(&context);
    rtcPointQuery(scene, &q, &context, collect, this);
  }
};

void bounds(const RTCBoundsFunctionArguments *args) {
  const EmbreePeer *p = static_cast<const EmbreePeer *>(args->geometryUserPtr);
  const float *b = p->boxes.data() + 4 * ((size_t)args->primID * (size_t)p->steps + args->timeStep);
  args->bounds_o->lower_x = b[0];
  args->bounds_o->lower_y = b[1];
  args->bounds_o->lower_z = -1;
  args->bounds_o->upper_x = b[2];
  args->bounds_o->upper_y = b[3];
  args->bounds_o->upper_z = 1;
}

bool collect(RTCPointQueryFunctionArguments *args) {
  static_cast<EmbreePeer *>(args->userPtr)->found.push_back((int32_t)args->primID);
  return false;
}
} // namespace

hb_peer *hb_make_embree(bool motion, bool refit) { return new EmbreePeer(motion, refit); }
#endif
