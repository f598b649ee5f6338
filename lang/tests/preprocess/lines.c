/* Splices, comments, invocations over several lines, __LINE__ and #line,
   the predefined macros. */
#define M(a, b) a + b
M(1,
  2)
M
(3, 4)
/* comment */ M(5, /* inner */ 6) // tail
#define LONG 1 + \
  2
LONG
lo\
ng_identifier
__LINE__
#line 100
__LINE__
#define L __LINE__
L
#line 200 "renamed.c"
__LINE__ __FILE__
__STDC__ __STDC_VERSION__ __STDC_HOSTED__
# /* the null directive */
#
#pragma omp parallel for
#pragma STDC FP_CONTRACT ON
x _Pragma("message") y
