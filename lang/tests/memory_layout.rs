//! The compiler lays memory out as C does (`lang::bytecode`'s module docs): globals from byte
//! 16 in declaration order at their natural alignment (arrays at multiples of 8), with their
//! C sizes, and initial values as little-endian bytes; local arrays 8-aligned in their frame's
//! area; element accesses typed by width and signedness.

use lang::bytecode::{ArrayRef, Instr, Program, ARRAY_ALIGN, FIRST_GLOBAL};

fn compile(source: &str) -> Program {
    match lang::compile_source("t.c", source) {
        Ok(p) => {
            lang::bytecode::verify::verify(&p).expect("compiled code verifies");
            p
        }
        Err(d) => panic!("does not compile:\n{}", d.render("t.c", source)),
    }
}

/// `(name, address, elements, bytes)` of every global.
fn globals(p: &Program) -> Vec<(&str, u32, u32, u32)> {
    p.globals
        .iter()
        .map(|g| (g.name.as_str(), g.addr.0, g.len, g.size))
        .collect()
}

#[test]
fn globals_have_c_sizes_and_natural_alignment_from_byte_16() {
    let p = compile(
        "char c; int i; _Bool b; short s; double d; float f; char name[3]; long l;\n\
         unsigned char bytes[5]; int m[2][3]; char last;\n\
         int main(void) { return 0; }\n",
    );
    assert_eq!(FIRST_GLOBAL, 16);
    assert_eq!(
        globals(&p),
        [
            ("c", 16, 1, 1),
            ("i", 20, 1, 4),
            ("b", 24, 1, 1),
            ("s", 26, 1, 2),
            ("d", 32, 1, 8),
            ("f", 40, 1, 4),
            // Arrays start at a multiple of 8 whatever their element type.
            ("name", 48, 3, 3),
            ("l", 56, 1, 8),
            ("bytes", 64, 5, 5),
            ("m", 72, 6, 24),
            ("last", 96, 1, 1),
        ]
    );
    assert_eq!(p.globals_end, 104, "the array stack starts 8-aligned");
    assert!(p.memory_init.is_empty(), "no initializer, no initial bytes");
}

#[test]
fn initial_values_are_little_endian_c_representations() {
    let p = compile(
        "char c = -2; int i = 0x01020304; short s = -1; _Bool b = 7; float f = 1.5f;\n\
         double d = -0.0; unsigned char u[3] = {1, 0, 255}; long big[4] = {0, 0, 1};\n\
         int zero[100];\n\
         int main(void) { return 0; }\n",
    );
    let at = |name: &str| {
        let g = p.globals.iter().find(|g| g.name == name).unwrap();
        let start = g.addr.0 as usize;
        let end = (start + g.size as usize).min(p.memory_init.len());
        p.memory_init.get(start..end).unwrap_or_default().to_vec()
    };
    assert_eq!(at("c"), [0xfe]);
    assert_eq!(at("i"), [4, 3, 2, 1]);
    assert_eq!(at("s"), [0xff, 0xff]);
    assert_eq!(at("b"), [1]);
    assert_eq!(at("f"), 1.5f32.to_le_bytes());
    assert_eq!(at("d"), (-0.0f64).to_le_bytes());
    assert_eq!(at("u"), [1, 0, 255]);
    assert_eq!(
        at("big"),
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    );
    // The image ends with the last non-zero element: the rest of `big` and all of `zero` are
    // left out.
    let big = p.globals.iter().find(|g| g.name == "big").unwrap();
    assert_eq!(p.memory_init.len(), big.addr.0 as usize + 24);
    assert!(p.memory_init[..FIRST_GLOBAL as usize]
        .iter()
        .all(|&b| b == 0));
}

#[test]
fn local_arrays_are_8_aligned_in_the_frame_area() {
    let p = compile(
        "int main(void) {\n    char a[3]; short b[5]; double c[2]; char d[1];\n    \
         a[0] = 1; b[0] = 2; c[0] = 3; d[0] = 4;\n    return a[0] + b[0] + (int)c[0] + d[0];\n}\n",
    );
    let main = &p.functions[p.main.index()];
    let bases: Vec<(u32, u32)> = main
        .code
        .iter()
        .filter_map(|i| match *i {
            Instr::LocalArr { k, .. } => {
                let r = ArrayRef::unpack(main.consts[k.index()]);
                Some((r.base, r.dim))
            }
            _ => None,
        })
        .collect();
    assert_eq!(bases, [(0, 3), (8, 5), (24, 2), (40, 1)]);
    assert_eq!(main.array_bytes, 48);
    assert_eq!(main.array_bytes % ARRAY_ALIGN, 0);
}

#[test]
fn element_and_global_accesses_are_typed_by_width_and_signedness() {
    let p = compile(
        "char c[2]; unsigned char uc[2]; _Bool b[2]; short s[2]; unsigned short us[2];\n\
         int i[2]; unsigned u[2]; long l[2]; unsigned long ul[2]; float f[2]; double d[2];\n\
         float gf; unsigned short gus;\n\
         int main(void) {\n    \
         c[1] = c[0]; uc[1] = uc[0]; b[1] = b[0]; s[1] = s[0]; us[1] = us[0]; i[1] = i[0];\n    \
         u[1] = u[0]; l[1] = l[0]; ul[1] = ul[0]; f[1] = f[0]; d[1] = d[0];\n    \
         gf = gf; gus = gus; c[0] = 5; s[0] = 5; i[0] = 5; l[0] = 5; f[0] = 0; d[0] = 0;\n    \
         return 0;\n}\n",
    );
    let main = &p.functions[p.main.index()];
    let names: Vec<&str> = main
        .code
        .iter()
        .filter(|i| i.access_bytes().is_some())
        .map(|i| i.name())
        .collect();
    assert_eq!(
        names,
        [
            "LdE8S", "StE8", "LdE8U", "StE8", "LdE8U", "StE8", "LdE16S", "StE16", "LdE16U",
            "StE16", "LdE32S", "StE32", "LdE32U", "StE32", "LdE64", "StE64", "LdE64", "StE64",
            "LdEF32", "StEF32", "LdE64", "StE64", "GetGF32", "SetGF32", "GetG16U", "SetG16",
            "StEI8", "StEI16", "StEI32", "StEI64", "StEI32", "StEI64",
        ]
    );
}
