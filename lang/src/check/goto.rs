//! Statement labels and `goto` (C99 6.8.1, 6.8.6.1).
//!
//! Labels have function scope: a `goto` may name a label before or after it, in any block of
//! the same function (jumping into a loop from outside is allowed and makes the control-flow
//! graph irreducible; see docs/language.md on what a loop header is then). Each label is
//! defined once; every label used by a `goto` must be defined. Labels are numbered per function
//! in order of first mention ([`LabelId`]).

use std::collections::HashMap;

use crate::diag::Diagnostic;
use crate::hir::LabelId;
use crate::span::Span;

use super::Checker;

/// The labels of the function being checked.
#[derive(Default)]
pub(super) struct Labels {
    /// Every label mentioned, with its id, where it is defined and where it was first used.
    by_name: HashMap<String, Label>,
}

/// One label.
struct Label {
    id: LabelId,
    defined: Option<Span>,
    first_use: Option<Span>,
}

impl Labels {
    /// The label `name`, created at its first mention.
    fn entry(&mut self, name: &str) -> &mut Label {
        let next = LabelId::new(self.by_name.len());
        self.by_name.entry(name.to_string()).or_insert(Label {
            id: next,
            defined: None,
            first_use: None,
        })
    }
}

impl Checker<'_> {
    /// `name:` at `span`: the label's id, or `None` if it is already defined.
    pub(super) fn define_label(&mut self, name: &str, span: Span) -> Option<LabelId> {
        let fs = self.fs.as_mut()?;
        let label = fs.labels.entry(name);
        if let Some(previous) = label.defined {
            let note = format!("previous definition at {}", self.at(previous));
            self.error(
                Diagnostic::error(span, format!("duplicate label `{name}`")).with_note(note),
            );
            return None;
        }
        label.defined = Some(span);
        Some(label.id)
    }

    /// `goto name;` at `span`: the label's id.
    pub(super) fn use_label(&mut self, name: &str, span: Span) -> Option<LabelId> {
        let fs = self.fs.as_mut()?;
        let label = fs.labels.entry(name);
        label.first_use.get_or_insert(span);
        Some(label.id)
    }

    /// At the end of a function: every label used must be defined.
    pub(super) fn check_labels(&mut self) {
        let Some(fs) = self.fs.as_ref() else { return };
        let mut missing: Vec<(Span, String)> = fs
            .labels
            .by_name
            .iter()
            .filter(|(_, l)| l.defined.is_none())
            .filter_map(|(name, l)| Some((l.first_use?, name.clone())))
            .collect();
        missing.sort();
        let function = fs.name.clone();
        for (span, name) in missing {
            self.err(
                span,
                format!("label `{name}` used but not defined in function `{function}`"),
            );
        }
    }
}
