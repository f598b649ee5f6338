//! Structure and union layouts against gcc: random records (scalar, pointer, array, nested
//! record and bit-field members, structs and unions, some members and records with GNU C's
//! `aligned` attribute) are laid out by
//! `lang::ctype::Records` and by gcc, which prints each record's `sizeof`,
//! `__alignof__`, every ordinary member's `offsetof` and every bit-field's bit positions (found
//! by setting the field to all ones in a zeroed object and reading the bytes back). Any
//! difference fails with the C declaration that shows it.

use std::fmt::Write as _;
use std::process::Command;
use std::sync::Arc;

use lang::ctype::{CType, MemberDef, RecordAttrs, RecordId, Records};
use lang::hir::ScalarType;
use lang::span::Span;

/// A small deterministic generator (xorshift64*), so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const SCALARS: &[(ScalarType, &str)] = &[
    (ScalarType::Bool, "_Bool"),
    (ScalarType::Char, "char"),
    (ScalarType::UChar, "unsigned char"),
    (ScalarType::Short, "short"),
    (ScalarType::UShort, "unsigned short"),
    (ScalarType::Int, "int"),
    (ScalarType::UInt, "unsigned int"),
    (ScalarType::Long, "long"),
    (ScalarType::ULong, "unsigned long"),
    (ScalarType::Float, "float"),
    (ScalarType::Double, "double"),
];

/// Integer types a bit-field may have, with their widths.
const BIT_TYPES: &[(ScalarType, &str, u32)] = &[
    (ScalarType::Bool, "_Bool", 1),
    (ScalarType::Char, "signed char", 8),
    (ScalarType::UChar, "unsigned char", 8),
    (ScalarType::Short, "short", 16),
    (ScalarType::UShort, "unsigned short", 16),
    (ScalarType::Int, "int", 32),
    (ScalarType::UInt, "unsigned int", 32),
    (ScalarType::Long, "long", 64),
    (ScalarType::ULong, "unsigned long", 64),
];

/// One generated member: its C declaration and what the layout code is given.
struct GenMember {
    decl: String,
    def: MemberDef,
    /// For a named bit-field: its width and whether its type is signed (to set all ones).
    bit_field: Option<u32>,
}

fn member(rng: &mut Rng, index: usize, earlier: &[(RecordId, String)]) -> GenMember {
    let name = format!("m{index}");
    let def = |ty: CType, width: Option<u32>, name: &str| MemberDef {
        name: name.to_string(),
        ty,
        is_const: false,
        width,
        align: None,
        span: Span::new(0, 0),
    };
    match rng.below(10) {
        0..=3 => {
            let (t, c) = SCALARS[rng.below(SCALARS.len() as u64) as usize];
            GenMember {
                decl: format!("{c} {name};"),
                def: def(CType::Scalar(t), None, &name),
                bit_field: None,
            }
        }
        4..=6 => {
            let (t, c, bits) = BIT_TYPES[rng.below(BIT_TYPES.len() as u64) as usize];
            let zero = rng.below(8) == 0;
            let unnamed = !zero && rng.below(8) == 0;
            let width = if zero {
                0
            } else {
                1 + rng.below(u64::from(bits)) as u32
            };
            let shown = if zero || unnamed { "" } else { name.as_str() };
            GenMember {
                decl: format!("{c} {shown} : {width};"),
                def: def(CType::Scalar(t), Some(width), shown),
                bit_field: (!shown.is_empty()).then_some(width),
            }
        }
        7 => GenMember {
            decl: format!("char *{name};"),
            def: def(
                CType::pointer_to(CType::Scalar(ScalarType::Char), false),
                None,
                &name,
            ),
            bit_field: None,
        },
        8 => {
            let (t, c) = SCALARS[rng.below(SCALARS.len() as u64) as usize];
            let n = 1 + rng.below(5);
            GenMember {
                decl: format!("{c} {name}[{n}];"),
                def: def(
                    CType::Array {
                        elem: Arc::new(CType::Scalar(t)),
                        len: Some(n),
                    },
                    None,
                    &name,
                ),
                bit_field: None,
            }
        }
        _ => match earlier.last() {
            Some((id, c)) if rng.below(2) == 0 => {
                let n = 1 + rng.below(3);
                GenMember {
                    decl: format!("{c} {name}[{n}];"),
                    def: def(
                        CType::Array {
                            elem: Arc::new(CType::Record(*id)),
                            len: Some(n),
                        },
                        None,
                        &name,
                    ),
                    bit_field: None,
                }
            }
            Some((id, c)) => GenMember {
                decl: format!("{c} {name};"),
                def: def(CType::Record(*id), None, &name),
                bit_field: None,
            },
            None => GenMember {
                decl: format!("double {name};"),
                def: def(CType::Scalar(ScalarType::Double), None, &name),
                bit_field: None,
            },
        },
    }
}

