/* <stddef.h>: offsetof (GNU C's __builtin_offsetof behind it: members of members, constant
   indices, in constant expressions and _Static_assert) and ptrdiff_t/size_t. The output must be gcc's. */
#include <stdio.h>
#include <stddef.h>
struct inner { char tag; double value; short pair[3]; };
struct outer { int id; struct inner items[4]; char name[10]; union { int i; char c[8]; } u; };
typedef struct outer outer_t;
_Static_assert(offsetof(struct inner, value) == 8, "double members are 8-aligned");
_Static_assert(sizeof(outer_t) > offsetof(outer_t, u), "the union is inside the structure");
int main(void) {
    static const unsigned long table[] = {offsetof(struct inner, value), offsetof(outer_t, items[2].pair[1])};
    char buf[offsetof(struct outer, name)];
    _Static_assert(sizeof buf == 104, "buf spans the items");
    printf("%lu %lu %lu\n", offsetof(struct inner, tag), offsetof(struct inner, value), offsetof(struct inner, pair));
    printf("%lu %lu %lu\n", offsetof(struct outer, items), offsetof(outer_t, items[3].value), offsetof(struct outer, u.c[5]));
    printf("%lu %lu %lu\n", table[0], table[1], (unsigned long)sizeof(buf));
    printf("%lu\n", __builtin_offsetof(struct outer, name[7]));
    {
        ptrdiff_t d = &buf[5] - &buf[1];
        size_t s = sizeof(ptrdiff_t);
        printf("%ld %lu\n", (long)d, (unsigned long)s);
    }
    return 0;
}
