//! The import graph between the files of a crate, and its circles (issue 36).
//!
//! A file *imports* another when it names an item of it: in a `use` declaration (`use
//! crate::ctype::CType`, `use super::Operand`, `use child::Item`), or in a path in its
//! code (`crate::printf_format::Piece::Text`, `super::stmt::sized_by_initializer(..)`). The
//! declaration `mod child;` is not an import: a parent module owns its children, and a child may
//! name its ancestors' items freely as long as those items are the parent's own.
//!
//! Paths are resolved the way the compiler resolves them, to the file that *defines* the item:
//!
//! 1. The module tree is read from the crate root (`lib.rs`, `main.rs`), following `mod name;`
//!    to `name.rs` or `name/mod.rs` and entering inline `mod name { .. }` blocks, with
//!    [`syn`]'s full parser. Every module records the names it defines (functions, types,
//!    traits, constants, statics, macros) and the names its `use` declarations bring in.
//! 2. A path starts at the crate root (`crate::`), at an ancestor (`super::`, `self::`), at a
//!    child module, or at a name a `use` of the module brought in; anything else (`std::`, other
//!    crates, local names) is not an import between files.
//! 3. The path walks down through modules; at the first segment that is not a module, the item
//!    is looked up in the module it names: defined there, that module's file is the target; brought
//!    in by a `use` there (a re-export, `pub use forest::Cursor`), the `use`'s own path is
//!    followed; brought in by a glob, each glob's module is tried.
//!
//! So a file that imports `crate::kblpp::Cursor`, re-exported by `kblpp/mod.rs` from
//! `kblpp/forest.rs`, imports `kblpp/forest.rs`, the file it actually stands on. A path inside a
//! macro's arguments (`format!`, `write!`) is not parsed and not counted.
//!
//! [`ImportGraph::circles`] lists the strongly connected components of more than one file
//! (Tarjan's algorithm), each with the edges that close it; the test `import_circles` requires
//! none in any crate of the workspace, and `cargo run -p e2e --example import_graph -- CRATE`
//! prints the edges.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module of the tree, by its index in [`ImportGraph::modules`].
type ModuleId = usize;

/// One module: a file, or an inline `mod name { .. }` within one.
#[derive(Debug)]
struct Module {
    /// The file the module's text is in.
    file: PathBuf,
    /// The enclosing module (`None` for the crate root).
    parent: Option<ModuleId>,
    /// The child modules by name.
    children: HashMap<String, ModuleId>,
    /// The names the module defines.
    items: BTreeSet<String>,
    /// The names its `use` declarations bring in, with the path each names.
    uses: HashMap<String, Vec<String>>,
    /// The paths of its glob imports (`use path::*`).
    globs: Vec<Vec<String>>,
    /// Every path the module's text names (use declarations included), for the edges.
    paths: Vec<Vec<String>>,
}

/// An error reading a crate's sources.
#[derive(Debug)]
pub struct ReadError(String);

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReadError {}

/// The files of one crate target and which of them import which.
#[derive(Debug)]
pub struct ImportGraph {
    /// The directory file names are shown relative to.
    base: PathBuf,
    /// The module tree, the root first.
    modules: Vec<Module>,
    /// For every importing file, the files it imports, each with the paths that import it.
    edges: BTreeMap<PathBuf, BTreeMap<PathBuf, BTreeSet<String>>>,
}

/// One circle: files that import each other, and the imports that close the loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Circle {
    /// The files, relative to the crate's directory, sorted.
    pub files: Vec<String>,
    /// The imports among them: `(from, to, paths)`.
    pub edges: Vec<(String, String, Vec<String>)>,
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "files importing each other: {}", self.files.join(", "))?;
        for (from, to, paths) in &self.edges {
            writeln!(f, "  {from} -> {to}: {}", paths.join(", "))?;
        }
        Ok(())
    }
}

impl ImportGraph {
    /// Reads the crate whose root file is `root` (`src/lib.rs` or `src/main.rs`); file names are
    /// shown relative to `base`.
    pub fn read(base: &Path, root: &Path) -> Result<ImportGraph, ReadError> {
        let mut graph = ImportGraph {
            base: base.to_path_buf(),
            modules: Vec::new(),
            edges: BTreeMap::new(),
        };
        let dir = root.parent().unwrap_or(Path::new(".")).to_path_buf();
        graph.read_file(root, None, None, dir)?;
        graph.resolve();
        Ok(graph)
    }

