//! The cost of a checked memory access under four pointer representations (the choice of
//! `vm::memory`, see its module docs), on three workloads:
//!
//! - `sum`: the sum of a 1M-`int` array read through a pointer and an index (`s += p[i]`);
//! - `chase`: a linked list of 100k 16-byte nodes, each its own object, linked in a random
//!   order (`s += n->value; n = n->next`: two accesses per node);
//! - `strlen`: a byte-by-byte `strlen` over 1 MB (`while (s[i]) i++`).
//!
//! The representations:
//!
//! - `unchecked`: a raw byte address, no check (the floor);
//! - `tagged`: `generation:8 | slot:24` above a 32-bit byte address, checked against a table
//!   of 16-byte entries `{ start, end, tag }`: `vm::memory::Memory` itself (its objects made
//!   by `malloc`);
//! - `tagged-raw`: the same check, inlined here, with unchecked indexing of the bytes (what
//!   the slice bounds check of the safe `Memory` costs);
//! - `fat`: `id:32 | offset:32`, checked against a table of `{ base, len }`;
//! - `shadow`: `slot` above a byte address, checked against one shadow byte per 8-byte granule
//!   holding the low 8 bits of the owning object's slot (ASan's shadow map with HWASan's tags).
//!
//! The pointer is passed through `black_box` before every access, as an interpreter's register
//! would be: no check is hoisted out of a loop. Every checked variant also checks alignment.
//!
//! `cargo bench -p vm --bench pointer_checks` (a few seconds per case); the results, in ns per
//! access, are in the module docs of `vm::memory`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use vm::memory::{Fault, Memory, MemoryOptions};

const N_INTS: usize = 1 << 20;
const N_NODES: usize = 100_000;
const STR_LEN: usize = 1 << 20;

/// Where each workload's data starts in every representation's memory.
const ARRAY_AT: u32 = 16;
const NODES_AT: u32 = ARRAY_AT + 4 * N_INTS as u32;
const NODE_SIZE: u32 = 16;
const STRING_AT: u32 = NODES_AT + NODE_SIZE * N_NODES as u32;
const MEMORY_SIZE: usize = STRING_AT as usize + STR_LEN + 1;

#[cold]
#[inline(never)]
fn fault(p: u64, offset: i64) -> ! {
    panic!("bad access at {p:#x}{offset:+}")
}

/// The access width's alignment check, shared by the checked variants.
#[inline(always)]
fn aligned(a: u64, width: u32) -> bool {
    a & (width as u64 - 1) == 0
}

/// Memory contents shared by every representation except for the encoding of `next`.
fn fill(memory: &mut [u8], order: &[u32], node_pointer: impl Fn(u32) -> u64) {
    for i in 0..N_INTS {
        let a = ARRAY_AT as usize + 4 * i;
        memory[a..a + 4].copy_from_slice(&(i as u32 % 1000).to_le_bytes());
    }
    for (k, &node) in order.iter().enumerate() {
        let a = (NODES_AT + NODE_SIZE * node) as usize;
        let next = order.get(k + 1).map_or(0, |&n| node_pointer(n));
        memory[a..a + 8].copy_from_slice(&next.to_le_bytes());
        memory[a + 8..a + 12].copy_from_slice(&(node % 7).to_le_bytes());
    }
    for i in 0..STR_LEN {
        memory[STRING_AT as usize + i] = b'a' + (i % 26) as u8;
    }
}

/// A random permutation of the nodes (xorshift, fixed seed).
fn node_order() -> Vec<u32> {
    let mut order: Vec<u32> = (0..N_NODES as u32).collect();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for i in (1..order.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        order.swap(i, (x % (i as u64 + 1)) as usize);
    }
    order
}

/// A memory representation: how pointers to the three workloads' objects look, and the
/// checked loads.
trait Repr {
    fn array(&self) -> u64;
    fn list(&self) -> u64;
    fn string(&self) -> u64;
    fn load_u8(&self, p: u64, offset: i64) -> u8;
    fn load_u32(&self, p: u64, offset: i64) -> u32;
    fn load_u64(&self, p: u64, offset: i64) -> u64;
}

