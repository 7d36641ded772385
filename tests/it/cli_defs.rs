//! The command line's flags are defined once: each shorthand flag of
//! `kifu::options::SHORTHANDS` parses into the option it sets, and is in
//! `kifu convert --help`, in the manual page and in the shell completions,
//! with the help built from the registry; `--no-validate` lists the
//! families whose readers replay the moves, and those are the families
//! whose readers `ReadOptions::no_validate` acts on.

use kifu::codec::ReadOptions;
use kifu::family::Family;
use kifu::format::by_name;
use kifu::options::run::SHORTHANDS;

use crate::common::{self, stderr};

fn kifu(args: &[&str]) -> std::process::Output {
    common::kifu(args, b"")
}

/// Standard output of a run that succeeded.
fn stdout(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", stderr(out));
    common::stdout(out)
}

/// The flag's value on the command line (a switch takes none).
fn value(flag: &str) -> &'static str {
    match flag {
        "rotate" => "90",
        _ => "x",
    }
}

#[test]
fn every_shorthand_parses_into_the_option_it_sets() {
    for s in SHORTHANDS {
        let flag = format!("--{}", s.flag);
        let mut args = vec!["convert", "--from", "coerceo", "--to", "coerceo", &flag];
        let shown = match s.switch {
            Some(v) => format!("{flag} {v}"),
            None => {
                args.push(value(s.flag));
                format!("{flag} {}", value(s.flag))
            }
        };
        // Coerceo has none of the options: the error names the flag as
        // given and the option it set.
        let out = kifu(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
        assert!(
            err.starts_with(&format!("kifu: {shown}: "))
                && err.contains(&format!("`{}`", s.option)),
            "{flag}: {err}"
        );
    }
}

#[test]
fn every_shorthand_is_in_help_with_its_help_from_the_registry() {
    let help = stdout(&kifu(&["convert", "--help"]));
    for s in SHORTHANDS {
        let spelled = match s.switch {
            Some(_) => format!("--{} ", s.flag),
            None => format!("--{} <{}>", s.flag, s.flag.to_uppercase()),
        };
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&spelled))
            .unwrap_or_else(|| panic!("{spelled} missing:\n{help}"));
        assert!(line.ends_with(&s.help()), "{line}");
        // Listed once.
        assert_eq!(help.matches(&spelled).count(), 1, "{spelled}");
    }
}

#[test]
fn every_shorthand_is_in_the_manual_page() {
    let page = stdout(&kifu(&["man", "convert"]));
    for s in SHORTHANDS {
        let flag = format!("\\fB\\-\\-{}\\fR", s.flag.replace('-', "\\-"));
        assert!(page.contains(&flag), "{flag} missing:\n{page}");
        let help = s.help().replace('-', "\\-").replace('\'', "\\*(Aq");
        assert!(page.contains(&help), "{help} missing:\n{page}");
    }
}

#[test]
fn every_shorthand_is_in_the_completions() {
    let bash = stdout(&kifu(&["completions", "bash"]));
    // The options of `kifu convert` are the line that lists --out-dir.
    let opts = bash
        .lines()
        .find(|l| l.contains("opts=") && l.contains("--out-dir"))
        .expect("convert's options");
    let listed: Vec<&str> = opts
        .trim()
        .trim_start_matches("opts=\"")
        .trim_end_matches('"')
        .split(' ')
        .collect();
    for s in SHORTHANDS {
        let flag = format!("--{}", s.flag);
        assert_eq!(
            listed.iter().filter(|o| **o == flag).count(),
            1,
            "{flag}: {opts}"
        );
        // A flag that takes a value completes one.
        assert_eq!(
            bash.contains(&format!("                {flag})\n")),
            s.switch.is_none(),
            "{flag}"
        );
    }
    for shell in ["zsh", "fish"] {
        let script = stdout(&kifu(&["completions", shell]));
        for s in SHORTHANDS {
            assert!(script.contains(s.flag), "{shell}: --{}", s.flag);
        }
    }
}

#[test]
fn no_validate_lists_the_families_whose_readers_replay_the_moves() {
    let help = stdout(&kifu(&["convert", "--help"]));
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("--no-validate"))
        .expect("--no-validate");
    assert!(line.ends_with(&kifu::report::no_validate_help()), "{line}");
    // Between the parentheses, before the colon: each family that replays,
    // and no other.
    let (_, listed) = line.split_once('(').expect("a list");
    let (listed, _) = listed.split_once(':').expect("a list");
    for &family in Family::ALL {
        let named = listed.split(", ").any(|n| n == family.name());
        assert_eq!(named, family.replays(), "{}: {line}", family.name());
    }
}

/// A record of the family, in one of its formats, with a move its rules
/// refuse where the family has rules to replay it by.
fn refused(family: Family) -> (&'static str, String) {
    match family.name() {
        "chess" => ("pgn", "1. e5 *\n".to_string()),
        "draughts" => (
            "draughts-num",
            "[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-23 *\n".to_string(),
        ),
        "coerceo" => ("coerceo", "1# 3c-3e 2# 3c-3e 1-0\n".to_string()),
        "tafl" => (
            "tafl",
            "[Rules \"brandubh\"]\n\n1. d2-e3xf3 *\n".to_string(),
        ),
        "tenjiku" => (
            "tenjiku",
            include_str!("../../corpus/tenjiku/seed.tenjiku")
                .replace("2. Nx7d= K-8a ", "2. Nx7d= K-8a 3. P-1a K-8b "),
        ),
        other => panic!("{other}: give the family a record here"),
    }
}

