/* Structs: declaration, initializers (positional, designated, partial zero fill), nested structs, arrays of structs, assignment copies, sizeof and padding. */
#include <stdio.h>
#include <string.h>

struct point {
    int x;
    int y;
};

struct rect {
    struct point lo, hi;
    char label[8];
};

struct padded {
    char c;
    int i;
    char d;
    double x;
    short s;
};

struct employee {
    char name[16];
    int id;
    struct {
        int year, month, day;
    } hired;
    double salary;
};

static struct point origin = {0, 0};
static struct rect global_rects[3] = {
    {{0, 0}, {2, 3}, "small"},
    {.hi = {10, 10}, .label = "big"},
    {.lo = {-5, -5}, .hi = {5, 5}},
};

static int area(const struct rect *r) { return (r->hi.x - r->lo.x) * (r->hi.y - r->lo.y); }

int main(void) {
    printf("sizeof point %zu rect %zu padded %zu employee %zu\n", sizeof(struct point), sizeof(struct rect),
           sizeof(struct padded), sizeof(struct employee));
    struct padded pd = {'a', 1, 'b', 2.0, 3};
    printf("offsets c %ld i %ld d %ld x %ld s %ld\n", (long)((char *)&pd.c - (char *)&pd),
           (long)((char *)&pd.i - (char *)&pd), (long)((char *)&pd.d - (char *)&pd),
           (long)((char *)&pd.x - (char *)&pd), (long)((char *)&pd.s - (char *)&pd));

    for (int i = 0; i < 3; i++) {
        const struct rect *r = &global_rects[i];
        printf("rect %d '%s' (%d,%d)-(%d,%d) area %d\n", i, r->label, r->lo.x, r->lo.y, r->hi.x, r->hi.y,
               area(r));
    }

    struct point a = {3, 4};
    struct point b = a;
    b.x = 30;
    printf("a=(%d,%d) b=(%d,%d) origin=(%d,%d)\n", a.x, a.y, b.x, b.y, origin.x, origin.y);

    struct rect r1 = global_rects[0];
    struct rect r2;
    r2 = r1;
    r2.label[0] = 'S';
    r2.hi = a;
    printf("r1 '%s' hi (%d,%d) | r2 '%s' hi (%d,%d)\n", r1.label, r1.hi.x, r1.hi.y, r2.label, r2.hi.x,
           r2.hi.y);

    struct employee staff[4] = {
        {"Ada", 1, {1843, 7, 1}, 5000.0},
        {"Grace", 2, {1944, 3, 15}, 6200.5},
        {.name = "Linus", .id = 3, .salary = 4100.25},
    };
    strcpy(staff[3].name, "Ken");
    staff[3].id = 4;
    staff[3].hired.year = 1969;
    staff[3].hired.month = 9;
    staff[3].hired.day = 2;
    staff[3].salary = staff[0].salary + staff[1].salary;
    double payroll = 0;
    int oldest = 0;
    for (int i = 0; i < 4; i++) {
        struct employee *e = staff + i;
        payroll += e->salary;
        if (e->hired.year != 0 && (staff[oldest].hired.year == 0 || e->hired.year < staff[oldest].hired.year))
            oldest = i;
        printf("%-6s #%d %04d-%02d-%02d %9.2f\n", e->name, e->id, e->hired.year, e->hired.month, e->hired.day,
               e->salary);
    }
    printf("payroll %.2f oldest %s\n", payroll, staff[oldest].name);

    struct employee copy = staff[1];
    staff[1].name[0] = 'g';
    staff[1].hired.year++;
    printf("copy %s %d, original %s %d\n", copy.name, copy.hired.year, staff[1].name, staff[1].hired.year);

    struct point pts[5];
    for (int i = 0; i < 5; i++) {
        pts[i].x = i;
        pts[i].y = i * i;
    }
    struct point *pp = pts + 4;
    struct point swapped = *pp;
    *pp = pts[0];
    pts[0] = swapped;
    int cs = 0;
    for (struct point *q = pts; q != pts + 5; q++) cs = cs * 10 + q->x + q->y;
    printf("cs=%d pts[0]=(%d,%d) pts[4]=(%d,%d)\n", cs, pts[0].x, pts[0].y, pts[4].x, pts[4].y);
    return area(&global_rects[1]) / 10;
}
