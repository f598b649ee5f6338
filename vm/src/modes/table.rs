//! The table of the profiling modes: the one place a mode is registered.
//!
//! `for_each_mode!` lists every mode once: the [`Mode`] value that
//! names it (in `--profile`, in the profile's `mode` and in reports), its name, the type that
//! implements [`super::Profiler`] for it, and whether it takes `K` (`kbl:8`, `kiter:2`). The
//! [`Mode`] enum below and every dispatch on a mode (running it in [`crate::run`], drawing its
//! report section in [`super::report_section`]) are generated from it, the way wasmi generates
//! its instruction set from one `for_each_op` list. This module is a leaf: it imports none of
//! the modes, so the profile format can name modes without depending on them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Calls the macro `$then` (in scope where this is invoked) with the table of modes: one
/// `Variant => "name", Type, k: bool;` row per mode, each with its doc comment. To add a mode,
/// add its row here and write its module.
macro_rules! for_each_mode {
    ($then:ident) => {
        $then! {
            /// No probes, no tier-0 counters: nothing is measured (`paths` are empty).
            None => "none", $crate::modes::none::NoProfiling, k: false;
            /// Tier-0 counters only (`paths` are empty).
            Edge => "edge", $crate::modes::edge::Edge, k: false;
            /// Ball-Larus path counts.
            Bl => "bl", $crate::modes::bl::Bl, k: false;
            /// Every block entered recorded; paths counted by definition from the record.
            Trace => "trace", $crate::modes::trace::Trace, k: false;
            /// k-BLPP (Delia, Demetrescu & Finocchi 2013): the Ball-Larus paths, and every
            /// sequence of up to `k` consecutive ones in an activation, in a k-slab forest
            /// (`ipf` per function).
            Kbl => "kbl", $crate::modes::kbl::Kbl, k: true;
            /// Roy & Srikant's k-iteration paths (2009), perfectly numbered (`paths` are
            /// k-iteration paths).
            Kiter => "kiter", $crate::modes::kiter::Kiter, k: true;
            /// Tallam, Zhang & Gupta's overlapping paths (2004): each Ball-Larus path that
            /// ends by a back edge with the blocks after it up to the `(K + 1)`-th predicate
            /// (`overlap` of `paths`); `K` from 0.
            Ol => "ol", $crate::modes::ol::Ol, k: true;
            /// Melski & Reps' interprocedural context paths (1998, section 5): unbalanced-left
            /// paths across calls and returns, with their calling context (`interprocedural`).
            #[serde(rename = "ipp:context")]
            IppContext => "ipp:context", $crate::modes::ipp::IppContext, k: false;
            /// Melski & Reps' interprocedural piecewise paths (1998, section 6):
            /// unbalanced-right-left paths across calls and returns (`interprocedural`).
            #[serde(rename = "ipp:piecewise")]
            IppPiecewise => "ipp:piecewise", $crate::modes::ipp::IppPiecewise, k: false;
        }
    };
}

pub(crate) use for_each_mode;

/// Declares [`Mode`] from the table.
macro_rules! declare_modes {
    ($($(#[$doc:meta])* $variant:ident => $name:literal, $type:path, k: $k:literal;)*) => {
        /// The profiling mode of a run (`--profile=MODE`), as the table lists them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Mode {
            $($(#[$doc])* $variant,)*
        }

        impl Mode {
            /// Every mode, in the table's order.
            pub const ALL: &'static [Mode] = &[$(Mode::$variant),*];

            /// The name used on the command line and in the JSON.
            pub fn name(self) -> &'static str {
                match self {
                    $(Mode::$variant => $name,)*
                }
            }

            /// Whether the mode takes `K` (`--profile=NAME:K`).
            pub fn takes_k(self) -> bool {
                match self {
                    $(Mode::$variant => $k,)*
                }
            }
        }
    };
}

for_each_mode!(declare_modes);

/// The largest `K` of the modes that take one.
pub const MAX_K: u32 = 64;

impl Mode {
    /// The `K` the mode accepts: 0 to [`profiler::overlap::MAX_OVERLAP`] for `ol` (its
    /// degree of overlap), 1 to [`MAX_K`] for the others that take one.
    pub fn k_range(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Mode::Ol => 0..=profiler::overlap::MAX_OVERLAP,
            _ => 1..=MAX_K,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Mode::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
                let (last, rest) = names.split_last().expect("the table has modes");
                format!(
                    "unknown profile mode '{s}' (expected {} or {last})",
                    rest.join(", ")
                )
            })
    }
}

/// Parses a `--profile` value, `NAME` or `NAME:K`, into the mode and its `K` (1 for a mode
/// that takes none); the error says what is wrong.
pub fn parse_spec(s: &str) -> Result<(Mode, u32), String> {
    // A name with a colon of its own (`ipp:context`) takes no K.
    if let Ok(mode) = s.parse::<Mode>() {
        if !mode.takes_k() {
            return Ok((mode, 1));
        }
    }
    let (name, k) = match s.split_once(':') {
        Some((name, k)) => (name, Some(k)),
        None => (s, None),
    };
    let mode: Mode = name.parse()?;
    let k = match (k, mode.takes_k()) {
        (None, false) => 1,
        (Some(_), false) => {
            return Err(format!("mode '{name}' takes no K (write --profile={name})"))
        }
        (None, true) => {
            return Err(format!(
                "mode '{name}' needs K: --profile={name}:K, e.g. {name}:4"
            ))
        }
        (Some(k), true) => {
            let range = mode.k_range();
            match k.parse::<u32>() {
                Ok(k) if range.contains(&k) => k,
                _ => {
                    return Err(format!(
                        "K must be an integer from {} to {}, not '{k}'",
                        range.start(),
                        range.end()
                    ))
                }
            }
        }
    };
    Ok((mode, k))
}

/// A mode and its `K` as `--profile` writes them: `bl`, `kbl:8`.
pub fn spec_name(mode: Mode, k: u32) -> String {
    if mode.takes_k() {
        format!("{mode}:{k}")
    } else {
        mode.name().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_k_is_checked() {
        for &m in Mode::ALL {
            assert_eq!(m.name().parse::<Mode>(), Ok(m));
            let spec = spec_name(m, 3);
            assert_eq!(parse_spec(&spec), Ok((m, if m.takes_k() { 3 } else { 1 })));
        }
        assert_eq!(
            "fast".parse::<Mode>().unwrap_err(),
            "unknown profile mode 'fast' (expected none, edge, bl, trace, kbl, kiter, ol, ipp:context or ipp:piecewise)"
        );
        assert!(parse_spec("bl:2").unwrap_err().contains("takes no K"));
        assert!(parse_spec("kbl").unwrap_err().contains("needs K"));
        assert!(parse_spec("kiter:0").unwrap_err().contains("from 1 to 64"));
        assert_eq!(parse_spec("kiter:64"), Ok((Mode::Kiter, 64)));
    }

    #[test]
    fn the_json_name_is_the_table_name() {
        for &m in Mode::ALL {
            assert_eq!(
                serde_json::to_string(&m).unwrap(),
                format!("\"{}\"", m.name())
            );
        }
    }
}
