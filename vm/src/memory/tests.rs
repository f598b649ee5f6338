//! Tests of the checked memory as the interpreter will use it: layout, loads and stores,
//! frames, the heap, every fault's message, and the library functions against
//! straightforward byte-by-byte references (property tests).

use proptest::prelude::*;

use super::fault::{BadFree, DeadKind};
use super::heap::capacity;
use super::*;

fn memory() -> Memory {
    Memory::new(MemoryOptions {
        globals_size: 256,
        stack_size: 64 * 1024,
        max_memory: 64 << 20,
    })
    .unwrap()
}

fn global(m: &mut Memory, name: &str, addr: u32, size: u32) -> u64 {
    let decl = m.declare(Decl {
        kind: DeclKind::Global,
        name: name.to_string(),
    });
    m.add_global(decl, addr, size).unwrap()
}

fn local_decl(m: &mut Memory, function: &str, name: &str) -> DeclId {
    m.declare(Decl {
        kind: DeclKind::Local {
            function: function.to_string(),
        },
        name: name.to_string(),
    })
}

/// Sets the `n` bytes of the block at `p` to `byte`.
fn fill(m: &mut Memory, p: u64, byte: u8, n: u64) {
    let a = address(p) as usize;
    m.store.bytes_mut()[a..a + n as usize].fill(byte);
}

fn message<T: std::fmt::Debug>(result: Result<T, Fault>) -> String {
    result.unwrap_err().to_string()
}

#[test]
fn layout_reserves_null_and_orders_regions() {
    let m = memory();
    let layout = m.layout().clone();
    assert_eq!(layout.globals, 16..272);
    assert_eq!(layout.stack, 272..272 + 64 * 1024);
    assert_eq!(layout.heap_start, layout.stack.end);
    assert_eq!(m.bytes().len(), layout.heap_start as usize);
    let defaults = Memory::new(MemoryOptions::default()).unwrap();
    assert_eq!(
        defaults.layout().stack.end - defaults.layout().stack.start,
        DEFAULT_STACK_SIZE
    );
    assert_eq!(
        message(Memory::new(MemoryOptions {
            globals_size: 100,
            stack_size: 4096,
            max_memory: 1024,
        })),
        "the globals and the frame region need 4224 bytes, more than the memory limit of 1024 bytes"
    );
}