    /// Reads the file of a module named `name` under `parent` (the root when both are `None`);
    /// its `mod child;` files are looked for in `dir`.
    fn read_file(
        &mut self,
        file: &Path,
        parent: Option<ModuleId>,
        name: Option<&str>,
        dir: PathBuf,
    ) -> Result<ModuleId, ReadError> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| ReadError(format!("{}: {e}", file.display())))?;
        let syntax = syn::parse_file(&text)
            .map_err(|e| ReadError(format!("{}: cannot parse: {e}", file.display())))?;
        let id = self.new_module(file, parent, name);
        self.read_items(&syntax.items, id, &dir)?;
        Ok(id)
    }

    /// A new, empty module, registered as `parent`'s child `name`.
    fn new_module(
        &mut self,
        file: &Path,
        parent: Option<ModuleId>,
        name: Option<&str>,
    ) -> ModuleId {
        let id = self.modules.len();
        self.modules.push(Module {
            file: file.to_path_buf(),
            parent,
            children: HashMap::new(),
            items: BTreeSet::new(),
            uses: HashMap::new(),
            globs: Vec::new(),
            paths: Vec::new(),
        });
        if let (Some(parent), Some(name)) = (parent, name) {
            self.modules[parent].children.insert(name.to_string(), id);
        }
        id
    }

    /// Records the items of module `id`, whose child files are in `dir`.
    fn read_items(
        &mut self,
        items: &[syn::Item],
        id: ModuleId,
        dir: &Path,
    ) -> Result<(), ReadError> {
        for item in items {
            if is_test_only(item) {
                continue;
            }
            if let syn::Item::Mod(module) = item {
                let name = module.ident.to_string();
                let child_dir = dir.join(&name);
                match &module.content {
                    Some((_, inner)) => {
                        let file = self.modules[id].file.clone();
                        let child = self.new_module(&file, Some(id), Some(&name));
                        self.read_items(inner, child, &child_dir)?;
                    }
                    None => {
                        let flat = dir.join(format!("{name}.rs"));
                        let nested = child_dir.join("mod.rs");
                        let file = if flat.exists() { flat } else { nested };
                        self.read_file(&file, Some(id), Some(&name), child_dir)?;
                    }
                }
                continue;
            }
            if let Some(name) = defined_name(item) {
                self.modules[id].items.insert(name);
            }
            let mut collector = PathCollector {
                module: &mut self.modules[id],
            };
            collector.visit_item(item);
        }
        Ok(())
    }

    /// Resolves every module's paths into edges between files.
    fn resolve(&mut self) {
        for id in 0..self.modules.len() {
            for path in self.modules[id].paths.clone() {
                let Some(target) = self.resolve_path(id, &path, 0) else {
                    continue;
                };
                if self.is_ancestor(target, id) {
                    continue;
                }
                let from = self.modules[id].file.clone();
                let to = self.modules[target].file.clone();
                if from != to {
                    let shown = path.join("::");
                    self.edges
                        .entry(from)
                        .or_default()
                        .entry(to)
                        .or_default()
                        .insert(shown);
                }
            }
        }
    }

    /// Whether `ancestor` encloses `module` (or is it).
    fn is_ancestor(&self, ancestor: ModuleId, module: ModuleId) -> bool {
        let mut current = Some(module);
        while let Some(m) = current {
            if m == ancestor {
                return true;
            }
            current = self.modules[m].parent;
        }
        false
    }

    /// The module defining what `path`, named in module `from`, names; `None` when it is not an
    /// item of this crate.
    fn resolve_path(&self, from: ModuleId, path: &[String], depth: usize) -> Option<ModuleId> {
        // A re-export chain longer than this is a `use` cycle; rustc would reject it.
        if depth > 32 || path.is_empty() {
            return None;
        }
        let (mut module, rest) = match path[0].as_str() {
            "crate" => (0, &path[1..]),
            "self" => (from, &path[1..]),
            "super" => {
                let mut module = from;
                let mut rest = path;
                while rest.first().map(String::as_str) == Some("super") {
                    module = self.modules[module].parent?;
                    rest = &rest[1..];
                }
                (module, rest)
            }
            first => {
                if self.modules[from].children.contains_key(first) {
                    (from, path)
                } else if let Some(target) = self.lookup_use(from, first) {
                    let mut full = target.clone();
                    full.extend_from_slice(&path[1..]);
                    return self.resolve_path(from, &full, depth + 1);
                } else {
                    return None;
                }
            }
        };
        for (i, segment) in rest.iter().enumerate() {
            if let Some(&child) = self.modules[module].children.get(segment) {
                module = child;
                continue;
            }
            return Some(self.defining_module(module, segment, &rest[i + 1..], depth));
        }
        Some(module)
    }

    /// The module in which `name`, an item of `module` followed by `rest`, is defined.
    fn defining_module(
        &self,
        module: ModuleId,
        name: &str,
        rest: &[String],
        depth: usize,
    ) -> ModuleId {
        let here = &self.modules[module];
        if here.items.contains(name) {
            return module;
        }
        if let Some(target) = here.uses.get(name) {
            let mut full = target.clone();
            full.extend_from_slice(rest);
            if let Some(found) = self.resolve_path(module, &full, depth + 1) {
                return found;
            }
        }
        for glob in &here.globs {
            let Some(glob_module) = self.resolve_path(module, glob, depth + 1) else {
                continue;
            };
            if glob_module != module && self.provides(glob_module, name) {
                let mut full = glob.clone();
                full.push(name.to_string());
                full.extend_from_slice(rest);
                if let Some(found) = self.resolve_path(module, &full, depth + 1) {
                    return found;
                }
            }
        }
        module
    }

    /// Whether `module` defines `name` or brings it in by name.
    fn provides(&self, module: ModuleId, name: &str) -> bool {
        let here = &self.modules[module];
        here.items.contains(name)
            || here.uses.contains_key(name)
            || here.children.contains_key(name)
    }

    /// The path a `use` of `module` (or of an inline module's enclosing ones, whose names it does
    /// not see: only `module` itself) brings `name` in from.
    fn lookup_use(&self, module: ModuleId, name: &str) -> Option<&Vec<String>> {
        self.modules[module].uses.get(name)
    }

    /// Shows `file` relative to the crate's directory.
    fn show(&self, file: &Path) -> String {
        file.strip_prefix(&self.base)
            .unwrap_or(file)
            .display()
            .to_string()
    }

    /// Every import between two files: `(from, to, paths)`, sorted.
    pub fn edges(&self) -> Vec<(String, String, Vec<String>)> {
        let mut out = Vec::new();
        for (from, targets) in &self.edges {
            for (to, paths) in targets {
                out.push((
                    self.show(from),
                    self.show(to),
                    paths.iter().cloned().collect(),
                ));
            }
        }
        out
    }

    /// The groups of files that import each other (strongly connected components of more than
    /// one file), each with its edges.
    pub fn circles(&self) -> Vec<Circle> {
        let files: Vec<&PathBuf> = {
            let mut all = BTreeSet::new();
            for module in &self.modules {
                all.insert(&module.file);
            }
            all.into_iter().collect()
        };
        let index: HashMap<&PathBuf, usize> =
            files.iter().enumerate().map(|(i, f)| (*f, i)).collect();
        let successors: Vec<Vec<usize>> = files
            .iter()
            .map(|file| {
                self.edges
                    .get(*file)
                    .map(|targets| targets.keys().map(|to| index[to]).collect())
                    .unwrap_or_default()
            })
            .collect();
        let mut circles = Vec::new();
        for component in strongly_connected(&successors) {
            if component.len() < 2 {
                continue;
            }
            let members: BTreeSet<usize> = component.iter().copied().collect();
            let mut names: Vec<String> = members.iter().map(|&i| self.show(files[i])).collect();
            names.sort();
            let mut edges = Vec::new();
            for &i in &members {
                for (to, paths) in self.edges.get(files[i]).into_iter().flatten() {
                    if members.contains(&index[to]) {
                        edges.push((
                            self.show(files[i]),
                            self.show(to),
                            paths.iter().cloned().collect(),
                        ));
                    }
                }
            }
            edges.sort();
            circles.push(Circle {
                files: names,
                edges,
            });
        }
        circles.sort_by(|a, b| a.files.cmp(&b.files));
        circles
    }
}

