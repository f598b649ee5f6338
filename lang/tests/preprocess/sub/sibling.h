#define SIBLING sibling_value
