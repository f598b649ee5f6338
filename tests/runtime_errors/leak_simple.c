/* Memory leak at exit (not a trap): a helper mallocs a message buffer and never frees it; the program otherwise finishes normally. */
#include <stdio.h>
#include <stdlib.h>

static void greet(const char *who) {
    char *msg = malloc(32);
    sprintf(msg, "hello, %s", who);
    printf("%s\n", msg);
}

int main(void) {
    greet("leaky world");
    printf("done\n");
    return 3;
}