#[test]
fn debug_output_is_a_summary() {
    let mut m = memory();
    m.malloc(100, 1).unwrap();
    let debug = format!("{m:?}");
    assert!(debug.len() < 400, "{debug}");
    assert!(debug.contains("live_objects: 1"), "{debug}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_large_frame_region_costs_no_resident_memory() {
    fn resident_bytes() -> u64 {
        let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
        let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
        pages * 4096
    }
    let before = resident_bytes();
    let m = Memory::new(MemoryOptions {
        globals_size: 0,
        stack_size: 1 << 30,
        max_memory: 2 << 30,
    })
    .unwrap();
    let after = resident_bytes();
    assert_eq!(m.bytes().len(), (1 << 30) + 16);
    assert!(after < before + (256 << 20), "{before} -> {after}");
}

#[test]
fn globals_load_and_store_little_endian() {
    let mut m = memory();
    let a = global(&mut m, "int a[10]", 16, 40);
    let x = global(&mut m, "long x", 56, 8);
    m.global_bytes_mut()[40..48].copy_from_slice(&0x0102_0304_0506_0708u64.to_le_bytes());
    assert_eq!(m.load_u64(x, 0), Ok(0x0102_0304_0506_0708));
    assert_eq!(m.load_u32(x, 0), Ok(0x0506_0708));
    assert_eq!(m.load_u16(x, 6), Ok(0x0102));
    assert_eq!(m.load_u8(x, 7), Ok(0x01));
    m.store_u32(a, 36, 0xdead_beef).unwrap();
    m.store_u16(a, 0, 0xabcd).unwrap();
    m.store_u8(a, 2, 0x7f).unwrap();
    m.store_u64(x, 0, u64::MAX).unwrap();
    assert_eq!(&m.bytes()[52..56], &[0xef, 0xbe, 0xad, 0xde]);
    assert_eq!(&m.bytes()[16..19], &[0xcd, 0xab, 0x7f]);
    assert_eq!(m.load_u32(ptr_add(a, 36), 0), Ok(0xdead_beef));
    assert_eq!(m.check(a, 8, 4, AccessKind::Read), Ok(24));
    assert!(m
        .add_global(DeclId(0), 200, 100)
        .unwrap_err()
        .to_string()
        .starts_with("internal error: global at 200..300 outside the globals region"));
}

#[test]
fn every_access_fault_class() {
    let mut m = memory();
    let a = global(&mut m, "int a[10]", 16, 40);
    assert_eq!(
        message(m.load_u32(a, 40)),
        "out-of-bounds read of 4 bytes at offset 40 of 'int a[10]' (global, 40 bytes)"
    );
    assert_eq!(
        message(m.store_u32(ptr_add(a, -4), 0, 1)),
        "out-of-bounds write of 4 bytes at offset -4 of 'int a[10]' (global, 40 bytes)"
    );
    assert_eq!(
        message(m.load_u32(a, 1)),
        "misaligned read of 4 bytes at offset 1 of 'int a[10]' (global, 40 bytes)"
    );
    assert_eq!(
        message(m.store_u64(0, 0, 1)),
        "null pointer dereference (write of 8 bytes)"
    );
    assert_eq!(
        message(m.load_u32(0, 8)),
        "null pointer dereference (read of 4 bytes at offset 8)"
    );
    assert_eq!(
        message(m.load_u32(24, 0)),
        "read of 4 bytes through invalid pointer 0x18, the address of no object"
    );

    let p = m.malloc(24, 7).unwrap();
    m.free(p, 9).unwrap();
    assert_eq!(
        message(m.load_u64(p, 8)),
        "read of 8 bytes at offset 8 of heap block of 24 bytes allocated at site 7 after it was freed at site 9"
    );
    assert!(matches!(
        m.store_u8(p, 0, 1).unwrap_err().kind(),
        FaultKind::UseAfterFree { freed_at: 9, .. }
    ));

    let x = local_decl(&mut m, "f", "x");
    let mark = m.stack_mark();
    let px = m.push_local(x, 4, 4).unwrap();
    m.store_u32(px, 0, 5).unwrap();
    m.release_stack(mark);
    assert_eq!(
        message(m.load_u32(px, 0)),
        "read of 4 bytes at offset 0 of 'x' (local of function f, 4 bytes) after f returned"
    );
    // Reused twice since: the local is no longer known by name.
    for _ in 0..2 {
        let mark = m.stack_mark();
        m.push_local(x, 4, 4).unwrap();
        m.release_stack(mark);
    }
    assert_eq!(
        message(m.load_u32(px, 0)),
        format!("read of 4 bytes through dangling pointer {px:#x}: its local's function returned")
    );
}

#[test]
fn sites_render_through_the_interpreter() {
    let mut m = memory();
    let p = m.malloc(24, 7).unwrap();
    m.free(p, 9).unwrap();
    let fault = m.free(p, 11).unwrap_err();
    assert_eq!(
        fault.render(&|site| format!("prog.c:{site}:5")),
        "free: double free of heap block of 24 bytes allocated at prog.c:7:5, already freed at prog.c:9:5"
    );
}

#[test]
fn frames_are_zeroed_and_released() {
    let mut m = memory();
    let x = local_decl(&mut m, "f", "int x[4]");
    let outer = m.stack_mark();
    let p = m.push_local(x, 16, 8).unwrap();
    assert_eq!(address(p) % 8, 0);
    m.store_u64(p, 8, u64::MAX).unwrap();
    let raw = m.stack_alloc(3, 1).unwrap();
    assert_eq!(raw, address(p) + 16);
    m.release_stack(outer);
    assert_eq!(m.objects().local_depth(), 0);
    let q = m.push_local(x, 16, 8).unwrap();
    assert_eq!(address(q), address(p));
    assert_ne!(q, p);
    assert_eq!(m.load_u64(q, 8), Ok(0), "a new frame's bytes are zero");
    assert!(m.load_u64(p, 8).is_err());
}

#[test]
fn stack_overflow_is_an_error() {
    let mut m = Memory::new(MemoryOptions {
        globals_size: 0,
        stack_size: 1024,
        max_memory: 1 << 20,
    })
    .unwrap();
    let x = local_decl(&mut m, "r", "char buf[400]");
    m.push_local(x, 400, 1).unwrap();
    m.push_local(x, 400, 1).unwrap();
    assert_eq!(
        message(m.push_local(x, 400, 1)),
        "stack overflow: 400 bytes of locals do not fit in the 1024-byte frame region (see --stack-size)"
    );
}

#[test]
fn malloc_gives_zeroed_aligned_disjoint_blocks() {
    let mut m = memory();
    let p = m.malloc(10, 1).unwrap();
    let q = m.malloc(10, 1).unwrap();
    assert_eq!(address(p) % 16, 0);
    assert!(address(p) >= m.layout().heap_start);
    assert!(address(q) >= address(p) + 16 || address(p) >= address(q) + 16);
    fill(&mut m, p, 0xff, 10);
    m.free(p, 2).unwrap();
    let r = m.malloc(12, 3).unwrap();
    assert_eq!(
        address(r),
        address(p),
        "the freed block's address is reused"
    );
    assert_ne!(r, p, "with another tag");
    assert_eq!(m.load_u64(r, 0), Ok(0), "and zeroed");
    assert_eq!(
        message(m.load_u32(r, 12)),
        "out-of-bounds read of 4 bytes at offset 12 of heap block of 12 bytes allocated at site 3"
    );
    let empty = m.malloc(0, 4).unwrap();
    assert_ne!(empty, 0);
    assert!(m.load_u8(empty, 0).is_err());
    m.free(empty, 5).unwrap();
}

#[test]
fn calloc_checks_overflow() {
    let mut m = memory();
    let p = m.calloc(10, 4, 1).unwrap();
    assert_eq!(m.load_u32(p, 36), Ok(0));
    assert!(m.load_u32(p, 40).is_err());
    assert_eq!(
        message(m.calloc(1 << 32, 1 << 32, 2)),
        "out of memory: calloc of 4294967296 x 4294967296 bytes exceeds the memory limit of 67108864 bytes (48 bytes of heap blocks in use; see --max-memory)"
    );
}

#[test]
fn the_memory_limit_is_an_error_naming_size_and_limit() {
    let mut m = memory();
    assert_eq!(
        message(m.malloc(100 << 20, 3)),
        "out of memory: malloc of 104857600 bytes exceeds the memory limit of 67108864 bytes (0 bytes of heap blocks in use; see --max-memory)"
    );
    assert!(m.malloc(u64::MAX, 3).is_err());
    // Up to the limit: blocks of 1 MiB until the heap is full, then all freed and reused.
    let mut blocks = Vec::new();
    while let Ok(p) = m.malloc(1 << 20, 4) {
        blocks.push(p);
    }
    assert!(blocks.len() >= 60, "{}", blocks.len());
    assert!(m.bytes().len() <= 64 << 20);
    for p in blocks.drain(..) {
        m.free(p, 5).unwrap();
    }
    assert_eq!(m.heap_stats().in_use, 0);
    assert!(m.malloc(32 << 20, 6).is_ok());
}

#[test]
fn free_errors() {
    let mut m = memory();
    let a = global(&mut m, "int a[10]", 16, 40);
    assert_eq!(m.free(0, 1), Ok(()));
    let p = m.malloc(24, 7).unwrap();
    assert_eq!(
        message(m.free(ptr_add(p, 8), 8)),
        "free of a pointer to offset 8 of heap block of 24 bytes allocated at site 7, not to its start"
    );
    assert_eq!(
        message(m.free(a, 8)),
        "free of 'int a[10]' (global, 40 bytes), which is not a heap block"
    );
    assert_eq!(
        message(m.free(0x1234, 8)),
        "free of invalid pointer 0x1234, the address of no object"
    );
    m.free(p, 9).unwrap();
    assert_eq!(
        message(m.free(p, 10)),
        "free: double free of heap block of 24 bytes allocated at site 7, already freed at site 9"
    );
    assert_eq!(
        message(m.realloc(p, 8, 10)),
        "realloc: double free of heap block of 24 bytes allocated at site 7, already freed at site 9"
    );
    let x = local_decl(&mut m, "f", "x");
    let px = m.push_local(x, 4, 4).unwrap();
    assert_eq!(
        message(m.free(px, 8)),
        "free of 'x' (local of function f, 4 bytes), which is not a heap block"
    );
}

#[test]
fn a_dangling_free_after_slot_reuse() {
    let mut m = memory();
    let p = m.malloc(8, 1).unwrap();
    m.free(p, 2).unwrap();
    // Cycle the slot through the quarantine twice: p is two occupants behind.
    let mut reused = 0;
    while reused < 2 {
        let q = m.malloc(8, 3).unwrap();
        if q >> 32 & 0xff_ffff == p >> 32 & 0xff_ffff {
            reused += 1;
        }
        m.free(q, 4).unwrap();
    }
    assert_eq!(
        m.free(p, 5).unwrap_err().kind(),
        &FaultKind::BadFree {
            by: "free",
            reason: BadFree::Dangling(p, DeadKind::Heap)
        }
    );
    assert_eq!(
        message(m.load_u8(p, 0)),
        format!("read of 1 byte through dangling pointer {p:#x}: its heap block was freed")
    );
}

#[test]
fn realloc_moves_or_retags_and_keeps_contents() {
    let mut m = memory();
    assert_eq!(m.realloc(0, 0, 1).map(|p| p != 0), Ok(true));
    let p = m.malloc(20, 1).unwrap();
    fill(&mut m, p, 0xab, 20);
    // Same capacity (32): the same address, a new tag.
    let q = m.realloc(p, 30, 2).unwrap();
    assert_eq!(address(q), address(p));
    assert_ne!(q, p);
    assert!(matches!(
        m.load_u8(p, 0).unwrap_err().kind(),
        FaultKind::UseAfterFree { freed_at: 2, .. }
    ));
    assert_eq!(m.load_u8(q, 19), Ok(0xab));
    assert_eq!(m.load_u8(q, 20), Ok(0), "the new bytes are zero");
    // Shrink within the capacity, then grow again: the dropped bytes come back as zeros.
    let q = m.realloc(q, 18, 3).unwrap();
    let q = m.realloc(q, 32, 4).unwrap();
    assert_eq!(m.load_u8(q, 17), Ok(0xab));
    assert_eq!(m.load_u8(q, 18), Ok(0));
    // Larger: moved.
    let r = m.realloc(q, 1000, 5).unwrap();
    assert_ne!(address(r), address(q));
    assert_eq!(m.load_u8(r, 17), Ok(0xab));
    assert_eq!(m.load_u8(r, 999), Ok(0));
    assert!(m.load_u8(q, 0).is_err());
    // To 0: freed, null returned.
    assert_eq!(m.realloc(r, 0, 6), Ok(0));
    assert!(matches!(
        m.load_u8(r, 0).unwrap_err().kind(),
        FaultKind::UseAfterFree { freed_at: 6, .. }
    ));
    // A failed realloc leaves the block alone.
    let s = m.malloc(8, 7).unwrap();
    assert!(m.realloc(s, 1 << 40, 8).is_err());
    assert_eq!(m.load_u64(s, 0), Ok(0));
}

#[test]
fn leaks_by_site() {
    let mut m = memory();
    assert_eq!(m.leaks(), LeakReport::default());
    assert_eq!(m.leaks().to_string(), "");
    let a = m.malloc(10, 3).unwrap();
    m.malloc(20, 3).unwrap();
    m.malloc(100, 5).unwrap();
    m.malloc(1, 4).unwrap();
    m.free(a, 6).unwrap();
    let leaks = m.leaks();
    assert_eq!((leaks.blocks, leaks.bytes), (3, 121));
    assert_eq!(
        leaks.to_string(),
        "3 heap blocks (121 bytes) never freed:\n  1 block (100 bytes) allocated at site 5\n  1 block (20 bytes) allocated at site 3\n  1 block (1 byte) allocated at site 4"
    );
}

#[test]
fn ptr_add_keeps_the_tag_and_saturates() {
    let p = 0x0305_0000_0000_1000u64;
    assert_eq!(ptr_add(p, 16), 0x0305_0000_0000_1010);
    assert_eq!(ptr_add(p, -0x1000), 0x0305_0000_0000_0000);
    assert_eq!(ptr_add(p, -0x1001), 0x0305_0000_0000_0000);
    assert_eq!(ptr_add(p, 1 << 40), 0x0305_0000_ffff_ffff);
    assert_eq!(ptr_add(p, i64::MIN), 0x0305_0000_0000_0000);
    let mut m = memory();
    let a = global(&mut m, "int a[10]", 16, 40);
    assert!(m.load_u8(ptr_add(a, 1 << 33), 0).is_err());
    assert!(m.load_u8(ptr_add(a, -(1 << 33)), 0).is_err());
}

#[test]
fn a_stale_heap_pointer_is_caught_until_its_slot_wraps() {
    let mut m = memory();
    let stale = m.malloc(8, 1).unwrap();
    m.free(stale, 2).unwrap();
    let mut cycles = 0u64;
    loop {
        let p = m.malloc(8, 3).unwrap();
        cycles += 1;
        if p == stale {
            break;
        }
        assert!(m.load_u8(stale, 0).is_err());
        m.free(p, 4).unwrap();
    }
    // The slot came back 255 times with other generations first, once per
    // QUARANTINE_SLOTS + 1 frees.
    assert_eq!(cycles, 256 * (objects::QUARANTINE_SLOTS as u64 + 1));
    assert_eq!(m.load_u8(stale, 0), Ok(0), "the documented blind spot");
}

// ---- allocator stress ---------------------------------------------------------------------

#[derive(Clone, Debug)]
enum HeapOp {
    Malloc(u64),
    Calloc(u64, u64),
    Free(usize),
    Realloc(usize, u64),
}

fn size() -> impl Strategy<Value = u64> {
    prop_oneof![0..64u64, 0..600u64, 0..5000u64]
}

fn heap_op() -> impl Strategy<Value = HeapOp> {
    prop_oneof![
        3 => size().prop_map(HeapOp::Malloc),
        1 => (0..20u64, 0..100u64).prop_map(|(n, s)| HeapOp::Calloc(n, s)),
        3 => any::<usize>().prop_map(HeapOp::Free),
        2 => (any::<usize>(), size()).prop_map(|(i, s)| HeapOp::Realloc(i, s)),
    ]
}

/// Live blocks do not overlap (capacities included), the heap's invariants hold, and every
/// block holds what the model says.
fn check_heap(m: &Memory, live: &[(u64, Vec<u8>)]) {
    let mut ranges: Vec<(u32, u32)> = live
        .iter()
        .map(|(p, contents)| {
            let cap = capacity(contents.len() as u64).unwrap();
            (address(*p), address(*p) + cap)
        })
        .collect();
    ranges.sort_unstable();
    for pair in ranges.windows(2) {
        assert!(pair[0].1 <= pair[1].0, "blocks overlap: {pair:?}");
    }
    assert!(ranges.iter().all(|&(start, end)| {
        start >= m.layout().heap_start && end as usize <= m.bytes().len()
    }));
    m.heap.check_invariants();
    for (p, contents) in live {
        let a = address(*p) as usize;
        assert_eq!(&m.bytes()[a..a + contents.len()], &contents[..]);
    }
    assert_eq!(m.leaks().blocks, live.len() as u64);
    assert_eq!(m.objects().live_objects() as usize, live.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn allocator_stress(ops in prop::collection::vec(heap_op(), 1..200)) {
        let mut m = memory();
        let mut live: Vec<(u64, Vec<u8>)> = Vec::new();
        for (n, op) in ops.into_iter().enumerate() {
            let site = n as u32;
            let byte = n as u8 | 1;
            match op {
                HeapOp::Malloc(size) | HeapOp::Calloc(1, size) => {
                    let p = m.malloc(size, site).unwrap();
                    fill(&mut m, p, byte, size);
                    live.push((p, vec![byte; size as usize]));
                }
                HeapOp::Calloc(count, size) => {
                    let p = m.calloc(count, size, site).unwrap();
                    live.push((p, vec![0; (count * size) as usize]));
                }
                HeapOp::Free(i) if !live.is_empty() => {
                    let (p, _) = live.swap_remove(i % live.len());
                    m.free(p, site).unwrap();
                    let fault = m.load_u8(p, 0).unwrap_err();
                    let freed_here = matches!(
                        fault.kind(),
                        FaultKind::UseAfterFree { freed_at, .. } if *freed_at == site
                    );
                    prop_assert!(freed_here);
                }
                HeapOp::Realloc(i, size) if !live.is_empty() => {
                    let i = i % live.len();
                    let (p, mut contents) = live.swap_remove(i);
                    let q = m.realloc(p, size, site).unwrap();
                    prop_assert!(m.load_u8(p, 0).is_err());
                    if size == 0 {
                        prop_assert_eq!(q, 0);
                    } else {
                        contents.resize(size as usize, 0);
                        live.push((q, contents));
                    }
                }
                HeapOp::Free(_) | HeapOp::Realloc(..) => {}
            }
            check_heap(&m, &live);
        }
        for (p, _) in live.drain(..) {
            m.free(p, 0).unwrap();
        }
        check_heap(&m, &live);
        prop_assert_eq!(m.heap_stats().in_use, 0);
    }
}

// ---- string functions ---------------------------------------------------------------------

#[test]
fn string_functions_examples() {
    let mut m = memory();
    let s = global(&mut m, "char s[8]", 16, 8);
    let t = global(&mut m, "char t[4]", 24, 4);
    m.global_bytes_mut()[..8].copy_from_slice(b"hello\0xy");
    assert_eq!(m.strlen(s), Ok(5));
    assert_eq!(m.read_c_string(s, "printf"), Ok(&b"hello"[..]));
    assert_eq!(m.read_c_string_max(s, 3, "printf"), Ok(&b"hel"[..]));
    assert_eq!(m.strchr(s, b'l' as i32), Ok(ptr_add(s, 2)));
    assert_eq!(m.strchr(s, 0), Ok(ptr_add(s, 5)));
    assert_eq!(m.strchr(s, b'x' as i32), Ok(0));
    assert_eq!(
        message(m.strcpy(t, s)),
        "strcpy: out-of-bounds write at offset 4 of 'char t[4]' (global, 4 bytes) while writing 6 bytes from offset 0"
    );
    assert_eq!(m.strncpy(t, s, 4), Ok(t));
    assert_eq!(&m.bytes()[24..28], b"hell");
    assert_eq!(
        message(m.strlen(t)),
        "strlen: out-of-bounds read at offset 4 of 'char t[4]' (global, 4 bytes): the string at offset 0 has no terminating null byte within it"
    );
    assert_eq!(
        message(m.read_c_string(t, "printf")),
        "printf: out-of-bounds read at offset 4 of 'char t[4]' (global, 4 bytes): the string at offset 0 has no terminating null byte within it"
    );
    assert_eq!(m.read_c_string_max(t, 4, "printf"), Ok(&b"hell"[..]));
    assert_eq!(m.strncmp(s, t, 4), Ok(0));
    assert_eq!(m.strcmp(s, ptr_add(s, 1)), Ok(b'h' as i32 - b'e' as i32));
    assert!(m.strcmp(s, t).is_err());
    assert_eq!(m.strncpy(t, ptr_add(s, 3), 4), Ok(t));
    assert_eq!(&m.bytes()[24..28], b"lo\0\0");
    assert_eq!(m.strcat(t, ptr_add(s, 4)), Ok(t));
    assert_eq!(&m.bytes()[24..28], b"loo\0");
    assert_eq!(
        message(m.strcat(t, s)),
        "strcat: out-of-bounds write at offset 4 of 'char t[4]' (global, 4 bytes) while writing 6 bytes from offset 3"
    );
    assert_eq!(m.memcmp(s, t, 2), Ok(b'h' as i32 - b'l' as i32));
    assert_eq!(
        message(m.memcmp(s, t, 5)),
        "memcmp: out-of-bounds read at offset 4 of 'char t[4]' (global, 4 bytes) while reading 5 bytes from offset 0"
    );
    assert_eq!(m.memset(t, 0x41, 3), Ok(t));
    assert_eq!(&m.bytes()[24..28], b"AAA\0");
    assert_eq!(m.memcpy(s, t, 4), Ok(s));
    assert_eq!(&m.bytes()[16..24], b"AAA\0o\0xy");
    assert_eq!(m.memmove(ptr_add(s, 1), s, 7), Ok(ptr_add(s, 1)));
    assert_eq!(&m.bytes()[16..24], b"AAAA\0o\0x");
    assert_eq!(
        message(m.memcpy(ptr_add(s, 1), s, 4)),
        "memcpy: overlapping destination (offsets 1..5) and source (offsets 0..4) in 'char s[8]' (global, 8 bytes)"
    );
    assert_eq!(
        message(m.strcpy(ptr_add(s, 1), s)),
        "strcpy: overlapping destination (offsets 1..6) and source (offsets 0..5) in 'char s[8]' (global, 8 bytes)"
    );
    m.write_c_string(s, b"1234567", "sprintf").unwrap();
    assert_eq!(&m.bytes()[16..24], b"1234567\0");
    assert_eq!(
        message(m.write_c_string(t, b"1234", "sprintf")),
        "sprintf: out-of-bounds write at offset 4 of 'char t[4]' (global, 4 bytes) while writing 5 bytes from offset 0"
    );
    m.write_c_string_bounded(t, 4, b"abcdef", "snprintf")
        .unwrap();
    assert_eq!(&m.bytes()[24..28], b"abc\0");
    m.write_c_string_bounded(0, 0, b"abcdef", "snprintf")
        .unwrap();
    assert_eq!(
        message(m.write_c_string_bounded(t, 100, b"abcdef", "snprintf")),
        "snprintf: out-of-bounds write at offset 4 of 'char t[4]' (global, 4 bytes) while writing 7 bytes from offset 0"
    );
    // Null: a range of 0 bytes is not checked, a string is.
    assert_eq!(m.memcpy(0, 0, 0), Ok(0));
    assert_eq!(m.memset(0, 0, 0), Ok(0));
    assert_eq!(
        message(m.strlen(0)),
        "strlen: null pointer dereference (read)"
    );
    assert_eq!(
        message(m.memcpy(s, 0, 1)),
        "memcpy: null pointer dereference (read of 1 byte)"
    );
    let p = m.malloc(4, 1).unwrap();
    m.free(p, 2).unwrap();
    assert_eq!(
        message(m.memset(p, 0, 4)),
        "memset: write of 4 bytes at offset 0 of heap block of 4 bytes allocated at site 1 after it was freed at site 2"
    );
}

/// The reference: objects as plain vectors, and C's byte-by-byte loops.
#[derive(Clone, Debug)]
struct Model {
    objects: Vec<Vec<u8>>,
}

/// A pointer of the model: an object (or null) and an offset.
#[derive(Clone, Copy, Debug)]
struct RefPtr {
    object: Option<usize>,
    offset: i64,
}

impl RefPtr {
    fn add(self, n: usize) -> RefPtr {
        RefPtr {
            offset: self.offset + n as i64,
            ..self
        }
    }
}

/// A fault of the model: the object (`None`: null), the byte's offset, read or write.
type RefFault = (Option<usize>, i64, AccessKind);

impl Model {
    fn read(&self, p: RefPtr, i: usize) -> Result<u8, RefFault> {
        let at = p.offset + i as i64;
        let Some(object) = p.object else {
            return Err((None, 0, AccessKind::Read));
        };
        usize::try_from(at)
            .ok()
            .and_then(|at| self.objects[object].get(at).copied())
            .ok_or((Some(object), at, AccessKind::Read))
    }

    fn write(&mut self, p: RefPtr, i: usize, value: u8) -> Result<(), RefFault> {
        let at = p.offset + i as i64;
        let Some(object) = p.object else {
            return Err((None, 0, AccessKind::Write));
        };
        match usize::try_from(at)
            .ok()
            .and_then(|at| self.objects[object].get_mut(at))
        {
            Some(byte) => {
                *byte = value;
                Ok(())
            }
            None => Err((Some(object), at, AccessKind::Write)),
        }
    }

    fn strlen(&self, s: RefPtr) -> Result<usize, RefFault> {
        let mut i = 0;
        while self.read(s, i)? != 0 {
            i += 1;
        }
        Ok(i)
    }

    fn strcpy(&mut self, dst: RefPtr, src: RefPtr) -> Result<(), RefFault> {
        let mut i = 0;
        loop {
            let c = self.read(src, i)?;
            self.write(dst, i, c)?;
            if c == 0 {
                return Ok(());
            }
            i += 1;
        }
    }

    fn compare(&self, a: RefPtr, b: RefPtr, n: usize) -> Result<i32, RefFault> {
        for i in 0..n {
            let x = self.read(a, i)?;
            let y = self.read(b, i)?;
            if x != y || x == 0 {
                return Ok(x as i32 - y as i32);
            }
        }
        Ok(0)
    }
}

/// What one library call returned, comparable between the memory and the model.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Pointer(Option<(Option<usize>, i64)>),
    Int(i64),
    Bytes(Vec<u8>),
    Unit,
}

#[derive(Clone, Debug)]
struct Case {
    objects: Vec<Vec<u8>>,
    a: (usize, i64),
    b: (usize, i64),
    n: usize,
    c: u8,
    text: Vec<u8>,
    function: usize,
}

const FUNCTIONS: usize = 16;

fn case() -> impl Strategy<Value = Case> {
    let byte = prop_oneof![2 => Just(0u8), 3 => b'a'..=b'c'];
    let objects = prop::collection::vec(prop::collection::vec(byte, 0..12), 1..4);
    (
        objects,
        (0..5usize, 0..16i64),
        (0..5usize, 0..16i64),
        0..16usize,
        prop_oneof![Just(0u8), b'a'..=b'c'],
        prop::collection::vec(b'a'..=b'z', 0..10),
        0..FUNCTIONS,
    )
        .prop_map(|(objects, a, b, n, c, text, function)| Case {
            objects,
            a,
            b,
            n,
            c,
            text,
            function,
        })
}

impl Case {
    /// A pointer choice as the model's: object index (beyond the objects: null) and an offset
    /// from -2 to 2 past the end.
    fn pointer(&self, (object, offset): (usize, i64)) -> RefPtr {
        match self.objects.get(object) {
            None => RefPtr {
                object: None,
                offset: 0,
            },
            Some(bytes) => RefPtr {
                object: Some(object),
                offset: offset % (bytes.len() as i64 + 5) - 2,
            },
        }
    }

    /// Whether the call copies from `b` to `a` in the same object, other than by `memmove`.
    fn copies_within_one_object(&self) -> bool {
        let (a, b) = (self.pointer(self.a), self.pointer(self.b));
        matches!(self.function, 0 | 5 | 6 | 9) && a.object.is_some() && a.object == b.object
    }

    fn run_model(&self) -> (Result<Outcome, RefFault>, Model) {
        let mut model = Model {
            objects: self.objects.clone(),
        };
        let (a, b, n) = (self.pointer(self.a), self.pointer(self.b), self.n);
        let pointer = |p: RefPtr| match p.object {
            None => Outcome::Pointer(None),
            Some(_) => Outcome::Pointer(Some((p.object, p.offset))),
        };
        let result = (|| match self.function {
            0 => {
                for i in 0..n {
                    let c = model.read(b, i)?;
                    model.write(a, i, c)?;
                }
                Ok(pointer(a))
            }
            1 => {
                let before = model.clone();
                for i in 0..n {
                    let c = before.read(b, i)?;
                    model.write(a, i, c)?;
                }
                Ok(pointer(a))
            }
            2 => {
                for i in 0..n {
                    model.write(a, i, self.c)?;
                }
                Ok(pointer(a))
            }
            3 => {
                for i in 0..n {
                    model.read(a, i)?;
                    model.read(b, i)?;
                }
                let diff = (0..n)
                    .map(|i| (model.read(a, i).unwrap(), model.read(b, i).unwrap()))
                    .find(|(x, y)| x != y)
                    .map_or(0, |(x, y)| x as i64 - y as i64);
                Ok(Outcome::Int(diff))
            }
            4 => Ok(Outcome::Int(model.strlen(a)? as i64)),
            5 => {
                model.strcpy(a, b)?;
                Ok(pointer(a))
            }
            6 => {
                let mut i = 0;
                while i < n {
                    let c = model.read(b, i)?;
                    if c == 0 {
                        break;
                    }
                    model.write(a, i, c)?;
                    i += 1;
                }
                while i < n {
                    model.write(a, i, 0)?;
                    i += 1;
                }
                Ok(pointer(a))
            }
            7 => Ok(Outcome::Int(model.compare(a, b, usize::MAX)? as i64)),
            8 => Ok(Outcome::Int(model.compare(a, b, n)? as i64)),
            9 => {
                let len = model.strlen(a)?;
                model.strcpy(a.add(len), b)?;
                Ok(pointer(a))
            }
            10 => {
                let mut i = 0;
                loop {
                    let c = model.read(a, i)?;
                    if c == self.c {
                        return Ok(pointer(a.add(i)));
                    }
                    if c == 0 {
                        return Ok(Outcome::Pointer(None));
                    }
                    i += 1;
                }
            }
            11 => {
                let len = model.strlen(a)?;
                Ok(Outcome::Bytes(
                    (0..len).map(|i| model.read(a, i).unwrap()).collect(),
                ))
            }
            12 => {
                let mut out = Vec::new();
                while out.len() < n {
                    let c = model.read(a, out.len())?;
                    if c == 0 {
                        break;
                    }
                    out.push(c);
                }
                Ok(Outcome::Bytes(out))
            }
            13 | 14 => {
                let kept = if self.function == 13 {
                    self.text.len()
                } else if n == 0 {
                    return Ok(Outcome::Unit);
                } else {
                    self.text.len().min(n - 1)
                };
                for (i, &c) in self.text[..kept].iter().enumerate() {
                    model.write(a, i, c)?;
                }
                model.write(a, kept, 0)?;
                Ok(Outcome::Unit)
            }
            _ => {
                // memcmp on the same pointer twice: equal, if in bounds.
                for i in 0..n {
                    model.read(a, i)?;
                    model.read(a, i)?;
                }
                Ok(Outcome::Int(0))
            }
        })();
        (result, model)
    }

    fn run_memory(&self) -> (Result<Outcome, Fault>, Memory, Vec<u64>) {
        let mut m = memory();
        let bases: Vec<u64> = self
            .objects
            .iter()
            .enumerate()
            .map(|(i, bytes)| {
                let p = m.malloc(bytes.len() as u64, i as u32).unwrap();
                for (j, &byte) in bytes.iter().enumerate() {
                    m.store_u8(p, j as i64, byte).unwrap();
                }
                p
            })
            .collect();
        let real = |p: RefPtr| match p.object {
            None => 0,
            Some(object) => ptr_add(bases[object], p.offset),
        };
        let (a, b, n) = (
            real(self.pointer(self.a)),
            real(self.pointer(self.b)),
            self.n as u64,
        );
        let back = |p: u64| -> Outcome {
            if p == 0 {
                return Outcome::Pointer(None);
            }
            let object = bases
                .iter()
                .position(|&base| base >> 32 == p >> 32)
                .unwrap();
            let offset = address(p) as i64 - address(bases[object]) as i64;
            Outcome::Pointer(Some((Some(object), offset)))
        };
        let int = |r: i32| Outcome::Int(r as i64);
        let result = match self.function {
            0 => m.memcpy(a, b, n).map(back),
            1 => m.memmove(a, b, n).map(back),
            2 => m.memset(a, self.c as i32, n).map(back),
            3 => m.memcmp(a, b, n).map(int),
            4 => m.strlen(a).map(|len| Outcome::Int(len as i64)),
            5 => m.strcpy(a, b).map(back),
            6 => m.strncpy(a, b, n).map(back),
            7 => m.strcmp(a, b).map(int),
            8 => m.strncmp(a, b, n).map(int),
            9 => m.strcat(a, b).map(back),
            10 => m.strchr(a, self.c as i32).map(back),
            11 => m
                .read_c_string(a, "printf")
                .map(|s| Outcome::Bytes(s.to_vec())),
            12 => m
                .read_c_string_max(a, n, "printf")
                .map(|s| Outcome::Bytes(s.to_vec())),
            13 => m
                .write_c_string(a, &self.text, "sprintf")
                .map(|()| Outcome::Unit),
            14 => m
                .write_c_string_bounded(a, n, &self.text, "snprintf")
                .map(|()| Outcome::Unit),
            _ => m.memcmp(a, a, n).map(int),
        };
        (result, m, bases)
    }
}

/// A fault as the model sees it: the object (by its allocation site), the first bad byte,
/// read or write.
fn as_ref_fault(fault: &Fault) -> RefFault {
    match fault.kind() {
        FaultKind::Null { access, .. } => (None, 0, access.kind),
        FaultKind::OutOfBounds {
            access,
            object,
            first_bad,
            ..
        } => match object.kind {
            ObjectKind::Heap { site } => (Some(site as usize), *first_bad, access.kind),
            _ => panic!("not a heap block: {fault}"),
        },
        _ => panic!("unexpected fault: {fault}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn string_functions_match_the_reference(case in case()) {
        // Copies within one object may overlap, an error the model does not know about (the
        // examples test it).
        prop_assume!(!case.copies_within_one_object());
        let (expected, model) = case.run_model();
        let (actual, m, bases) = case.run_memory();
        match (&expected, &actual) {
            (Ok(e), Ok(a)) => prop_assert_eq!(e, a),
            (Err(e), Err(a)) => prop_assert_eq!(*e, as_ref_fault(a), "{}", a),
            _ => prop_assert!(false, "model {:?}, memory {:?}", expected, actual),
        }
        if expected.is_ok() {
            for (object, bytes) in model.objects.iter().enumerate() {
                let start = address(bases[object]) as usize;
                prop_assert_eq!(&m.bytes()[start..start + bytes.len()], &bytes[..]);
            }
        }
    }
}

#[test]
fn searching_and_bounded_appending() {
    let mut m = memory();
    let s = global(&mut m, "char s[8]", 16, 8);
    let t = global(&mut m, "char t[4]", 24, 4);
    m.global_bytes_mut()[..12].copy_from_slice(b"a/b/c\0x\0abc\0");
    assert_eq!(m.strrchr(s, b'/' as i32), Ok(ptr_add(s, 3)));
    assert_eq!(m.strrchr(s, 0), Ok(ptr_add(s, 5)));
    assert_eq!(m.strrchr(s, b'x' as i32), Ok(0));
    assert_eq!(m.strstr(s, ptr_add(s, 2)), Ok(ptr_add(s, 2)));
    assert_eq!(m.strstr(t, ptr_add(s, 5)), Ok(t));
    assert_eq!(m.strstr(s, t), Ok(0));
    // memchr reads only up to the byte it finds, and needs all `n` when it finds none.
    assert_eq!(m.memchr(s, b'x' as i32, 100), Ok(ptr_add(s, 6)));
    assert_eq!(m.memchr(s, b'z' as i32, 8), Ok(0));
    assert_eq!(
        message(m.memchr(s, b'z' as i32, 9)),
        "memchr: out-of-bounds read at offset 8 of 'char s[8]' (global, 8 bytes) while reading 9 bytes from offset 0"
    );
    // strncat takes at most `n` bytes of its source and always writes the null byte.
    m.global_bytes_mut()[8..12].copy_from_slice(b"a\0\0\0");
    assert_eq!(m.strncat(t, s, 2), Ok(t));
    assert_eq!(&m.bytes()[24..28], b"aa/\0");
    assert_eq!(
        message(m.strncat(t, s, 1)),
        "strncat: out-of-bounds write at offset 4 of 'char t[4]' (global, 4 bytes) while writing 2 bytes from offset 3"
    );
}
