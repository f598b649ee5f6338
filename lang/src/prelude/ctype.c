/* The VM's <ctype.h> functions: the classifiers and case mappings of the C locale (C99 7.4),
   with glibc's results. glibc answers from a table of bit masks, so a classifier returns its
   class's mask when the character is in the class (isdigit('5') is 2048, isupper('A') 256),
   and that is what programs that print the result see; every value of unsigned char and EOF
   is classified, the characters above 127 in no class, as in glibc's C locale. */
#include <ctype.h>

/* glibc's masks on a little-endian machine (<ctype.h>'s _ISbit). */
#define VM_UPPER 256
#define VM_LOWER 512
#define VM_ALPHA 1024
#define VM_DIGIT 2048
#define VM_XDIGIT 4096
#define VM_SPACE 8192
#define VM_PRINT 16384
#define VM_GRAPH 32768
#define VM_BLANK 1
#define VM_CNTRL 2
#define VM_PUNCT 4
#define VM_ALNUM 8

static int vm_ctype_classes(int c) {
    int classes = 0;
    if (c < 0 || c > 127)
        return 0;
    if (c < 32 || c == 127)
        classes |= VM_CNTRL;
    else
        classes |= VM_PRINT;
    if (c > 32 && c < 127)
        classes |= VM_GRAPH;
    if (c == ' ' || (c >= '\t' && c <= '\r'))
        classes |= VM_SPACE;
    if (c == ' ' || c == '\t')
        classes |= VM_BLANK;
    if (c >= 'A' && c <= 'Z')
        classes |= VM_UPPER | VM_ALPHA | VM_ALNUM;
    else if (c >= 'a' && c <= 'z')
        classes |= VM_LOWER | VM_ALPHA | VM_ALNUM;
    else if (c >= '0' && c <= '9')
        classes |= VM_DIGIT | VM_XDIGIT | VM_ALNUM;
    else if (c > 32 && c < 127)
        classes |= VM_PUNCT;
    if ((c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'))
        classes |= VM_XDIGIT;
    return classes;
}

int isalnum(int c) { return vm_ctype_classes(c) & VM_ALNUM; }
int isalpha(int c) { return vm_ctype_classes(c) & VM_ALPHA; }
int isblank(int c) { return vm_ctype_classes(c) & VM_BLANK; }
int iscntrl(int c) { return vm_ctype_classes(c) & VM_CNTRL; }
int isdigit(int c) { return vm_ctype_classes(c) & VM_DIGIT; }
int isgraph(int c) { return vm_ctype_classes(c) & VM_GRAPH; }
int islower(int c) { return vm_ctype_classes(c) & VM_LOWER; }
int isprint(int c) { return vm_ctype_classes(c) & VM_PRINT; }
int ispunct(int c) { return vm_ctype_classes(c) & VM_PUNCT; }
int isspace(int c) { return vm_ctype_classes(c) & VM_SPACE; }
int isupper(int c) { return vm_ctype_classes(c) & VM_UPPER; }
int isxdigit(int c) { return vm_ctype_classes(c) & VM_XDIGIT; }
int tolower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }
int toupper(int c) { return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c; }
