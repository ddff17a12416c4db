// The module's functions are inline, in include/CBoxScan.h.
#include "CBoxScan.h"