/// gcc's output for `source` (compiled and run).
fn run_gcc(source: &str, tag: &str) -> String {
    let dir = std::env::temp_dir().join(format!("layout-gcc-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let c = dir.join("layout.c");
    let exe = dir.join("layout");
    std::fs::write(&c, source).expect("write C");
    let out = Command::new("gcc")
        .args(["-std=c99", "-w", "-O0", "-o"])
        .arg(&exe)
        .arg(&c)
        .output()
        .expect("gcc is required by this test (the reference layout) but could not be run");
    assert!(
        out.status.success(),
        "gcc rejected the generated records:\n{}\n{source}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().expect("run the layout program");
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(run.stdout).expect("ASCII")
}

fn check_seed(seed: u64, records_per_run: usize) {
    let mut rng = Rng(seed | 1);
    let mut records = Records::default();
    let mut earlier: Vec<(RecordId, String)> = Vec::new();
    let mut c = String::from("#include <stdio.h>\n#include <stddef.h>\n#include <string.h>\n");
    let mut main = String::from("int main(void) {\n");
    let mut expected = String::new();
    for r in 0..records_per_run {
        let is_union = rng.below(4) == 0;
        let kw = if is_union { "union" } else { "struct" };
        let tag = format!("r{r}");
        let id = records.declare(is_union, Some(tag.clone()), Span::new(0, 0));
        let count = 1 + rng.below(7) as usize;
        let mut members: Vec<GenMember> =
            (0..count).map(|i| member(&mut rng, i, &earlier)).collect();
        // GNU C's `aligned` on some ordinary members and some records (it never lowers an
        // alignment: `aligned(1)` on an `int` changes nothing).
        for m in &mut members {
            if m.bit_field.is_none() && m.def.width.is_none() && rng.below(6) == 0 {
                let n = 1u64 << rng.below(6);
                let decl = m.decl.trim_end_matches(';');
                m.decl = format!("{decl} __attribute__((aligned({n})));");
                m.def.align = Some(n);
            }
        }
        let attrs = RecordAttrs {
            packed: false,
            align: (rng.below(5) == 0).then(|| 1u64 << rng.below(6)),
        };
        let attribute = attrs
            .align
            .map_or(String::new(), |n| format!(" __attribute__((aligned({n})))"));
        // A record whose only members are unnamed bit-fields has no named member: C requires one.
        if members.iter().all(|m| m.def.name.is_empty()) {
            continue;
        }
        let _ = writeln!(
            c,
            "{kw} {tag} {{ {} }}{attribute};",
            members.iter().map(|m| m.decl.as_str()).collect::<String>()
        );
        records
            .define(id, members.iter().map(|m| m.def.clone()).collect(), attrs)
            .expect("small records fit");
        let rec = records.get(id);
        let _ = writeln!(
            main,
            "    printf(\"{tag} %zu %zu\\n\", sizeof({kw} {tag}), __alignof__({kw} {tag}));"
        );
        let _ = writeln!(expected, "{tag} {} {}", rec.size, rec.align);
        for m in &members {
            let name = &m.def.name;
            if name.is_empty() {
                continue;
            }
            let laid = rec.member(name).expect("named member laid out");
            match m.bit_field {
                None => {
                    let _ = writeln!(
                        main,
                        "    printf(\"{tag}.{name} %zu\\n\", offsetof({kw} {tag}, {name}));"
                    );
                    let _ = writeln!(expected, "{tag}.{name} {}", laid.offset);
                }
                Some(width) => {
                    // Set the field to all ones in a zeroed object; print the set bit numbers'
                    // first and count.
                    let _ = writeln!(
                        main,
                        "    {{ {kw} {tag} v; unsigned char *p = (unsigned char *)&v; memset(&v, 0, sizeof v); v.{name} = -1; \
                         long first = -1, count = 0; for (size_t i = 0; i < sizeof v * 8; i++) if (p[i / 8] >> (i % 8) & 1) {{ if (first < 0) first = (long)i; count++; }} \
                         printf(\"{tag}.{name} bits %ld %ld\\n\", first, count); }}"
                    );
                    let bits = laid.bits.expect("a bit-field");
                    assert_eq!(bits.width, width);
                    let first = laid.offset * 8 + u64::from(bits.bit_offset);
                    let _ = writeln!(expected, "{tag}.{name} bits {first} {width}");
                }
            }
        }
        earlier.push((id, format!("{kw} {tag}")));
    }
    main.push_str("    return 0;\n}\n");
    c.push_str(&main);
    let gcc = run_gcc(&c, &seed.to_string());
    for (ours, theirs) in expected.lines().zip(gcc.lines()) {
        assert_eq!(
            ours, theirs,
            "layout differs from gcc (seed {seed}); the records:\n{c}"
        );
    }
    assert_eq!(expected.lines().count(), gcc.lines().count(), "seed {seed}");
}

#[test]
fn random_records_are_laid_out_as_gcc_does() {
    let seeds: u64 = std::env::var("LAYOUT_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    for seed in 0..seeds {
        check_seed(0x9e37_79b9_7f4a_7c15 ^ (seed * 7919), 60);
    }
}