#[test]
fn the_families_that_replay_are_those_whose_readers_honour_no_validate() {
    for &family in Family::ALL {
        let (name, text) = refused(family);
        let format = by_name(name).unwrap();
        assert_eq!(format.family, Some(family));
        let read = format.read.unwrap();
        let replayed = read.game(&text, &ReadOptions::default());
        let loose = ReadOptions {
            no_validate: true,
            ..ReadOptions::default()
        };
        let by_text = read.game(&text, &loose);
        if family.replays() {
            assert!(replayed.is_err(), "{name}: {replayed:?}");
            assert!(by_text.is_ok(), "{name}: {by_text:?}");
        } else {
            // Nothing to turn off: the option changes nothing.
            assert_eq!(format!("{replayed:?}"), format!("{by_text:?}"), "{name}");
        }
    }
}

/// Every command of `kifu --help` has its manual page (`kifu man NAME`,
/// named `kifu-NAME`), `kifu man` names no command without one, and the
/// install loop of docs/cli.md installs every page.
#[test]
fn every_command_has_its_manual_page() {
    let help = stdout(&kifu(&["--help"]));
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(commands.len() >= 7, "{help}");
    for c in &commands {
        let out = kifu(&["man", c]);
        assert!(
            out.status.success(),
            "kifu man {c}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout(&out).contains(&format!(".TH kifu-{c} 1")),
            "kifu man {c}"
        );
    }
    // docs/cli.md's loop that installs the manual pages names every one.
    let cli = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    let installed: Vec<&str> = cli
        .lines()
        .find_map(|l| l.strip_prefix("for c in ")?.strip_suffix("; do"))
        .expect("docs/cli.md installs the manual pages in a loop")
        .split_whitespace()
        .collect();
    let mut sorted = commands.clone();
    sorted.sort_unstable();
    let mut listed = installed.clone();
    listed.sort_unstable();
    assert_eq!(listed, sorted, "docs/cli.md's manual-page loop");
    let page = stdout(&kifu(&["man"]));
    for named in page.split("kifu\\-").skip(1) {
        let name: String = named
            .chars()
            .take_while(|c| c.is_ascii_lowercase())
            .collect();
        assert!(
            commands.contains(&name.as_str()),
            "kifu man names kifu-{name}, no command"
        );
    }
}

/// The format arguments offer the registry's names to completions (bash's
/// `--from` offered file names), the readable ones for an input.
#[test]
fn format_arguments_take_the_registrys_names() {
    let bash = stdout(&kifu(&["completions", "bash"]));
    for flag in ["--from", "--to", "--from-a", "--from-b"] {
        let at = bash
            .find(&format!("                {flag})"))
            .unwrap_or_else(|| panic!("no {flag} in the completions"));
        let reply = bash[at..].lines().nth(1).unwrap();
        assert!(
            reply.contains("compgen -W \"pgn draughts-num"),
            "{flag}: {reply}"
        );
    }
    // A wrong name is kifu's to explain (tests/it/cli.rs, messages.rs).
    let out = kifu(&["convert", "--from", "nope", "--to", "json", "x.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown format `nope`"), "{err}");
}

/// `kifu man` on a terminal showed roff source. Under a terminal (made by
/// `script`), it runs the `man` found on `PATH` as `man -l -` with the
/// page's roff on its standard input; with no `man` there, it prints the
/// roff. (A pipe gets the roff, as every test above reads it.)
#[test]
fn kifu_man_on_a_terminal_opens_the_page_in_man() {
    let Some(script) = ["/usr/bin/script", "/bin/script"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
    else {
        eprintln!("skipped: no `script` to run kifu under a terminal");
        return;
    };
    let dir = common::scratch("cli_defs", "man_on_a_terminal");
    let bin = dir.join("bin");
    let _ = std::fs::remove_dir_all(&bin);
    std::fs::create_dir_all(&bin).unwrap();
    // A man that keeps its arguments and its standard input.
    let fake = bin.join("man");
    let seen = dir.join("seen");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\nPATH=/usr/bin:/bin\necho \"$@\" > '{0}.args'\ncat > '{0}.roff'\n",
            seen.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let kifu_bin = env!("CARGO_BIN_EXE_kifu");
    let under_terminal = |path: &std::path::Path| {
        std::process::Command::new(script)
            .args(["-qec", &format!("{kifu_bin} man convert"), "/dev/null"])
            .env("PATH", path)
            .output()
            .expect("script runs")
    };
    let out = under_terminal(&bin);
    assert!(out.status.success(), "{}", stderr(&out));
    let args = std::fs::read_to_string(dir.join("seen.args")).expect("man ran");
    assert_eq!(args.trim(), "-l -");
    let roff = std::fs::read_to_string(dir.join("seen.roff")).unwrap();
    assert!(roff.contains(".TH kifu-convert 1"), "{roff}");
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains(".TH"),
        "the roff went to man, not to the terminal"
    );
    // No man on PATH: the roff, on the terminal.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = under_terminal(&empty);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains(".TH kifu-convert 1"));
}
