//! The options of one run: what was given on the command line, checked
//! against the formats the run reads and writes, built into each format's
//! typed options ([`resolve`]); and the shorthand flags ([`SHORTHANDS`]) and
//! the help that lists every format's options ([`help`]). Above the format list, which the options'
//! own floor ([`crate::options`]) does not know.

use crate::error::Error;
use crate::format::{Format, FORMATS};
use crate::options::{FormatOption, Given, Settings, Side, Sides, Values};

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

/// A flag kept from before options belonged to formats (`--pieces`,
/// `--variant`, `--rotate`, `--mirror`): it sets one format option, on its
/// sides, of every format of the run that has it. [`SHORTHANDS`] is the one
/// list of them: the command line's flags, their help and what they set
/// come from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shorthand {
    /// The flag, without its dashes.
    pub flag: &'static str,
    /// The option it sets.
    pub option: &'static str,
    /// The sides it sets the option on.
    pub sides: Sides,
    /// For a flag that takes no value (a switch), the value it sets
    /// (`--mirror` is `--to-opt mirror=yes`); `None`: the flag's value.
    pub switch: Option<&'static str>,
}

/// Every shorthand flag, in the order what they set is given (before
/// `--from-opt` and `--to-opt`, which win over them).
pub const SHORTHANDS: &[Shorthand] = &[
    Shorthand {
        flag: "pieces",
        option: "pieces",
        sides: Sides::Both,
        switch: None,
    },
    Shorthand {
        flag: "variant",
        option: "board",
        sides: Sides::Read,
        switch: None,
    },
    Shorthand {
        flag: "rotate",
        option: "rotate",
        sides: Sides::Write,
        switch: None,
    },
    Shorthand {
        flag: "mirror",
        option: "mirror",
        sides: Sides::Write,
        switch: Some("yes"),
    },
];

impl Shorthand {
    /// The flag as a command that only reads takes it (`kifu diff`): on
    /// the reading side alone; `None` for one that only sets how games
    /// are written.
    pub fn reading(&self) -> Option<Shorthand> {
        self.sides.has(Side::Read).then_some(Shorthand {
            sides: Sides::Read,
            ..*self
        })
    }

    /// The option given by the flag with `value` (the switch's own value
    /// for a switch).
    pub fn given(&self, value: &str) -> Given {
        Given::shorthand(&format!("--{}", self.flag), self.sides, self.option, value)
    }

    /// The flag's help, from the registry: what it sets, the formats that
    /// have the option, and its values (or, for a switch, what the option
    /// does), each description with its formats where they differ.
    pub fn help(&self) -> String {
        let mut formats = Vec::new();
        // Each description of the values, with the formats it is theirs.
        let mut values: Vec<(String, Vec<&str>)> = Vec::new();
        for f in FORMATS {
            let declared = [Side::Read, Side::Write]
                .into_iter()
                .filter(|&s| self.sides.has(s))
                .find_map(|s| f.options.declared(self.option, s));
            if let Some(o) = declared {
                formats.push(f.name);
                let v = match (self.switch, o.values) {
                    (Some(_), _) => o.help.to_string(),
                    (None, Values::Kind(kind)) => kind.to_string(),
                    (None, Values::OneOf(words)) => words.join(", "),
                };
                match values.iter_mut().find(|(w, _)| *w == v) {
                    Some((_, fs)) => fs.push(f.name),
                    None => values.push((v, vec![f.name])),
                }
            }
        }
        let values = match values.as_slice() {
            [(v, _)] => v.clone(),
            _ => values
                .iter()
                .map(|(v, fs)| format!("{}: {v}", fs.join(", ")))
                .collect::<Vec<_>>()
                .join("; "),
        };
        let set: Vec<String> = [Side::Read, Side::Write]
            .into_iter()
            .filter(|&s| self.sides.has(s))
            .map(|s| {
                format!(
                    "{} {}={}",
                    s.flag(),
                    self.option,
                    self.switch.unwrap_or("...")
                )
            })
            .collect();
        format!(
            "Shorthand for {} on the formats that have it ({}): {values}",
            set.join(" "),
            formats.join(", ")
        )
    }
}

/// The options of every format, for `kifu convert --help`: how they are
/// set, then one line per option of each format.
pub fn help() -> String {
    let flags: Vec<String> = SHORTHANDS.iter().map(|s| format!("--{}", s.flag)).collect();
    let flags = match flags.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    let mut text = format!(
        "Format options (--from-opt NAME=VALUE sets an option of the input format, --to-opt \
         NAME=VALUE one of the output format; a later value wins over an earlier one and over \
         {flags}):"
    );
    for f in FORMATS {
        for o in f.options.list {
            text.push_str(&format!("\n  {:<14} {}", f.name, o.describe()));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shorthand_sets_an_option_some_format_declares_on_its_sides() {
        for s in SHORTHANDS {
            let declared = FORMATS.iter().any(|f| {
                [Side::Read, Side::Write]
                    .into_iter()
                    .any(|side| s.sides.has(side) && f.options.declared(s.option, side).is_some())
            });
            assert!(declared, "--{}", s.flag);
            if let Some(v) = s.switch {
                // A switch's value is one its option takes, on every format.
                for f in FORMATS {
                    if let Some(o) = f.options.declared(s.option, Side::Write) {
                        assert!(matches!(o.values, Values::OneOf(w) if w.contains(&v)));
                    }
                }
            }
        }
    }

    #[test]
    fn shorthand_help_comes_from_the_registry() {
        let help = |flag: &str| SHORTHANDS.iter().find(|s| s.flag == flag).unwrap().help();
        assert_eq!(
            help("rotate"),
            "Shorthand for --to-opt rotate=... on the formats that have it (tafl, otn): 0, 90, \
             180, 270"
        );
        assert_eq!(
            help("mirror"),
            "Shorthand for --to-opt mirror=yes on the formats that have it (tafl, otn): mirror \
             every square left to right (after a rotation)"
        );
        assert!(help("pieces").starts_with(
            "Shorthand for --from-opt pieces=... --to-opt pieces=... on the formats that have it \
             (sllavcco, sllavcco-html, svg, html): "
        ));
        assert!(super::help().contains("and over --pieces, --variant, --rotate and --mirror):"));
        let g = SHORTHANDS[3].given("yes");
        assert_eq!(
            (g.name.as_str(), g.shown.as_str()),
            ("mirror", "--mirror yes")
        );
    }
}
