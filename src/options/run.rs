//! The options of one run: what was given on the command line, checked
//! against the formats the run reads and writes, built into each format's
//! typed options ([`resolve`]). Above the format list, which the options'
//! own floor ([`crate::options`]) does not know.

use crate::error::Error;
use crate::format::Format;
use crate::options::{FormatOption, Given, Settings, Side, Values};

/// The typed options of every format of a run.
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    read: Vec<(&'static str, Settings)>,
    write: Settings,
}

impl Resolved {
    /// The options for reading `format`.
    pub fn read(&self, format: &Format) -> Settings {
        self.read
            .iter()
            .find(|(name, _)| *name == format.name)
            .map(|(_, s)| s.clone())
            .unwrap_or_default()
    }

    /// The options for writing the output format.
    pub fn write(&self) -> Settings {
        self.write.clone()
    }
}

/// Checks what was given against the formats of a run (`from`: the input
/// formats; `to`: the output format) and builds each format's typed
/// options. Each given option acts on every format of its sides that
/// declares it, and is a usage error, listing the formats' options, when
/// none does (or when a format refuses its value).
pub fn resolve(
    given: &[Given],
    from: &[&'static Format],
    to: &'static Format,
) -> Result<Resolved, Error> {
    let mut inputs: Vec<&'static Format> = Vec::new();
    for &f in from {
        if !inputs.iter().any(|g| std::ptr::eq(*g, f)) {
            inputs.push(f);
        }
    }
    let from = &inputs[..];
    let sides = |side| match side {
        Side::Read => from,
        Side::Write => std::slice::from_ref(&to),
    };
    for g in given {
        let formats: Vec<(Side, &'static Format)> = [Side::Read, Side::Write]
            .into_iter()
            .filter(|&s| g.sides.has(s))
            .flat_map(|s| sides(s).iter().map(move |&f| (s, f)))
            .collect();
        // A side without formats (no input found) has nothing to set.
        if !formats.is_empty()
            && !formats
                .iter()
                .any(|(s, f)| f.options.declared(&g.name, *s).is_some())
        {
            return Err(Error::Usage(undeclared_error(g, &formats)));
        }
    }
    let build = |side: Side, f: &'static Format| -> Result<Settings, Error> {
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        let mut origins: Vec<&Given> = Vec::new();
        for g in given.iter().filter(|g| g.sides.has(side)) {
            let Some(option) = f.options.declared(&g.name, side) else {
                continue;
            };
            let value = match option.values {
                Values::OneOf(words) => *words
                    .iter()
                    .find(|w| w.eq_ignore_ascii_case(g.value.trim()))
                    .ok_or_else(|| {
                        Error::Usage(format!(
                            "{}: {}: `{}` is not a value of {}: give {}",
                            g.shown,
                            f.name,
                            g.value,
                            option.name,
                            words.join(", ")
                        ))
                    })?,
                Values::Kind(_) => g.value.as_str(),
            };
            pairs.push((option.name, value));
            origins.push(g);
        }
        f.options.build(&pairs).map_err(|(i, e)| {
            let shown = origins.get(i).map_or("", |g| g.shown.as_str());
            Error::Usage(format!("{shown}: {}: {e}", f.name))
        })
    };
    let mut resolved = Resolved {
        write: build(Side::Write, to)?,
        read: Vec::new(),
    };
    for &f in from {
        resolved.read.push((f.name, build(Side::Read, f)?));
    }
    Ok(resolved)
}

/// The error for an option that no format of its sides declares: which
/// formats those are, and what options each has.
fn undeclared_error(g: &Given, formats: &[(Side, &'static Format)]) -> String {
    let role = |side| match side {
        Side::Read => "input",
        Side::Write => "output",
    };
    let mut text = match formats {
        [(side, f)] => {
            let other_side = f.options.list.iter().any(|o| o.name == g.name);
            format!(
                "{}: the {} format {} has no option `{}`{}",
                g.shown,
                role(*side),
                f.name,
                g.name,
                if other_side {
                    format!(" when {}", side.doing())
                } else {
                    String::new()
                }
            )
        }
        _ => {
            let which: Vec<String> = formats
                .iter()
                .map(|(side, f)| format!("{} {}", role(*side), f.name))
                .collect();
            format!(
                "{}: no format of this run has an option `{}` ({})",
                g.shown,
                g.name,
                which.join(", ")
            )
        }
    };
    let mut listed: Vec<&str> = Vec::new();
    for (_, f) in formats {
        if listed.contains(&f.name) {
            continue;
        }
        listed.push(f.name);
        let options: Vec<String> = f.options.list.iter().map(FormatOption::describe).collect();
        text.push_str(&match options.is_empty() {
            true => format!("; {} has no options", f.name),
            false => format!("; {}'s options: {}", f.name, options.join("; ")),
        });
    }
    text
}