/// The strongly connected components of a graph given by successor lists (Tarjan's algorithm,
/// iterative so that deep graphs do not overflow the stack).
fn strongly_connected(successors: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = successors.len();
    let mut order = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut counter = 0;
    for start in 0..n {
        if order[start] != UNSEEN {
            continue;
        }
        // (node, index of the next successor to visit)
        let mut work = vec![(start, 0)];
        order[start] = counter;
        low[start] = counter;
        counter += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (node, ref mut next)) = work.last_mut() {
            if let Some(&succ) = successors[node].get(*next) {
                *next += 1;
                if order[succ] == UNSEEN {
                    order[succ] = counter;
                    low[succ] = counter;
                    counter += 1;
                    stack.push(succ);
                    on_stack[succ] = true;
                    work.push((succ, 0));
                } else if on_stack[succ] {
                    low[node] = low[node].min(order[succ]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == order[node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                components.push(component);
            }
        }
    }
    components
}

/// Whether `item` is compiled for tests only (`#[cfg(test)]`).
fn is_test_only(item: &syn::Item) -> bool {
    let attrs = match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => return false,
    };
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

/// The name an item defines in its module's namespace, if any (`use` and `mod` are handled
/// apart; `impl` blocks define none).
fn defined_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::TraitAlias(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        _ => return None,
    };
    Some(ident.to_string())
}

/// Collects the paths an item names into its module: `use` trees (also recorded as the
/// module's imported names and globs) and paths of two or more segments in its code.
struct PathCollector<'a> {
    module: &'a mut Module,
}

