/* Runtime error: a function returns a pointer to its local struct; a member is read through it after return. */
#include <stdio.h>

struct config {
    int width, height;
    char title[12];
};

static struct config *defaults(void) {
    struct config c = {640, 480, "window"};
    struct config *p = &c;
    return p;
}

int main(void) {
    printf("loading defaults\n");
    struct config *cfg = defaults();
    int h = cfg->height;
    printf("height %d\n", h);
    return 0;
}
