//! How values are written in messages: strings quoted as JS source would, numbers as JS's
//! `String(n)` prints them. Hand-rolled rather than `{:?}` so the wasm carries no Unicode
//! printability tables for error messages.

/// The string in double quotes with escapes, cut after 100 characters.
pub fn quote(s: &str) -> String {
    match s.char_indices().nth(100) {
        None => escaped(s),
        Some((cut, _)) => format!("{}... ({} characters)", escaped(s.get(..cut).unwrap_or(s)), s.chars().count()),
    }
}

/// A number as JS's `String(n)` prints it: `NaN`, `Infinity`, `1e+21`, `1.5e-7`, `0` for -0.
/// In the browser JS itself prints it, so the wasm carries no float formatting (`core::fmt`'s
/// Grisu and Dragon) for error messages.
#[cfg(target_arch = "wasm32")]
pub fn js_number(n: f64) -> String {
    #[wasm_bindgen::prelude::wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_name = String)]
        fn js_string(n: f64) -> String;
    }
    js_string(n)
}

/// The host's copy of `String(n)`, for `cargo test` (the browser suite checks the JS one).
#[cfg(not(target_arch = "wasm32"))]
pub fn js_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if n == 0.0 {
        "0".into()
    } else if n.abs() >= 1e21 || n.abs() < 1e-6 {
        let e = format!("{n:e}");
        match e.split_once('e') {
            Some((m, x)) if !x.starts_with('-') => format!("{m}e+{x}"),
            _ => e,
        }
    } else {
        format!("{n}")
    }
}


/// Where `needle` first occurs in `s`, as a byte offset. Searched byte by byte rather than with
/// `str::find`/`contains`/`replacen` and a `&str` pattern: those link core's two-way
/// `StrSearcher` and, through it, the panic of a string sliced off a character boundary with
/// `char`'s and `Range`'s Debug into the wasm, for a few short messages.
pub fn find(s: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    s.as_bytes().windows(needle.len()).position(|w| w == needle.as_bytes())
}

/// `s` with the first `from` replaced by `to` (`str::replacen(from, to, 1)`).
pub fn replace_first(s: &str, from: &str, to: &str) -> String {
    match find(s, from) {
        // A match of a whole string starts and ends on character boundaries.
        Some(i) => [s.get(..i).unwrap_or_default(), to, s.get(i + from.len()..).unwrap_or_default()].concat(),
        None => s.to_owned(),
    }
}

/// `s` in double quotes, with `"`, `\\` and control characters escaped.
fn escaped(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_quoted_as_in_source() {
        assert_eq!(quote("abc"), r#""abc""#);
        assert_eq!(quote("say \"hi\"\n"), r#""say \"hi\"\n""#);
        assert_eq!(quote("café"), r#""café""#);
        let long = "x".repeat(150);
        assert_eq!(quote(&long), format!("\"{}\"... (150 characters)", "x".repeat(100)));
    }

    #[test]
    fn searches_and_replacements_match_the_standard_library() {
        for (s, needle) in [("abc", "b"), ("abc", "x"), ("", "a"), ("aaa", "aa"), ("a", ""), ("café: é", ": "), ("ééé", "é"), ("xy", "xyz")] {
            assert_eq!(find(s, needle), s.find(needle), "{s:?} {needle:?}");
            for to in ["", "0 (no limit) or ", "ü"] {
                assert_eq!(replace_first(s, needle, to), s.replacen(needle, to, 1), "{s:?} {needle:?} {to:?}");
            }
        }
    }

    #[test]
    fn numbers_print_as_in_javascript() {
        for (n, want) in [(1.0, "1"), (0.25, "0.25"), (-0.0, "0"), (f64::NAN, "NaN"), (f64::NEG_INFINITY, "-Infinity"), (1e21, "1e+21"), (1.5e-7, "1.5e-7")] {
            assert_eq!(js_number(n), want);
        }
    }
}