impl PathCollector<'_> {
    /// Records one `use` tree under the prefix `prefix`.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                self.use_name(prefix, &name, &name);
            }
            syn::UseTree::Rename(r) => {
                self.use_name(prefix, &r.ident.to_string(), &r.rename.to_string());
            }
            syn::UseTree::Glob(_) => {
                self.module.globs.push(prefix.clone());
                self.module.paths.push(prefix.clone());
            }
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    /// Records `use prefix::name as alias`.
    fn use_name(&mut self, prefix: &[String], name: &str, alias: &str) {
        let mut path = prefix.to_vec();
        // `use path::{self}` names the module `path` itself.
        if name != "self" {
            path.push(name.to_string());
        }
        let alias = if name == "self" {
            prefix.last().cloned().unwrap_or_default()
        } else {
            alias.to_string()
        };
        if alias != "_" {
            self.module.uses.insert(alias, path.clone());
        }
        self.module.paths.push(path);
    }
}

impl<'ast> Visit<'ast> for PathCollector<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {
        // Modules nested in a function body are rare and not followed.
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() && path.segments.len() >= 2 {
            self.module
                .paths
                .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        }
        syn::visit::visit_path(self, path);
    }
}

/// The crate targets of the workspace whose files are checked: `(name, directory, root file)`.
pub fn workspace_targets(workspace: &Path) -> Vec<(String, PathBuf, PathBuf)> {
    let mut targets = Vec::new();
    for krate in ["lang", "profiler", "vm", "tests"] {
        let dir = workspace.join(krate);
        for root in ["lib.rs", "main.rs"] {
            let file = dir.join("src").join(root);
            if file.exists() {
                let name = if root == "lib.rs" {
                    krate.to_string()
                } else {
                    format!("{krate} (binary)")
                };
                targets.push((name, dir.clone(), file));
            }
        }
    }
    targets
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate of the given files, written under a fresh directory.
    fn crate_of(files: &[(&str, &str)]) -> (tempdir::Dir, ImportGraph) {
        let dir = tempdir::Dir::new();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let graph = ImportGraph::read(dir.path(), &dir.path().join("lib.rs")).unwrap();
        (dir, graph)
    }

    /// A directory removed when dropped.
    mod tempdir {
        use std::path::{Path, PathBuf};
        use std::sync::atomic::{AtomicUsize, Ordering};

        pub struct Dir(PathBuf);

        impl Dir {
            pub fn new() -> Dir {
                static NEXT: AtomicUsize = AtomicUsize::new(0);
                let n = NEXT.fetch_add(1, Ordering::Relaxed);
                let path =
                    std::env::temp_dir().join(format!("import-graph-{}-{n}", std::process::id()));
                let _ = std::fs::remove_dir_all(&path);
                std::fs::create_dir_all(&path).unwrap();
                Dir(path)
            }
            pub fn path(&self) -> &Path {
                &self.0
            }
        }

        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    #[test]
    fn a_use_each_way_is_a_circle() {
        let (_dir, graph) = crate_of(&[
            ("lib.rs", "mod a; mod b;"),
            ("a.rs", "use crate::b::B; pub struct A;"),
            ("b.rs", "pub struct B; fn f() -> crate::a::A { todo!() }"),
        ]);
        let circles = graph.circles();
        assert_eq!(circles.len(), 1, "{circles:?}");
        assert_eq!(circles[0].files, ["a.rs", "b.rs"]);
        assert_eq!(
            circles[0].edges,
            [
                ("a.rs".into(), "b.rs".into(), vec!["crate::b::B".into()]),
                ("b.rs".into(), "a.rs".into(), vec!["crate::a::A".into()]),
            ]
        );
    }

    #[test]
    fn a_one_way_chain_is_no_circle() {
        let (_dir, graph) = crate_of(&[
            ("lib.rs", "mod a; mod b; mod c;"),
            ("a.rs", "use crate::b::B; pub struct A;"),
            ("b.rs", "use super::c; pub struct B(c::C);"),
            ("c.rs", "pub struct C;"),
        ]);
        assert_eq!(graph.circles(), []);
        let edges: Vec<(String, String)> =
            graph.edges().into_iter().map(|(f, t, _)| (f, t)).collect();
        assert_eq!(
            edges,
            [
                ("a.rs".into(), "b.rs".into()),
                ("b.rs".into(), "c.rs".into())
            ]
        );
    }

    #[test]
    fn re_exports_lead_to_the_defining_file() {
        // `kblpp/mod.rs` re-exports `forest::Cursor`; `ipf.rs` names it through the parent, and
        // the parent re-exports `ipf`'s item too: no circle between the parent and `ipf.rs`,
        // and `ipf.rs` stands on `forest.rs`.
        let (_dir, graph) = crate_of(&[
            ("lib.rs", "pub mod kblpp;"),
            (
                "kblpp/mod.rs",
                "mod forest; mod ipf; pub use forest::Cursor; pub use ipf::*;",
            ),
            ("kblpp/forest.rs", "pub struct Cursor;"),
            ("kblpp/ipf.rs", "use super::Cursor; pub struct Ipf(Cursor);"),
        ]);
        assert_eq!(graph.circles(), []);
        let edges: Vec<(String, String)> =
            graph.edges().into_iter().map(|(f, t, _)| (f, t)).collect();
        assert!(
            edges.contains(&("kblpp/ipf.rs".into(), "kblpp/forest.rs".into())),
            "{edges:?}"
        );
        assert!(
            !edges.contains(&("kblpp/ipf.rs".into(), "kblpp/mod.rs".into())),
            "{edges:?}"
        );
    }

    #[test]
    fn a_child_naming_its_parents_own_items_is_no_import() {
        let (_dir, graph) = crate_of(&[
            ("lib.rs", "mod check;"),
            (
                "check/mod.rs",
                "mod expr; pub struct Checker; fn f() { expr::check(); }",
            ),
            ("check/expr.rs", "use super::Checker; pub fn check() {}"),
        ]);
        assert_eq!(graph.circles(), []);
        let edges: Vec<(String, String)> =
            graph.edges().into_iter().map(|(f, t, _)| (f, t)).collect();
        assert_eq!(edges, [("check/mod.rs".into(), "check/expr.rs".into())]);
    }

    #[test]
    fn siblings_through_their_parent_are_a_circle() {
        // `a.rs` names `b.rs`'s item through the parent's re-export: that is an import of `b.rs`.
        let (_dir, graph) = crate_of(&[
            ("lib.rs", "mod m;"),
            ("m/mod.rs", "mod a; mod b; pub use b::B;"),
            ("m/a.rs", "pub struct A(super::B);"),
            ("m/b.rs", "pub struct B(Box<super::a::A>);"),
        ]);
        let circles = graph.circles();
        assert_eq!(circles.len(), 1, "{circles:?}");
        assert_eq!(circles[0].files, ["m/a.rs", "m/b.rs"]);
    }

    #[test]
    fn test_code_makes_no_edges() {
        let (_dir, graph) = crate_of(&[
            ("lib.rs", "mod a; mod b;"),
            (
                "a.rs",
                "pub struct A; #[cfg(test)] mod tests { use crate::b::B; }",
            ),
            ("b.rs", "pub struct B(crate::a::A);"),
        ]);
        assert_eq!(graph.circles(), []);
    }

    #[test]
    fn inline_modules_and_other_crates_make_no_edges() {
        let (_dir, graph) = crate_of(&[
            ("lib.rs", "mod a; pub struct Root;"),
            ("a.rs", "use std::fmt::Write; pub struct A; mod inner { use super::A; fn f(_: crate::a::A) {} }"),
        ]);
        assert_eq!(graph.edges(), []);
    }
}
