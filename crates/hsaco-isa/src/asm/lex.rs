//! Statement text -> mnemonic, operands and modifiers (spans only; no allocation beyond
//! the small vectors of the statement).

use std::ops::Range;

/// One statement split at its top level.
#[derive(Debug, Default)]
pub(crate) struct Statement {
    /// Mnemonic span.
    pub mnemonic: Range<usize>,
    /// Operand spans (comma separated, in order).
    pub operands: Vec<Range<usize>>,
    /// Modifier spans (space separated words after the last operand).
    pub modifiers: Vec<Range<usize>>,
}

/// Byte ranges of `text[range]` split at top-level `sep` (outside `()`, `[]`).
fn split_top(text: &str, range: Range<usize>, comma: bool, out: &mut Vec<Range<usize>>) {
    let b = text.as_bytes();
    let mut depth = 0i32;
    let mut start = range.start;
    let mut i = range.start;
    let push = |s: usize, e: usize, out: &mut Vec<Range<usize>>| {
        let (mut s, mut e) = (s, e);
        while s < e && b[s].is_ascii_whitespace() {
            s += 1;
        }
        while e > s && b[e - 1].is_ascii_whitespace() {
            e -= 1;
        }
        if s < e {
            out.push(s..e);
        }
    };
    while i < range.end {
        let c = b[i];
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'"' => {
                // quoted text (swizzle BITMASK_PERM)
                i += 1;
                while i < range.end && b[i] != b'"' {
                    i += 1;
                }
            }
            _ => {}
        }
        let split = depth <= 0
            && if comma {
                c == b','
            } else {
                c.is_ascii_whitespace()
            };
        if split {
            push(start, i, out);
            start = i + 1;
        }
        i += 1;
    }
    push(start, range.end, out);
}

/// Whether a word is a modifier rather than an operand: `name:value` (outside brackets)
/// or a bare flag name.
pub(crate) fn looks_like_modifier(word: &str) -> bool {
    let b = word.as_bytes();
    let mut depth = 0;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b':' if depth == 0 => return b.get(i + 1) != Some(&b':') && i > 0,
            _ => {}
        }
    }
    false
}

/// Split `text[range]` (one half of a statement) into mnemonic, operands, modifiers.
pub(crate) fn split(text: &str, range: Range<usize>) -> Statement {
    let b = text.as_bytes();
    let mut s = range.start;
    while s < range.end && b[s].is_ascii_whitespace() {
        s += 1;
    }
    let mut e = s;
    while e < range.end && !b[e].is_ascii_whitespace() {
        e += 1;
    }
    let mut st = Statement {
        mnemonic: s..e,
        ..Statement::default()
    };
    let mut groups = Vec::new();
    split_top(text, e..range.end, true, &mut groups);
    let n = groups.len();
    for (gi, g) in groups.into_iter().enumerate() {
        if gi + 1 < n {
            st.operands.push(g);
            continue;
        }
        let mut words = Vec::new();
        split_top(text, g.clone(), false, &mut words);
        // the operand: the first word, joined with the words of a spaced operand
        // (`vmcnt(0) lgkmcnt(0)`, `instid0(..) | instskip(..)`)
        let mut k = 0;
        let mut op_end = None;
        if let Some(first) = words.first() {
            let w = &text[first.clone()];
            if !looks_like_modifier(w) {
                op_end = Some(first.end);
                k = 1;
                let spaced = |w: &str| {
                    w == "|"
                        || w == "&"
                        || (w.ends_with(')')
                            && w.find('(').is_some_and(|p| {
                                p > 0
                                    && w[..p]
                                        .bytes()
                                        .all(|c| c.is_ascii_alphanumeric() || c == b'_')
                            })
                            && !looks_like_modifier(w))
                };
                let first_spaced = spaced(w);
                while k < words.len() {
                    let w2 = &text[words[k].clone()];
                    let prev = &text[words[k - 1].clone()];
                    if (first_spaced && spaced(w2))
                        || prev == "|"
                        || prev == "&"
                        || w2 == "|" && first_spaced
                    {
                        op_end = Some(words[k].end);
                        k += 1;
                    } else {
                        break;
                    }
                }
            }
        }
        if let (Some(end), Some(first)) = (op_end, words.first()) {
            st.operands.push(first.start..end);
        }
        st.modifiers.extend(words.into_iter().skip(k));
    }
    st
}
