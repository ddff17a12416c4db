// jemalloc's control interface. Debian's build has no symbol prefix, so linking it
// replaces malloc for the whole process and these calls read its counters.
#include <jemalloc/jemalloc.h>