// ---- (a) unchecked --------------------------------------------------------------------------

struct Unchecked {
    memory: Vec<u8>,
    head: u64,
}

impl Unchecked {
    fn new(order: &[u32]) -> Self {
        let mut memory = vec![0u8; MEMORY_SIZE];
        fill(&mut memory, order, |n| (NODES_AT + NODE_SIZE * n) as u64);
        let head = (NODES_AT + NODE_SIZE * order[0]) as u64;
        Unchecked { memory, head }
    }

    #[inline(always)]
    fn bytes<const N: usize>(&self, p: u64, offset: i64) -> [u8; N] {
        let a = (p as i64 + offset) as usize;
        debug_assert!(a + N <= self.memory.len());
        // SAFETY: the workloads only access the objects `new` laid out inside `memory`.
        unsafe { *(self.memory.as_ptr().add(a) as *const [u8; N]) }
    }
}

impl Repr for Unchecked {
    fn array(&self) -> u64 {
        ARRAY_AT as u64
    }
    fn list(&self) -> u64 {
        self.head
    }
    fn string(&self) -> u64 {
        STRING_AT as u64
    }
    #[inline(always)]
    fn load_u8(&self, p: u64, offset: i64) -> u8 {
        self.bytes::<1>(p, offset)[0]
    }
    #[inline(always)]
    fn load_u32(&self, p: u64, offset: i64) -> u32 {
        u32::from_le_bytes(self.bytes(p, offset))
    }
    #[inline(always)]
    fn load_u64(&self, p: u64, offset: i64) -> u64 {
        u64::from_le_bytes(self.bytes(p, offset))
    }
}

// ---- (b) tagged addresses: vm::memory -------------------------------------------------------

struct Real {
    memory: Memory,
    array: u64,
    head: u64,
    string: u64,
}

#[cold]
#[inline(never)]
fn real_fault(fault: Fault) -> ! {
    panic!("{fault}")
}

impl Real {
    fn new(order: &[u32]) -> Self {
        let mut memory = Memory::new(MemoryOptions {
            globals_size: 0,
            stack_size: 1 << 20,
            max_memory: 64 << 20,
        })
        .unwrap();
        let array = memory.malloc(4 * N_INTS as u64, 1).unwrap();
        for i in 0..N_INTS {
            memory
                .store_u32(array, 4 * i as i64, i as u32 % 1000)
                .unwrap();
        }
        let nodes: Vec<u64> = (0..N_NODES)
            .map(|_| memory.malloc(NODE_SIZE as u64, 2).unwrap())
            .collect();
        for (k, &node) in order.iter().enumerate() {
            let next = order.get(k + 1).map_or(0, |&n| nodes[n as usize]);
            let p = nodes[node as usize];
            memory.store_u64(p, 0, next).unwrap();
            memory.store_u32(p, 8, node % 7).unwrap();
        }
        let string = memory.malloc(STR_LEN as u64 + 1, 3).unwrap();
        for i in 0..STR_LEN {
            memory
                .store_u8(string, i as i64, b'a' + (i % 26) as u8)
                .unwrap();
        }
        Real {
            memory,
            array,
            head: nodes[order[0] as usize],
            string,
        }
    }
}

impl Repr for Real {
    fn array(&self) -> u64 {
        self.array
    }
    fn list(&self) -> u64 {
        self.head
    }
    fn string(&self) -> u64 {
        self.string
    }
    #[inline(always)]
    fn load_u8(&self, p: u64, offset: i64) -> u8 {
        match self.memory.load_u8(p, offset) {
            Ok(v) => v,
            Err(fault) => real_fault(fault),
        }
    }
    #[inline(always)]
    fn load_u32(&self, p: u64, offset: i64) -> u32 {
        match self.memory.load_u32(p, offset) {
            Ok(v) => v,
            Err(fault) => real_fault(fault),
        }
    }
    #[inline(always)]
    fn load_u64(&self, p: u64, offset: i64) -> u64 {
        match self.memory.load_u64(p, offset) {
            Ok(v) => v,
            Err(fault) => real_fault(fault),
        }
    }
}

