#!/usr/bin/env python3
"""Writes errors/NAME.txt for every runtime-error program from the table below.

Line and column numbers are computed from the source text (so edits keep them right), and the
sanitizer reference lines come from running the program built with
gcc -std=c99 -fwrapv -O0 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined.
Usage: python3 tests/runtime_errors/make_error_txt.py
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ERR = HERE

# name: (fault line marker, expression text, offset of the operator in it, kind, object, offset, note)
# {L:text} in object/note becomes the number of the first line containing text.
SPECS = {
    "oob_heap_read": ("s += p[i];", "p[i]", 1,
        "out-of-bounds read of 4 bytes (heap buffer overflow, one past the end)",
        "heap block of 40 bytes allocated at line {L:malloc(10} (malloc in main), reached through parameter p of sum_through",
        "40 (element 10 of a 10-int block; the block ends at 40)", None),
    "oob_heap_negative": ("return p[-1];", "p[-1]", 1,
        "out-of-bounds read of 8 bytes before the start of a heap block (negative index)",
        "heap block of 32 bytes allocated at line {L:malloc(4 * sizeof(long))} (malloc in main), pointer p == v",
        "-8 (8 bytes before the block start)", "the first call previous(v + 2) is in bounds and prints"),
    "oob_array_param_negative": ("return v[-k];", "v[-k]", 1,
        "out-of-bounds read of 8 bytes before the start of a local array, through an array parameter (negative index)",
        "local array 'table' (long[6], 48 bytes) of main, declared at line {L:long table[6]}, passed as table to previous",
        "-8 (element -1 of table)", "the first two calls index backwards inside the array (C allows it) and print"),
    "oob_stack_write": ("*dst++ = c;", "*dst++ = c", 0,
        "out-of-bounds write of 1 byte (stack buffer overflow, one past the end)",
        "local array 'buf' (char[8], 8 bytes) of main, declared at line {L:char buf[8];}, written through dst in fill",
        "8", "the store is the assignment through *dst++; col is the unary '*'"),
    "oob_stack_struct": ("p <= pts + 4; p++) sy += p->y;", "p->y", 1,
        "out-of-bounds read of 4 bytes (stack buffer overflow) via a struct pointer one past the end",
        "local array 'pts' (struct point[4], 32 bytes) of main, declared at line {L:struct point pts[4]}",
        "36 (p == pts + 4, member y at +4)", None),
    "oob_global_write": ("base[idx] = v;", "base[idx]", 4,
        "out-of-bounds write of 4 bytes (global buffer overflow, one past the end)",
        "global array 'counts' (int[5], 20 bytes) defined at line {L:static int counts[5];}, written through parameter base of set",
        "20 (index 5)", "without bounds checks the write may land in 'sentinel_after'"),
    "null_read": ("found 35: %d", "*b", 0,
        "null pointer dereference (read of 4 bytes)",
        "null pointer 'b' (find(35) returned NULL at line {L:int *b = find(35);})",
        "0", None),
    "null_write": ("*rem = a % b;", "*rem", 0,
        "null pointer dereference (write of 4 bytes)",
        "null pointer parameter 'rem' of divide (NULL passed as no_rem from main at line {L:q = divide(9, 2, no_rem);})",
        "0", None),
    "null_member": ("fourth value %d", "p->value", 1,
        "member access through a null struct pointer (read of 4 bytes)",
        "null 'struct node *' p (nth(&a, 3) returned NULL at line {L:struct node *p = nth(&a, 3);}); member 'value'",
        "8 (offset of member 'value'; address 0x8)", None),
    "uaf_read": ("return *p; }", "*p", 0,
        "use after free (read of 1 byte)",
        "heap block of 16 bytes allocated at line {L:malloc(16)} (malloc in main), freed at line {L:free(p);} (release, called from line {L:release(name);})",
        "4 (alias == name + 4)", None),
    "uaf_array_param": ("return s + values[1];", "values[1]", 6,
        "use after free (read of 4 bytes) through an array parameter",
        "heap block of 16 bytes allocated at line {L:malloc(4 * sizeof(int))} (malloc in main), freed at line {L:free(block);} (sum_then_release, through its parameter block, called from line {L:sum_then_release(data, 4, data)})",
        "4 (values[1])", "the loop over values before the free is valid and prints"),
    "uaf_write": ("n->next = next;", "n->next", 1,
        "use after free (write of 8 bytes)",
        "heap block of 16 bytes allocated at line {L:malloc(sizeof *n)} (malloc in push, the node holding 30), freed at line {L:free(p);} (release, called from line {L:release(first);})",
        "8 (member 'next')", None),
    "uaf_realloc": ("return *p; }", "*p", 0,
        "use after free (read of 4 bytes) through a pointer into the block realloc released",
        "heap block of 16 bytes allocated at line {L:malloc(4 * sizeof(int))} (malloc in main), freed by realloc at line {L:realloc(p,} (grow, called from line {L:grow(buf, 4096)})",
        "8 (third == &buf[2])", "realloc always ends the old object's lifetime, even if glibc happens to return the same address"),
    "double_free": ("    free(data);", "free(data)", 0,
        "double free",
        "heap block of 32 bytes allocated at line {L:malloc(8 * sizeof(int))}, first freed at line {L:free(p);} (cleanup, called from line {L:cleanup(data);})",
        "0", None),
    "double_free_alias": ("free(p->second);", "free(p->second)", 0,
        "double free",
        "heap block of 6 bytes allocated at line {L:malloc(6)}, first freed at line {L:free(p->first);} through the aliasing field 'first'",
        "0", None),
    "double_free_realloc": ("static void release(char *p) { free(p); }", "free(p)", 0,
        "double free (the block was already released by realloc)",
        "heap block of 8 bytes allocated at line {L:malloc(8)}, freed by realloc at line {L:return realloc(p, n);} (grow, called from line {L:grow(old, 1024)}); free called from main at line {L:release(old);}",
        "0", None),
    "free_stack": ("static void release(void *p) { free(p); }", "free(p)", 0,
        "free of a non-heap pointer (stack)",
        "local array 'local' (int[4], 16 bytes) of main, declared at line {L:int local[4]}; passed from line {L:release(which);}",
        "0", "the first release(heap) at line {L:release(heap);} is valid"),
    "free_global": ("free(names[1]);", "free(names[1])", 0,
        "free of a non-heap pointer (global)",
        "global array 'fallback' (char[16]) defined at line {L:static char fallback[16]}",
        "0", "names[0] and names[2] are freed correctly before it"),
    "free_interior": ("    free(cursor);", "free(cursor)", 0,
        "free of a pointer that is not the start of a heap block",
        "heap block of 40 bytes allocated at line {L:malloc(5 * sizeof(double))}",
        "16 (cursor == block + 2)", None),
    "dangling_return": ("counter is %d", "*c", 0,
        "use of a dangling pointer to a local of a returned function (read of 4 bytes; stack use after return)",
        "local 'counter' (int, 4 bytes) of make_counter, declared at line {L:int counter = start * 2;}; its lifetime ended when make_counter returned",
        "0", "gcc's ASan needs ASAN_OPTIONS=detect_stack_use_after_return=1 to report this"),
    "dangling_struct": ("int h = cfg->height;", "cfg->height", 3,
        "use of a dangling pointer to a local struct of a returned function (read of 4 bytes; stack use after return)",
        "local 'c' (struct config, 20 bytes) of defaults, declared at line {L:struct config c = }",
        "4 (member 'height')", "gcc's ASan needs ASAN_OPTIONS=detect_stack_use_after_return=1 to report this"),
    "misaligned_int": ("return *(const int *)p;", "*(const int *)p", 0,
        "misaligned access: 4-byte int load from an address that is 1 mod 4 (in bounds)",
        "local array 'words' (int[4], 16 bytes) of main, declared at line {L:int words[4]}, viewed through bytes + 1 (call at line {L:read_int(bytes + 1)})",
        "1", "UBSan (-fsanitize=alignment, part of undefined) reports it; add -fno-sanitize-recover=undefined to make gcc's build stop"),
    "misaligned_double": ("    *slot = 2.5;", "*slot", 0,
        "misaligned access: 8-byte double store to an address that is 3 mod 8 (in bounds)",
        "heap block of 32 bytes allocated at line {L:malloc(32)}",
        "3", "UBSan reports it; add -fno-sanitize-recover=undefined to make gcc's build stop"),
    "misaligned_struct": ("misaligned header kind", "h->kind", 1,
        "misaligned access: member 'kind' (int) read through a struct header pointer at an address that is 2 mod 4 (in bounds)",
        "global array 'packet' (unsigned char[64]) defined at line {L:static unsigned char packet[64];}, viewed as struct header at packet + 2",
        "6 (header at +2, member 'kind' at +4)", "UBSan reports it; add -fno-sanitize-recover=undefined to make gcc's build stop"),
    "wide_read_char2": ("return *(const int *)p;", "*(const int *)p", 0,
        "out-of-bounds read: a 4-byte int read from a 2-byte object (bytes 2..3 are past its end)",
        "local array 'pair' (char[2], 2 bytes) of main, declared at line {L:char pair[2]} (call at line {L:as_int(pair)})",
        "0 (access covers 0..3; first bad byte at 2)", "if a VM places 'pair' at an odd address, misalignment is an acceptable report too; the size overrun is the intended fault"),
    "wide_read_heap": ("as double %f", "*d", 0,
        "out-of-bounds read: an 8-byte double read from a 4-byte heap block (bytes 4..7 are past its end)",
        "heap block of 4 bytes allocated at line {L:malloc(sizeof(float))}",
        "0 (access covers 0..7; first bad byte at 4)", None),
    "wide_read_struct": ("b->extra[1]", "b->extra[1]", 8,
        "out-of-bounds read of 8 bytes: member of a bigger struct read through a view of an 8-byte heap block",
        "heap block of 8 bytes allocated at line {L:malloc(sizeof *s)} (sizeof(struct small))",
        "16 (member extra[1] of struct big)", "reading b->id (offset 0) before it is in bounds and prints"),
    "leak_simple": (None, None, None,
        "memory leak at exit (not a trap): exit status 3 must be kept, then the leak reported",
        "heap block of 32 bytes allocated at line {L:malloc(32)} (malloc in greet), never freed",
        "-", None),
    "leak_list": (None, None, None,
        "memory leak at exit (not a trap): exit status 0 must be kept, then the leak reported",
        "5 heap blocks of 16 bytes (80 bytes) allocated at line {L:malloc(sizeof *n)}, never freed (head dropped at line {L:    head = NULL;})",
        "-", "LeakSanitizer calls one block a direct leak and 4 indirect"),
    "leak_partial": (None, None, None,
        "memory leak at exit (not a trap): exit status 0 must be kept, then the leak reported",
        "heap block of 5 bytes (\"lose\") allocated at line {L:malloc(strlen(s) + 1)} (malloc in copy, called from line {L:char *c = copy(words[i]);} when i == 1), never freed",
        "-", None),
    "scope_loop_local": ("printf(\"best %d, kept %d\\n\", best, **where);", "**where", 0,
        "use after scope: read of 4 bytes through a pointer to a loop body's local after the loop ended (stack-use-after-scope)",
        "local 'sum' (int, 4 bytes) of largest_digit_sum, declared at line {L:int sum = 0;}; its block ended with the loop",
        "0", "inside the loop the pointer is valid: each pass enters the block again and the object is back at the same place"),
    "scope_break_out": ("printf(\"found %c\\n\", found[0]);", "found[0]", 5,
        "use after scope: read of 1 byte through a pointer into a block's array after break left the block (stack-use-after-scope)",
        "local array 'upper' (char[8], 8 bytes) of main, declared at line {L:char upper[8];}; its block left by the break at line {L:            break;}",
        "0", None),
    "strcpy_stack": ("strcpy(dst, src);", "strcpy(dst, src)", 0,
        "strcpy overflow: 14-byte write into an 8-byte stack array",
        "local array 'name' (char[8]) of main, declared at line {L:char name[8];} (set_name called from line {L:set_name(name, inputs[i]);})",
        "8 (first byte past the end; the copy covers 0..13)", "the first copy (\"short\") fits and prints"),
    "strcat_heap": ("strcat(line, words[i]);", "strcat(line, words[i])", 0,
        "strcat overflow: appending \"four \" to a 14-char string in a 16-byte heap block writes bytes 14..19",
        "heap block of 16 bytes allocated at line {L:malloc(16)}",
        "16 (first byte past the end)", "three appends succeed and print first"),
    "strcpy_global": ("strcpy(label, src);", "strcpy(label, src)", 0,
        "strcpy overflow: 13-byte write into a 10-byte global array",
        "global array 'label' (char[10]) defined at line {L:static char label[10];}",
        "10 (first byte past the end; the copy covers 0..12)", None),
}


def line_of(lines, text):
    for i, l in enumerate(lines):
        if text in l:
            return i + 1
    raise SystemExit("marker not found: %r" % text)


def expand(s, lines):
    return re.sub(r"\{L:(.*?)\}", lambda m: str(line_of(lines, m.group(1))), s)


def run(name, tmp):
    src = os.path.join(ERR, name + ".c")
    exe = os.path.join(tmp, name)
    subprocess.run(["gcc", "-std=c99", "-fwrapv", "-O0", "-g", "-fsanitize=address,undefined",
                    "-fno-sanitize-recover=undefined", src, "-o", exe], check=True)
    env = dict(os.environ, ASAN_OPTIONS="detect_stack_use_after_return=1:verify_asan_link_order=0")
    p = subprocess.run(["stdbuf", "-o0", exe], capture_output=True, text=True, env=env)
    return p.stdout, p.stderr, p.returncode


def main():
    names = sorted(n[:-2] for n in os.listdir(ERR) if n.endswith(".c"))
    missing = [n for n in names if n not in SPECS]
    if missing:
        raise SystemExit("no spec for: %s" % ", ".join(missing))
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            marker, expr, opoff, kind, obj, offset, note = SPECS[name]
            lines = open(os.path.join(ERR, name + ".c")).read().split("\n")
            out, err, rc = run(name, tmp)
            txt = ["file: %s.c" % name]
            if marker is None:
                txt.append("fault: none during the run; reported at exit")
            else:
                ln = line_of(lines, marker)
                # The expression inside the marker (it may occur earlier on the line).
                start = lines[ln - 1].index(expr, lines[ln - 1].index(marker))
                if expr[opoff].isalpha():
                    what = "call %s()" % expr.split("(")[0]
                elif expr[opoff:opoff + 2] == "->":
                    what = "operator '->'"
                else:
                    what = "operator '%s'" % expr[opoff]
                txt.append("fault: %d:%d (%s in `%s`, which starts at col %d)"
                           % (ln, start + opoff + 1, what, expr, start + 1))
            txt.append("kind: " + expand(kind, lines))
            txt.append("object: " + expand(obj, lines))
            txt.append("byte offset: " + offset)
            if note:
                txt.append("note: " + expand(note, lines))
            txt.append("stdout before the fault:" if marker else "stdout (the whole run):")
            txt.extend("  " + l for l in out.rstrip("\n").split("\n")) if out else txt.append("  (none)")
            ref = [l.strip() for l in err.split("\n")
                   if re.search(r"ERROR: |runtime error:|SUMMARY:|Direct leak|Indirect leak|is located|"
                                r"^\s*#[01] .*%s\.c" % name, l)]
            ref = [re.sub(r"0x[0-9a-f]+", "0x...", re.sub(r"==\d+==", "", l)).replace(ERR + "/", "") for l in ref]
            txt.append("gcc 12 sanitizer reference (exit %d):" % rc)
            txt.extend("  " + l for l in ref[:8])
            with open(os.path.join(ERR, name + ".txt"), "w") as f:
                f.write("\n".join(txt) + "\n")
            print("%-22s rc=%d %s" % (name, rc, ref[0] if ref else "NO REPORT"))


main()
