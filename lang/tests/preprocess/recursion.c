/* Rescanning and hide sets (C99 6.10.3.4): recursive macros stop. */
#define foo foo
foo
#define a b
#define b a
a b
#define f(x) x g
#define g f
f(1)(2)(3)
#define AA BB
#define BB AA
AA BB
#define lparen (
#define F(x) [x]
F lparen 1)
#define G(x) F x
G((9))
#define NIL(x) x
#define G_0(arg) NIL(G_1)(arg)
#define G_1(arg) NIL(arg)
G_0(42)
#define EMPTY
#define DEFER(id) id EMPTY
#define EXPAND(...) __VA_ARGS__
#define A() 123
DEFER(A)()
EXPAND(DEFER(A)())
#define REC(x) x REC
REC(REC(1))(2)
