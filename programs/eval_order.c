/* Evaluation order where C99 leaves it unspecified (6.5p3, 6.5.2.2p10):
   the output depends on it, so this program is valid C whose exact output
   is gcc -O0's: call arguments (printf's too) are evaluated right to left,
   nested calls as arguments likewise, the index of an assignment before its
   value but the value of a compound assignment before its index, and both
   operands of a binary operator left to right. Short-circuit operators and
   ?: are sequenced and behave the same everywhere. */
#include <stdio.h>

int arr[8];
int counter = 0;

int f(int id) {
    printf("f%d ", id);
    return id;
}

int next(void) { return ++counter; }

int add(int a, int b) { return a * 10 + b; }

int add3(int a, int b, int c) { return a * 100 + b * 10 + c; }

int main(void) {
    printf("| %d %d\n", f(1), f(2));
    printf("| add %d\n", add(f(3), f(4)));
    printf("| add3 %d\n", add3(f(1), add(f(2), f(3)), f(4)));
    arr[f(1)] = f(2);
    printf("| assign arr[1]=%d\n", arr[1]);
    arr[f(3)] += f(4);
    printf("| compound arr[3]=%d\n", arr[3]);
    int s = f(5) + f(6);
    printf("| plus %d\n", s);
    s = f(1) * f(2) - f(3);
    printf("| expr %d\n", s);
    s = f(1) < f(2);
    printf("| compare %d\n", s);
    double d = f(7) / (double)f(6);
    printf("| divide %.3f\n", d);
    s = f(0) && f(1);
    printf("| and %d\n", s);
    s = f(2) || f(3);
    printf("| or %d\n", s);
    s = f(1) ? f(2) : f(3);
    printf("| cond %d\n", s);
    /* side effects on a global through calls in one expression */
    counter = 0;
    s = next() * 10 + next();
    printf("next() * 10 + next() = %d\n", s);
    counter = 0;
    printf("args: %d %d %d\n", next(), next(), next());
    counter = 0;
    s = add(next(), next());
    printf("add(next(), next()) = %d\n", s);
    counter = 0;
    arr[next()] = next();
    printf("arr[next()] = next(): arr[1]=%d arr[2]=%d\n", arr[1], arr[2]);
    return 0;
}