// ---- (b') tagged addresses, the check inlined -----------------------------------------------

#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct TagEntry {
    start: u32,
    end: u32,
    tag: u32,
    _flags: u32,
}

struct Tagged {
    memory: Vec<u8>,
    table: Vec<TagEntry>,
    head: u64,
}

/// Table slots of the workloads' objects under `tagged`, `fat` and `shadow`.
const ARRAY_SLOT: u32 = 1;
const STRING_SLOT: u32 = 2;
const FIRST_NODE_SLOT: u32 = 3;
/// A generation, so that the tags are not just slot numbers.
const GENERATION: u32 = 5;

fn tag_of(slot: u32) -> u64 {
    ((GENERATION << 24 | slot) as u64) << 32
}

impl Tagged {
    fn new(order: &[u32]) -> Self {
        let node_pointer = |n: u32| tag_of(FIRST_NODE_SLOT + n) | (NODES_AT + NODE_SIZE * n) as u64;
        let mut memory = vec![0u8; MEMORY_SIZE];
        fill(&mut memory, order, node_pointer);
        let mut table = vec![
            TagEntry {
                tag: u32::MAX,
                ..TagEntry::default()
            };
            FIRST_NODE_SLOT as usize + N_NODES
        ];
        let mut set = |slot: u32, start: u32, size: u32| {
            table[slot as usize] = TagEntry {
                start,
                end: start + size,
                tag: (tag_of(slot) >> 32) as u32,
                _flags: 0,
            }
        };
        set(ARRAY_SLOT, ARRAY_AT, 4 * N_INTS as u32);
        set(STRING_SLOT, STRING_AT, STR_LEN as u32 + 1);
        for n in 0..N_NODES as u32 {
            set(FIRST_NODE_SLOT + n, NODES_AT + NODE_SIZE * n, NODE_SIZE);
        }
        Tagged {
            memory,
            table,
            head: node_pointer(order[0]),
        }
    }

    #[inline(always)]
    fn check(&self, p: u64, offset: i64, width: u32) -> usize {
        let tag = (p >> 32) as u32;
        let a = (p as u32 as i64).wrapping_add(offset);
        match self.table.get((tag & 0xff_ffff) as usize) {
            Some(e)
                if (e.tag == tag)
                    & (a >= e.start as i64)
                    & (a <= e.end as i64 - width as i64)
                    & aligned(a as u64, width) =>
            {
                a as usize
            }
            _ => fault(p, offset),
        }
    }

    #[inline(always)]
    fn bytes<const N: usize>(&self, p: u64, offset: i64) -> [u8; N] {
        let a = self.check(p, offset, N as u32);
        // SAFETY: every table entry lies inside `memory` (`new`), and `check` put `a .. a + N`
        // inside an entry.
        unsafe { *(self.memory.as_ptr().add(a) as *const [u8; N]) }
    }
}

impl Repr for Tagged {
    fn array(&self) -> u64 {
        tag_of(ARRAY_SLOT) | ARRAY_AT as u64
    }
    fn list(&self) -> u64 {
        self.head
    }
    fn string(&self) -> u64 {
        tag_of(STRING_SLOT) | STRING_AT as u64
    }
    #[inline(always)]
    fn load_u8(&self, p: u64, offset: i64) -> u8 {
        self.bytes::<1>(p, offset)[0]
    }
    #[inline(always)]
    fn load_u32(&self, p: u64, offset: i64) -> u32 {
        u32::from_le_bytes(self.bytes(p, offset))
    }
    #[inline(always)]
    fn load_u64(&self, p: u64, offset: i64) -> u64 {
        u64::from_le_bytes(self.bytes(p, offset))
    }
}

// ---- (c) fat pointers -----------------------------------------------------------------------

#[derive(Clone, Copy, Default)]
struct FatEntry {
    base: u32,
    len: u32,
}

