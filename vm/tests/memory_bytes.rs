//! After a run, memory holds every value in its C representation at C's layout: stores
//! truncate to the element's width, `float` is binary32, `_Bool` one byte 0 or 1, all
//! little-endian (see `lang::bytecode`'s module docs and `vm::byte_memory`).

use lang::bytecode::Program;
use vm::interp::{execute, Exit, Machine};
use vm::probes::NoProbes;

fn compile(source: &str) -> Program {
    let p = lang::compile_source("t.c", source).expect("compiles");
    lang::bytecode::verify::verify(&p).expect("verifies");
    p
}

/// Runs `p` and returns its memory afterwards.
fn run(p: &Program) -> Vec<u8> {
    let mut m = Machine::new(p, 1000);
    let mut out = Vec::new();
    assert_eq!(
        execute(&mut m, &mut NoProbes, &mut out),
        Ok(Exit::Return(0))
    );
    m.memory().to_vec()
}

/// The bytes of global `name` in `mem`.
fn bytes<'m>(p: &Program, mem: &'m [u8], name: &str) -> &'m [u8] {
    let g = p.globals.iter().find(|g| g.name == name).unwrap();
    &mem[g.addr.0 as usize..(g.addr.0 + g.size) as usize]
}

#[test]
fn stores_write_c_representations() {
    let p = compile(
        "char c; unsigned char uc; short s; int i; unsigned u; long l; float f; double d;\n\
         _Bool b; short row[3]; float fs[2]; _Bool bs[2];\n\
         int main(void) {\n    \
         c = -1; uc = 200; s = -300; i = -5; u = 3000000000u; l = 1L << 40; f = 0.1f;\n    \
         d = 0.1; b = 3; row[1] = 70000; row[2] = -1; fs[1] = 2.5f; bs[0] = 0.5;\n    \
         return 0;\n}\n",
    );
    let mem = run(&p);
    assert!(
        mem[..16].iter().all(|&b| b == 0),
        "addresses 0..16 hold nothing"
    );
    assert_eq!(bytes(&p, &mem, "c"), [0xff]);
    assert_eq!(bytes(&p, &mem, "uc"), [200]);
    assert_eq!(bytes(&p, &mem, "s"), (-300i16).to_le_bytes());
    assert_eq!(bytes(&p, &mem, "i"), (-5i32).to_le_bytes());
    assert_eq!(bytes(&p, &mem, "u"), 3_000_000_000u32.to_le_bytes());
    assert_eq!(bytes(&p, &mem, "l"), (1i64 << 40).to_le_bytes());
    assert_eq!(bytes(&p, &mem, "f"), 0.1f32.to_le_bytes());
    assert_eq!(bytes(&p, &mem, "d"), 0.1f64.to_le_bytes());
    assert_eq!(bytes(&p, &mem, "b"), [1]);
    // 70000 converted to short is 4464.
    assert_eq!(bytes(&p, &mem, "row"), [0, 0, 0x70, 0x11, 0xff, 0xff]);
    assert_eq!(bytes(&p, &mem, "fs")[4..], 2.5f32.to_le_bytes());
    assert_eq!(bytes(&p, &mem, "bs"), [1, 0]);
}

#[test]
fn loads_extend_to_the_registers_canonical_forms() {
    // Values read back through every load width print as gcc prints them.
    let p = compile(
        "#include <stdio.h>\n\
         signed char c[1] = {-100}; unsigned char uc[1] = {250}; short s[1] = {-30000};\n\
         unsigned short us[1] = {65000}; int i[1] = {-7}; unsigned u[1] = {4000000000u};\n\
         float f[1] = {0.1f}; float g = 1e-45f;\n\
         int main(void) {\n    \
         printf(\"%d %d %d %d %d %u %.9g %g\\n\", c[0], uc[0], s[0], us[0], i[0], u[0], f[0], g);\n    \
         long sum = c[0] + uc[0] + s[0] + us[0] + i[0];\n    \
         return sum == -100 + 250 - 30000 + 65000 - 7 ? 0 : 1;\n}\n",
    );
    let mut m = Machine::new(&p, 1000);
    let mut out = Vec::new();
    assert_eq!(
        execute(&mut m, &mut NoProbes, &mut out),
        Ok(Exit::Return(0))
    );
    m.flush(&mut out);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "-100 250 -30000 65000 -7 4000000000 0.100000001 1.4013e-45\n"
    );
}
