/* #if arithmetic: intmax_t/uintmax_t, unsigned promotion, short circuits,
   character constants, defined, nesting. */
#if -1 < 0u
unsigned_compare_wrong
#else
unsigned_compare_right
#endif
#if (2 || 1/0) && !(0 && 1/0)
short_circuit
#endif
#if 0x7fffffffffffffff + 0 > 0
big
#endif
#if 18446744073709551615u == -1
all_ones
#endif
#if 'a' == 97 && '\377' < 0 && '\n' == 10
chars
#endif
#if (1 ? -1 : 0u) > 0
cond_unsigned
#endif
#if -1 >> 1 == -1 && (-1 >> 63) == -1 && (1u << 63) > 0
shifts
#endif
#if (3, 4) == 4 && ~0 == -1 && -(-2) == 2 && !0 == 1
comma_unary
#endif
#define ZERO 0
#define ONE ZERO + 1
#if ONE && defined ONE && defined(ZERO) && !defined UNDEF && UNDEF == 0
defined_ok
#elif 1
wrong
#else
wrong2
#endif
#ifdef ONE
# ifndef ONE
no
# else
nested_else
# endif
#endif
#if 10 / 3 == 3 && -7 / 2 == -3 && -7 % 2 == -1 && 7u / 2 == 3 && 0x10 == 020
division
#endif
#if 0
#error not reached
#garbage directive in a skipped group
'unterminated in a skipped group
#elif 2 > 1
elif_taken
#elif 1/0
#endif
#if 1 ? 2 : (1/0)
ternary
#endif
#define F(x) (x + 1)
#if F(1) == 2 && F(F(0)) == 2
function_like
#endif
