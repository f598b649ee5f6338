/* Include guards and #pragma once: each header's text appears once. */
#include "guarded.h"
#include "guarded.h"
#include "once.h"
#include "once.h"
#define HEADER "guarded.h"
#include HEADER
after GUARDED_VALUE
#include "sub/inner.h"
#define MINUS -
-MINUS 1 MINUS-1 +MINUS