struct Fat {
    memory: Vec<u8>,
    table: Vec<FatEntry>,
    head: u64,
}

impl Fat {
    fn new(order: &[u32]) -> Self {
        let node_pointer = |n: u32| ((FIRST_NODE_SLOT + n) as u64) << 32;
        let mut memory = vec![0u8; MEMORY_SIZE];
        fill(&mut memory, order, node_pointer);
        let mut table = vec![FatEntry::default(); FIRST_NODE_SLOT as usize + N_NODES];
        table[ARRAY_SLOT as usize] = FatEntry {
            base: ARRAY_AT,
            len: 4 * N_INTS as u32,
        };
        table[STRING_SLOT as usize] = FatEntry {
            base: STRING_AT,
            len: STR_LEN as u32 + 1,
        };
        for n in 0..N_NODES as u32 {
            table[(FIRST_NODE_SLOT + n) as usize] = FatEntry {
                base: NODES_AT + NODE_SIZE * n,
                len: NODE_SIZE,
            };
        }
        Fat {
            memory,
            table,
            head: node_pointer(order[0]),
        }
    }

    #[inline(always)]
    fn check(&self, p: u64, offset: i64, width: u32) -> usize {
        let off = (p as u32 as i64).wrapping_add(offset);
        match self.table.get((p >> 32) as usize) {
            Some(e)
                if off >= 0 && off <= e.len as i64 - width as i64 && aligned(off as u64, width) =>
            {
                e.base as usize + off as usize
            }
            _ => fault(p, offset),
        }
    }

    #[inline(always)]
    fn bytes<const N: usize>(&self, p: u64, offset: i64) -> [u8; N] {
        let a = self.check(p, offset, N as u32);
        // SAFETY: every table entry lies inside `memory` (`new`), and `check` put `a .. a + N`
        // inside an entry.
        unsafe { *(self.memory.as_ptr().add(a) as *const [u8; N]) }
    }
}

impl Repr for Fat {
    fn array(&self) -> u64 {
        (ARRAY_SLOT as u64) << 32
    }
    fn list(&self) -> u64 {
        self.head
    }
    fn string(&self) -> u64 {
        (STRING_SLOT as u64) << 32
    }
    #[inline(always)]
    fn load_u8(&self, p: u64, offset: i64) -> u8 {
        self.bytes::<1>(p, offset)[0]
    }
    #[inline(always)]
    fn load_u32(&self, p: u64, offset: i64) -> u32 {
        u32::from_le_bytes(self.bytes(p, offset))
    }
    #[inline(always)]
    fn load_u64(&self, p: u64, offset: i64) -> u64 {
        u64::from_le_bytes(self.bytes(p, offset))
    }
}

// ---- (d) shadow map -------------------------------------------------------------------------

struct Shadow {
    memory: Vec<u8>,
    /// One byte per 8-byte granule of `memory`: the owning object's slot, low 8 bits (0: none).
    shadow: Vec<u8>,
    head: u64,
}

/// The shadow tag of a slot: never 0 (unowned granules).
fn shadow_tag(slot: u32) -> u8 {
    (slot % 255 + 1) as u8
}

impl Shadow {
    fn new(order: &[u32]) -> Self {
        let node_pointer = |n: u32| {
            (shadow_tag(FIRST_NODE_SLOT + n) as u64) << 32 | (NODES_AT + NODE_SIZE * n) as u64
        };
        let mut memory = vec![0u8; MEMORY_SIZE];
        fill(&mut memory, order, node_pointer);
        let mut shadow = vec![0u8; MEMORY_SIZE.div_ceil(8)];
        let mut mark = |slot: u32, start: u32, size: u32| {
            shadow[start as usize / 8..(start + size) as usize / 8].fill(shadow_tag(slot));
        };
        mark(ARRAY_SLOT, ARRAY_AT, 4 * N_INTS as u32);
        mark(STRING_SLOT, STRING_AT, STR_LEN as u32 + 8);
        for n in 0..N_NODES as u32 {
            mark(FIRST_NODE_SLOT + n, NODES_AT + NODE_SIZE * n, NODE_SIZE);
        }
        Shadow {
            memory,
            shadow,
            head: node_pointer(order[0]),
        }
    }

