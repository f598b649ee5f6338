//! Typed `u32` indices and the vectors they index.
//!
//! Every entity of the profiler (blocks, edges, DAG edges, loops) is named by a newtype around
//! `u32`, following cranelift's `entity` crate: a block index cannot be used where an edge index
//! is expected, and a table of per-block data is an [`IndexVec<Block, T>`](IndexVec) that can only
//! be indexed by blocks. `Display` (and `Debug`) print the index with a short prefix, `b12`,
//! `e3`, which is also how reports print them.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A typed index: a `u32` newtype created by [`define_index!`](crate::define_index).
pub trait Idx: Copy + Eq + Ord + fmt::Debug {
    /// Makes an index from a position. Panics if `i` does not fit in a `u32`.
    fn new(i: usize) -> Self;
    /// The position this index stands for.
    fn index(self) -> usize;
}

/// Defines a typed `u32` index with a `Display` prefix, e.g.
/// `define_index!(/** A block. */ pub struct Block = "b");` prints `Block::new(12)` as `b12`.
#[macro_export]
macro_rules! define_index {
    ($(#[$meta:meta])* $vis:vis struct $name:ident = $prefix:literal;) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis struct $name(u32);

        // Not every index type uses every helper.
        #[allow(dead_code)]
        impl $name {
            /// Makes an index from a position. Panics if `i` does not fit in a `u32`.
            #[inline]
            pub fn new(i: usize) -> Self {
                $name(u32::try_from(i).expect("index does not fit in u32"))
            }
            /// Makes an index from its raw `u32` value.
            #[inline]
            pub const fn from_u32(i: u32) -> Self {
                $name(i)
            }
            /// The position this index stands for.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
            /// The raw `u32` value.
            #[inline]
            pub const fn as_u32(self) -> u32 {
                self.0
            }
        }

        impl $crate::index::Idx for $name {
            #[inline]
            fn new(i: usize) -> Self {
                $name::new(i)
            }
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(self, f)
            }
        }
    };
}

/// A vector indexed by a typed index `I` (cranelift's `SecondaryMap`, without defaults).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IndexVec<I: Idx, T> {
    raw: Vec<T>,
    _marker: PhantomData<fn(I) -> I>,
}

impl<I: Idx, T> IndexVec<I, T> {
    /// An empty vector.
    pub fn new() -> Self {
        IndexVec {
            raw: Vec::new(),
            _marker: PhantomData,
        }
    }
    /// An empty vector with room for `n` elements.
    pub fn with_capacity(n: usize) -> Self {
        IndexVec {
            raw: Vec::with_capacity(n),
            _marker: PhantomData,
        }
    }
    /// `n` copies of `value`.
    pub fn from_elem(value: T, n: usize) -> Self
    where
        T: Clone,
    {
        IndexVec {
            raw: vec![value; n],
            _marker: PhantomData,
        }
    }
    /// Wraps a plain vector: element `i` belongs to index `I::new(i)`.
    pub fn from_raw(raw: Vec<T>) -> Self {
        IndexVec {
            raw,
            _marker: PhantomData,
        }
    }
    /// Appends an element and returns its index.
    pub fn push(&mut self, value: T) -> I {
        let i = I::new(self.raw.len());
        self.raw.push(value);
        i
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.raw.len()
    }
    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }
    /// All indices, in order.
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + Clone {
        (0..self.raw.len()).map(I::new)
    }
    /// The elements, in index order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }
    /// `(index, element)` pairs, in index order.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.raw.iter().enumerate().map(|(i, t)| (I::new(i), t))
    }
    /// The elements, mutably, in index order.
    pub fn raw_iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }
    /// The underlying slice (element `i` belongs to index `I::new(i)`).
    pub fn as_slice(&self) -> &[T] {
        &self.raw
    }
    /// The underlying vector.
    pub fn into_raw(self) -> Vec<T> {
        self.raw
    }
    /// The element at `i`, if in range.
    pub fn get(&self, i: I) -> Option<&T> {
        self.raw.get(i.index())
    }
}

impl<I: Idx, T> Default for IndexVec<I, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I: Idx, T> Index<I> for IndexVec<I, T> {
    type Output = T;
    #[inline]
    fn index(&self, i: I) -> &T {
        &self.raw[i.index()]
    }
}

impl<I: Idx, T> IndexMut<I> for IndexVec<I, T> {
    #[inline]
    fn index_mut(&mut self, i: I) -> &mut T {
        &mut self.raw[i.index()]
    }
}

impl<I: Idx, T: fmt::Debug> fmt::Debug for IndexVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter_enumerated()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    define_index!(
        /// A test index.
        pub struct Thing = "t";
    );

    #[test]
    fn display_uses_prefix() {
        assert_eq!(Thing::new(12).to_string(), "t12");
        assert_eq!(format!("{:?}", Thing::new(3)), "t3");
    }

    #[test]
    fn index_vec_is_indexed_by_its_type() {
        let mut v: IndexVec<Thing, &str> = IndexVec::new();
        let a = v.push("a");
        let b = v.push("b");
        assert_eq!((v[a], v[b]), ("a", "b"));
        assert_eq!(v.indices().collect::<Vec<_>>(), vec![a, b]);
    }
}
