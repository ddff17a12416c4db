// The requests are inline functions of the header; SwiftPM needs one source file per C target.
#include "CCallgrind.h"
