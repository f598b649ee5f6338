//! The language is a strict subset of C99: every program the front end accepts must be
//! accepted by gcc (`-std=c99 -pedantic-errors`). Random programs are made by replacing tokens
//! of valid seed programs with tokens of the same class (an operator by an operator, a type by
//! a type, a name by a name, a constant by a constant), which keeps most of them parseable and
//! explores the type rules: whatever we accept, gcc is asked about.

mod support;

use support::gcc_accepts;

use proptest::prelude::*;

/// Seed programs, one token per space-separated word (string literals have no spaces).
const SEEDS: &[&str] = &[
    "#include <stdio.h>\n#include <math.h>\n\
     int g [ 3 ] = { 1 , 2 , 3 } ; const double k = 2.5 ; char c = 'a' ;\n\
     int f ( int v [ ] , int n ) { int s = 0 ; for ( int i = 0 ; i < n ; i ++ ) s += v [ i ] ; return s ; }\n\
     double h ( double x , long y ) { return x * y + sqrt ( x ) ; }\n\
     int main ( void ) { long l = 5 ; unsigned u = 3u ; double d = h ( k , l ) ; \
     if ( u < l ) u = u << 2 ; else l = l % 3 ; \
     switch ( c ) { case 'a' : l ++ ; break ; default : d /= 2 ; } \
     printf ( \"%d %ld %u %f\\n\" , f ( g , 3 ) , l , u , d ) ; return c - 'a' ; }\n",
    "#include <stdlib.h>\n\
     long m [ 2 ] [ 2 ] = { { 1 , 2 } , { 3 , 4 } } ; unsigned long t = 7ul ;\n\
     void put ( long r [ ] , int i , long x ) { r [ i ] = x ; }\n\
     int main ( void ) { int a = 7 , b = 2 ; char e = 1 ; \
     a = a > b ? a - b : b - a ; b = ! a || b && ~ a ; e += a ; \
     put ( m [ 1 ] , 0 , a ) ; while ( a > 0 ) { a -- ; t ^= a ; } \
     do { b ++ ; } while ( b < 3 ) ; \
     return ( int ) ( m [ 1 ] [ 0 ] + t + labs ( - 4 ) + abs ( b ) ) ; }\n",
    "#include <stdlib.h>\n#include <string.h>\n\
     struct s { int x ; long y [ 2 ] ; struct s * n ; } g ; char * t = \"ab\" ;\n\
     long f ( struct s * p , int * v ) { long k = * v + p -> y [ 1 ] ; return k + ( p -> n != 0 ) ; }\n\
     int main ( void ) { int a = 7 , * b = & a ; struct s e = { 1 , { 2 , 3 } , & g } ; \
     char * c = malloc ( 4 ) ; if ( c == NULL ) return 1 ; strcpy ( c , t ) ; \
     e . x += * b ; g = e ; b = b + 0 ; a = ( int ) ( b - & a ) + ( int ) strlen ( c ) ; \
     free ( c ) ; return ( int ) f ( & e , b ) + e . n -> x + a ; }\n",
];

const OPERATORS: &[&str] = &[
    "+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "|", "^", "&&",
    "||", "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "!", "~", "++", "--",
    ",", "?", ":",
];
const TYPES: &[&str] = &["int", "long", "unsigned", "char", "double", "void", "const"];
const NAMES: &[&str] = &[
    "a", "b", "c", "d", "e", "g", "k", "l", "m", "t", "u", "f", "h", "put", "main", "x", "v", "s",
    "i", "n", "p", "x", "y", "NULL",
];
const CONSTANTS: &[&str] = &[
    "0",
    "1",
    "2",
    "7",
    "-1",
    "3u",
    "5L",
    "7ul",
    "2.5",
    "0.0",
    "'a'",
    "0x7fffffff",
    "2147483648",
];
const STRUCTURE: &[&str] = &[
    "(", ")", "[", "]", "{", "}", ";", "return", "break", "if", "else", "while", ".", "->",
];

fn class_of(word: &str) -> Option<&'static [&'static str]> {
    [OPERATORS, TYPES, NAMES, CONSTANTS, STRUCTURE]
        .into_iter()
        .find(|class| class.contains(&word))
}

fn mutated() -> impl Strategy<Value = String> {
    (
        prop::sample::select(SEEDS),
        prop::collection::vec(
            (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
            1..4,
        ),
    )
        .prop_map(|(seed, edits)| {
            let mut words: Vec<String> = seed.split(' ').map(str::to_string).collect();
            for (at, pick) in edits {
                let i = at.index(words.len());
                if let Some(class) = class_of(words[i].trim()) {
                    words[i] = pick.get(class).to_string();
                }
            }
            words.join(" ")
        })
}

#[test]
fn seeds_are_accepted_by_both() {
    for seed in SEEDS {
        if let Err(d) = lang::check_source("seed.c", seed) {
            panic!("{}", d.render("seed.c", seed));
        }
        gcc_accepts(seed).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn what_we_accept_gcc_accepts(source in mutated()) {
        if lang::check_source("m.c", &source).is_ok() {
            if let Err(e) = gcc_accepts(&source) {
                panic!("accepted by us, rejected by gcc -std=c99 -pedantic-errors:\n{source}\n{e}");
            }
        }
    }
}
