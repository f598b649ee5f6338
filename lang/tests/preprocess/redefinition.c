/* Identical redefinitions (whitespace amounts may differ), #undef. */
#define OBJ  1  +  2
#define OBJ 1 + 2
#define FN(a)  a  *  2
#define FN(a) a * 2
OBJ FN(3)
#undef OBJ
#define OBJ different
OBJ
#undef NEVER_DEFINED
