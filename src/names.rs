//! Symbol names for people: C++ names demangled (`--demangle`, as llvm-objdump -C).

use cpp_demangle::{DemangleOptions, Symbol};

/// The demangled form of an Itanium C++ name (`_Z...`), as llvm-cxxfilt prints it,
/// or `None` for a name that is not mangled or does not demangle (it is then shown
/// as it is, as LLVM's tools do). A vendor suffix such as the kernel descriptor's
/// `.kd` is kept in parentheses: `f(int) (.kd)`.
pub fn demangle(name: &str) -> Option<String> {
    if !name.starts_with("_Z") {
        return None;
    }
    // LLVM's demangler takes everything from the first `.` after the encoding as a
    // suffix and prints it as ` (.suffix)`; cpp_demangle prints clone suffixes as
    // ` [clone .suffix]` (GNU c++filt's form), so the suffix is split off here.
    let (encoding, suffix) = match name.find('.') {
        Some(dot) => (&name[..dot], Some(&name[dot..])),
        None => (name, None),
    };
    let sym = Symbol::new(encoding).ok()?;
    let text = sym.demangle_with_options(&DemangleOptions::new()).ok()?;
    let text = llvm_closures(&text, unnamed_number(encoding).as_deref());
    Some(match suffix {
        Some(s) => format!("{text} ({s})"),
        None => text,
    })
}

/// The number LLVM prints in `'unnamed…'` for the unnamed types (`Ut [n] _`) of a
/// mangled name: the digits, empty for `Ut_`, when all of its unnamed types have the
/// same; `None` when they differ (cpp_demangle prints both `Ut_` and `Ut0_` as
/// `{unnamed type#1}`, so its text cannot tell them apart; such names keep that
/// form).
fn unnamed_number(mangled: &str) -> Option<String> {
    let mut found: Option<&str> = None;
    let mut rest = mangled;
    while let Some(at) = rest.find("Ut") {
        let tail = &rest[at + 2..];
        let digits = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if tail[digits..].starts_with('_') {
            match found {
                Some(f) if f != &tail[..digits] => return None,
                _ => found = Some(&tail[..digits]),
            }
        }
        rest = tail;
    }
    Some(found.unwrap_or("").to_string())
}

/// cpp_demangle names closures and unnamed types as GNU c++filt does
/// (`{lambda(int)#1}`, `{unnamed type#1}`); LLVM's demangler writes `'lambda'(int)`
/// and `'unnamed0'`: the mangled number (none for the first, 0 for the second, ...)
/// inside the quotes. This rewrites the former into the latter; `unnamed` is the
/// number of the unnamed types ([`unnamed_number`]), `None` to leave them.
fn llvm_closures(text: &str, unnamed: Option<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if let Some((args, n, after)) = closure(rest, "{lambda(") {
            out.push_str(&format!("'lambda{n}'({})", llvm_closures(args, unnamed)));
            rest = after;
        } else if let Some((n, after)) = unnamed.zip(closure(rest, "{unnamed type")) {
            out.push_str(&format!("'unnamed{n}'"));
            rest = after.2;
        } else {
            out.push('{');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    literals(&vector_types(&out))
        .replace("> >", ">>")
        .replace("> >", ">>")
}

/// Integer literals of template arguments: cpp_demangle writes `(unsigned int)5`,
/// LLVM `5u` (and `l`, `ul`, `ll`, `ull`; other types keep the cast form, as there).
fn literals(text: &str) -> String {
    const SUFFIXES: [(&str, &str); 5] = [
        ("(unsigned long long)", "ull"),
        ("(unsigned long)", "ul"),
        ("(unsigned int)", "u"),
        ("(long long)", "ll"),
        ("(long)", "l"),
    ];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'scan: while let Some(at) = rest.find('(') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        for (cast, suffix) in SUFFIXES {
            let Some(tail) = rest.strip_prefix(cast) else {
                continue;
            };
            let sign = usize::from(tail.starts_with('-'));
            let digits = tail[sign..].len()
                - tail[sign..]
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .len();
            if digits > 0 {
                out.push_str(&tail[..sign + digits]);
                out.push_str(suffix);
                rest = &tail[sign + digits..];
                continue 'scan;
            }
        }
        out.push('(');
        rest = &rest[1..];
    }
    out.push_str(rest);
    out
}

/// Vector types (`Dv4_f`): cpp_demangle writes `float __vector(4)` as GNU c++filt
/// does, LLVM `float vector[4]`.
fn vector_types(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("__vector(") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + "__vector(".len()..];
        let digits = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        match tail[digits..].strip_prefix(')') {
            Some(after) if digits > 0 => {
                out.push_str(&format!("vector[{}]", &tail[..digits]));
                rest = after;
            }
            _ => {
                out.push_str("__vector(");
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `{lambda(ARGS)#N}` (`open` = `{lambda(`) or `{unnamed type#N}`: the arguments,
/// LLVM's number (empty for N = 1, N - 2 after) and the text after the `}`.
fn closure<'t>(s: &'t str, open: &str) -> Option<(&'t str, String, &'t str)> {
    let body = s.strip_prefix(open)?;
    let (args, tail) = if open.ends_with('(') {
        let mut depth = 1usize;
        let close = body.char_indices().find_map(|(i, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i)
        })?;
        (&body[..close], &body[close + 1..])
    } else {
        ("", body)
    };
    let tail = tail.strip_prefix('#')?;
    let digits = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let n: u64 = tail[..digits].parse().ok()?;
    let after = tail[digits..].strip_prefix('}')?;
    let llvm = if n <= 1 {
        String::new()
    } else {
        (n - 2).to_string()
    };
    Some((args, llvm, after))
}

#[cfg(test)]
mod tests {
    /// Every C++ symbol of the library fixtures (anonymous and inline namespaces,
    /// lambdas, member pointers, vector and extended types, vendor suffixes such as
    /// `.kd`) demangles as llvm-cxxfilt-22 prints it (tests/cli/data/library/build.sh
    /// recorded its output); a name LLVM leaves as it is stays as it is.
    #[test]
    fn demangles_as_llvm_cxxfilt() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/cli/data/library/demangle.txt"
        );
        let table = std::fs::read_to_string(path).expect("demangle.txt");
        let mut n = 0;
        for line in table.lines() {
            let (mangled, llvm) = line.split_once('\t').expect("NAME<TAB>DEMANGLED");
            let ours = super::demangle(mangled).unwrap_or_else(|| mangled.to_string());
            assert_eq!(ours, llvm, "{mangled}");
            n += 1;
        }
        assert!(n > 300, "{n} names");
        assert_eq!(super::demangle("vadd_f32"), None);
        assert_eq!(
            super::llvm_closures(
                "f<{lambda({lambda()#1})#3}, {unnamed type#1}, {x}>",
                Some("4")
            ),
            "f<'lambda1'('lambda'()), 'unnamed4', {x}>"
        );
        assert_eq!(
            super::unnamed_number("_Z1fIN1SUt_EN1TUt_EEvv").as_deref(),
            Some("")
        );
        assert_eq!(super::unnamed_number("_Z1fIN1SUt_EN1TUt0_EEvv"), None);
    }
}
