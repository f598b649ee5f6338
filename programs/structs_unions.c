/* Structures and unions: members, nested structures, arrays of structures, bit-fields (and the
   value of an assignment to one), structure assignment, passing and returning by value,
   pointers to structures and ->, initializers with designators, static initializers holding
   addresses of strings and of array elements, a union read through the member written. */
#include <stdio.h>
struct pt { int x, y; };
struct rec { char name[8]; struct pt at; unsigned flag : 3; signed small : 4; double w; };
struct pt add(struct pt a, struct pt b) { a.x += b.x; a.y += b.y; return a; }
void move(struct pt *p, int dx) { p->x += dx; p->y -= dx; }
static int part1(void) {
    struct pt a = {1, 2}, b = {.y = 5};
    struct rec r = {"abc", {3, 4}, 5, -3, 1.5};
    struct rec copy;
    move(&a, 10);
    b = add(a, b);
    copy = r;
    copy.flag = 9;
    copy.small = 7;
    r.small = r.small - 1;
    printf("%d %d %d %d %s %d %d %u %d %.1f\n", a.x, a.y, b.x, b.y, r.name, r.at.x, copy.at.y, copy.flag, copy.small, r.w);
    printf("%d %d %d\n", r.small, (int)sizeof r, (copy.small = 15));
    struct pt arr[3] = {{1, 2}, {3, 4}};
    struct pt *p = arr;
    p[2] = p[1];
    p++;
    p->y = 40;
    printf("%d %d %d\n", arr[1].y, arr[2].x, (int)(p - arr));
    return a.x;
}
struct item { const char *name; int qty; unsigned hot : 1; double price; };
struct item stock[] = { { "apple", 3, 1, 0.5 }, { "pear", 7, 0, 0.25 }, [3].name = "fig" };
const char *colors[] = { "red", "green", "blue" };
int table[4] = {1, 2, 3, 4};
int *third = &table[2];
struct { int a; char tag[4]; } single = { 42, "ok" };
static int part2(void) {
    double total = 0;
    for (int i = 0; i < 4; i++) {
        struct item *it = &stock[i];
        printf("%s %d %u %.2f\n", it->name ? it->name : "(none)", it->qty, it->hot, it->price);
        total += it->qty * it->price;
    }
    printf("%s %s %d %d %s %.2f %d\n", colors[1], colors[2] + 1, *third, single.a, single.tag, total, (int)sizeof stock);
    *third = 30;
    return table[2] + (int)(sizeof stock / sizeof stock[0]);
}

union number { int i; double d; };

static double as_double(union number n, int is_int) { return is_int ? n.i : n.d; }

int main(void) {
    union number u;
    u.i = 7;
    double a = as_double(u, 1);
    u.d = 2.5;
    printf("%.1f %.1f %d\n", a, as_double(u, 0), (int)sizeof u);
    return part1() + part2();
}
