/* Arguments: empty ones, parentheses and commas, __VA_ARGS__, stringizing,
   pasting. */
#define F(a, b) [a|b]
F(,)
F( , x)
F((a,b), [c d])
#define V(fmt, ...) f(fmt, __VA_ARGS__)
V(1, 2, 3)
V(1,)
V((1, 2), (3, 4))
#define E() empty
E()
#define ONE(x) <x>
ONE()
#define S(x) #x
S(  a   "b\n"  'c'   )
S()
S("\\" '\'' "\"")
S(  leading and trailing   )
#define P(x, y) x ## y
P(x, 1) P(+, =) P(<<, =) P(., 5) P(1, e) P(-, >) P(a, ) P(, b)
#define NESTED(x) S(x) #x
NESTED(S(1))
#define XS(x) S(x)
XS(F(1, 2))
#define CALL(f, ...) f(__VA_ARGS__)
CALL(F, 1, 2)
CALL(S, a  b)
