/* typedef'd structs and pointers, enums (implicit and explicit values) stored in structs, switch over enums, enum-indexed name tables. */
#include <stdio.h>

typedef enum { RED, GREEN = 5, BLUE, ALPHA = -2, NCOLORS = 4 } Color;
typedef enum suit { CLUBS, DIAMONDS, HEARTS, SPADES } Suit;
typedef unsigned char Rank;

typedef struct Card {
    Suit suit;
    Rank rank;
} Card;

typedef struct {
    Card cards[8];
    int n;
} Hand;

typedef Hand *HandPtr;
typedef const char *Str;
typedef int Matrix2[2][2];

enum shape_kind { SQUARE = 1, CIRCLE = 2, TRIANGLE = 4 };

typedef struct Shape {
    enum shape_kind kind;
    Color color;
    double size;
} Shape;

static const Str suit_names[] = {"clubs", "diamonds", "hearts", "spades"};

static Str color_name(Color c) {
    switch (c) {
    case RED: return "red";
    case GREEN: return "green";
    case BLUE: return "blue";
    case ALPHA: return "alpha";
    default: return "?";
    }
}

static double shape_area(const Shape *s) {
    switch (s->kind) {
    case SQUARE: return s->size * s->size;
    case CIRCLE: return 3.0 * s->size * s->size;
    case TRIANGLE: return s->size * s->size / 2.0;
    }
    return 0.0;
}

static void deal(HandPtr h, unsigned *seed) {
    h->n = 0;
    while (h->n < 8) {
        *seed = *seed * 1103515245u + 12345u;
        Card c;
        c.suit = (Suit)((*seed >> 16) % 4);
        c.rank = (Rank)(1 + (*seed >> 8) % 13);
        h->cards[h->n++] = c;
    }
}

static void mat_mul(Matrix2 out, Matrix2 a, Matrix2 b) {
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) out[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j];
}

int main(void) {
    printf("RED=%d GREEN=%d BLUE=%d ALPHA=%d NCOLORS=%d sizeof(Color)=%zu\n", RED, GREEN, BLUE, ALPHA, NCOLORS,
           sizeof(Color));
    Color all[] = {RED, GREEN, BLUE, ALPHA, (Color)3};
    for (int i = 0; i < 5; i++) printf("%d:%s ", all[i], color_name(all[i]));
    printf("\n");

    Hand h;
    unsigned seed = 2024;
    deal(&h, &seed);
    int by_suit[SPADES + 1] = {0};
    int points = 0;
    for (const Card *c = h.cards; c < h.cards + h.n; c++) {
        by_suit[c->suit]++;
        points += c->rank > 10 ? 10 : c->rank;
        printf("%d of %s%s", c->rank, suit_names[c->suit], c + 1 < h.cards + h.n ? ", " : "\n");
    }
    for (Suit s = CLUBS; s <= SPADES; s++) printf("%s=%d ", suit_names[s], by_suit[s]);
    printf("points=%d\n", points);

    Shape shapes[4] = {{SQUARE, RED, 2.0}, {CIRCLE, BLUE, 1.5}, {TRIANGLE, GREEN, 4.0}, {SQUARE, ALPHA, 0.5}};
    double total = 0;
    int mask = 0;
    for (int i = 0; i < 4; i++) {
        total += shape_area(&shapes[i]);
        mask |= shapes[i].kind;
    }
    printf("total area %.3f kinds mask %d\n", total, mask);
    shapes[1].kind = TRIANGLE;
    shapes[1].color = (Color)(shapes[1].color + 1);
    printf("shape1 now %d %s area %.3f\n", shapes[1].kind, color_name(shapes[1].color), shape_area(&shapes[1]));

    Matrix2 a = {{1, 1}, {1, 0}}, r = {{1, 0}, {0, 1}}, t;
    for (int k = 0; k < 10; k++) {
        mat_mul(t, r, a);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) r[i][j] = t[i][j];
    }
    printf("fib via Matrix2: %d %d %d\n", r[0][0], r[0][1], r[1][1]);

    struct Card ace = {SPADES, 1};
    Card same = ace;
    printf("typedef and tag interchangeable: %d %d\n", same.suit, same.rank);
    return by_suit[HEARTS] + by_suit[SPADES];
}