    #[inline(always)]
    fn check(&self, p: u64, offset: i64, width: u32) -> usize {
        let a = (p as u32 as i64).wrapping_add(offset) as u64;
        match self.shadow.get((a >> 3) as usize) {
            Some(&t) if t == (p >> 32) as u8 && aligned(a, width) => a as usize,
            _ => fault(p, offset),
        }
    }

    #[inline(always)]
    fn bytes<const N: usize>(&self, p: u64, offset: i64) -> [u8; N] {
        let a = self.check(p, offset, N as u32);
        // SAFETY: the shadow covers `memory` exactly, an aligned access of at most 8 bytes
        // stays in its granule, and `check` found that granule in the shadow.
        unsafe { *(self.memory.as_ptr().add(a) as *const [u8; N]) }
    }
}

impl Repr for Shadow {
    fn array(&self) -> u64 {
        (shadow_tag(ARRAY_SLOT) as u64) << 32 | ARRAY_AT as u64
    }
    fn list(&self) -> u64 {
        self.head
    }
    fn string(&self) -> u64 {
        (shadow_tag(STRING_SLOT) as u64) << 32 | STRING_AT as u64
    }
    #[inline(always)]
    fn load_u8(&self, p: u64, offset: i64) -> u8 {
        self.bytes::<1>(p, offset)[0]
    }
    #[inline(always)]
    fn load_u32(&self, p: u64, offset: i64) -> u32 {
        u32::from_le_bytes(self.bytes(p, offset))
    }
    #[inline(always)]
    fn load_u64(&self, p: u64, offset: i64) -> u64 {
        u64::from_le_bytes(self.bytes(p, offset))
    }
}

// ---- the workloads --------------------------------------------------------------------------

fn sum<R: Repr>(r: &R) -> u64 {
    let p = r.array();
    let mut s = 0u64;
    for i in 0..N_INTS as i64 {
        s += r.load_u32(black_box(p), 4 * i) as u64;
    }
    s
}

fn chase<R: Repr>(r: &R) -> u64 {
    let mut p = r.list();
    let mut s = 0u64;
    while p != 0 {
        s += r.load_u32(p, 8) as u64;
        p = r.load_u64(p, 0);
    }
    s
}

fn strlen<R: Repr>(r: &R) -> u64 {
    let p = r.string();
    let mut i = 0i64;
    while r.load_u8(black_box(p), i) != 0 {
        i += 1;
    }
    i as u64
}

/// Benchmarks the three workloads on `r`; returns their results, which every representation
/// must agree on.
fn run<R: Repr>(c: &mut Criterion, name: &str, r: &R) -> (u64, u64, u64) {
    let results = (sum(r), chase(r), strlen(r));
    assert_eq!(results.2, STR_LEN as u64);
    let mut group = c.benchmark_group("pointer_checks");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    group.throughput(Throughput::Elements(N_INTS as u64));
    group.bench_function(BenchmarkId::new("sum", name), |b| b.iter(|| sum(r)));
    group.throughput(Throughput::Elements(2 * N_NODES as u64));
    group.bench_function(BenchmarkId::new("chase", name), |b| b.iter(|| chase(r)));
    group.throughput(Throughput::Elements(STR_LEN as u64));
    group.bench_function(BenchmarkId::new("strlen", name), |b| b.iter(|| strlen(r)));
    group.finish();
    results
}

fn bench(c: &mut Criterion) {
    let order = node_order();
    let floor = run(c, "unchecked", &Unchecked::new(&order));
    assert_eq!(run(c, "tagged", &Real::new(&order)), floor);
    assert_eq!(run(c, "tagged-raw", &Tagged::new(&order)), floor);
    assert_eq!(run(c, "fat", &Fat::new(&order)), floor);
    assert_eq!(run(c, "shadow", &Shadow::new(&order)), floor);
}

criterion_group!(benches, bench);
criterion_main!(benches);
