# Twin benchmark: string processing with character loops: text generation with % formatting
# and concatenation, tokenizing, length/compare/search, reversal, rot13, replace, sentences.
import sys

WORDS = 3000
ROUNDS = 80
seed = 99


def rnd(m):
    global seed
    seed = (seed * 1664525 + 1013904223) & 0xffffffff
    return (seed >> 8) % m


SYLLABLES = ["ka", "lo", "mi", "a", "ru", "sa", "ti", "vo", "ba", "de", "o", "gu", "ana", "ja", "pe", "zu"]
IS_SEP = frozenset(" ,.")
IS_VOWEL = frozenset("aeiouAEIOU")


def generate(words):
    parts = []
    for _ in range(words):
        word = ""
        nsyl = 1 + rnd(3)
        for _ in range(nsyl):
            word = word + SYLLABLES[rnd(16)]
        if rnd(8) == 0:
            word = word + "%d" % rnd(100)
        if rnd(5) == 0:
            word = chr(ord(word[0]) - 32) + word[1:]
        parts.append(word)
        r = rnd(12)
        if r == 0:
            sep = ", "
        elif r == 1:
            sep = ". "
        else:
            sep = " "
        parts.append(sep)
    return "".join(parts)


def reverse(s):
    out = []
    for k in range(len(s) - 1, -1, -1):
        out.append(s[k])
    return "".join(out)


class Stats(object):
    pass


def analyze(s):
    st = Stats()
    st.tokens = st.letters = st.vowels = st.digits = st.caps = st.palins = st.hash = 0
    st.first = [0] * 26
    st.longest = st.minw = st.maxw = ""
    i = 0
    n = len(s)
    while i < n:
        while i < n and s[i] in IS_SEP:
            i += 1
        if i >= n:
            break
        j = i
        while j < n and s[j] not in IS_SEP:
            j += 1
        tok = s[i:j]
        i = j
        ln = len(tok)
        st.tokens += 1
        st.letters += ln
        for c in tok:
            if c in IS_VOWEL:
                st.vowels += 1
            if "0" <= c <= "9":
                st.digits += 1
        c0 = tok[0]
        if "A" <= c0 <= "Z":
            st.caps += 1
            st.first[ord(c0) - 65] += 1
        elif "a" <= c0 <= "z":
            st.first[ord(c0) - 97] += 1
        if ln > len(st.longest):
            st.longest = tok
        if st.tokens == 1 or tok < st.minw:
            st.minw = tok
        if st.tokens == 1 or tok > st.maxw:
            st.maxw = tok
        rev = reverse(tok)
        if rev == tok:
            st.palins += 1
        h = st.hash
        for c in rev:
            h = (h * 31 + ord(c)) % 1000003
        st.hash = h
    return st


def replace_ka(s):
    out = []
    n = len(s)
    count = 0
    i = 0
    while i < n:
        if s[i] == "k" and i + 1 < n and s[i + 1] == "a":
            out.append("KA")
            count += 1
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out), count


def rot13(s):
    out = []
    for ch in s:
        c = ord(ch)
        if 97 <= c <= 122:
            c = 97 + (c - 97 + 13) % 26
        elif 65 <= c <= 90:
            c = 65 + (c - 65 + 13) % 26
        out.append(chr(c))
    return "".join(out)


def hash_str(s):
    h = 0
    for ch in s:
        h = (h * 31 + ord(ch)) % 1000003
    return h


def main():
    out = []
    total_len = total_tokens = total_line = 0
    total_a = total_ka = total_sent = mix = 0
    for r in range(ROUNDS):
        text = generate(WORDS)
        ln = len(text)
        st = analyze(text)
        count_a = 0
        q = text.find("a")
        while q >= 0:
            count_a += 1
            q = text.find("a", q + 1)
        sentences = longest_sentence = 0
        start = 0
        dot = text.find(".", start)
        while dot >= 0:
            l = dot - start
            if l > longest_sentence:
                longest_sentence = l
            sentences += 1
            start = dot + 1
            dot = text.find(".", start)
        work, ka = replace_ka(text)
        work = rot13(work)
        h = hash_str(work)
        line = "%d/%d/%s/%s/%s" % (st.tokens, st.vowels, st.minw, st.maxw, st.longest)
        n = len(line)
        total_len += ln
        total_tokens += st.tokens
        total_line += n
        total_a += count_a
        total_ka += ka
        total_sent += sentences
        for k in range(26):
            mix = (mix * 7 + st.first[k]) % 1000003
        if r % 20 == 0:
            out.append("round %d: len %d %s (%d chars)\n" % (r, ln, line, n))
            out.append("  letters %d digits %d caps %d palins %d hash %d a %d ka %d sent %d/%d rot %d\n"
                       % (st.letters, st.digits, st.caps, st.palins, st.hash, count_a, ka, sentences,
                          longest_sentence, h))
    out.append("totals len %d tokens %d line %d a %d ka %d sentences %d mix %d seed %d\n"
               % (total_len, total_tokens, total_line, total_a, total_ka, total_sent, mix, seed))
    sys.stdout.write("".join(out))


main()
