/* Found next to this file, not next to the includer. */
#include "sibling.h"
inner SIBLING
