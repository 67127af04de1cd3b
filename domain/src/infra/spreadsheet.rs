//! CSV the platform writes and reads, made safe for spreadsheets.
//!
//! Writing: every cell of every CSV the platform writes (exports, batch results) goes through
//! [`neutralise`]: text that a spreadsheet would run as a formula gets a leading apostrophe.
//! Reading: users' batch files are read by [`read_strict`], which refuses what a lenient reader
//! would silently fold into another row (an unterminated quote swallowing the rest of the file,
//! one row charged instead of two) or pad (a row of fewer cells).

use std::borrow::Cow;

/// True when a spreadsheet could read `value` as a formula (OWASP's CSV injection): it starts
/// with `=`, `+`, `-`, `@`, a tab, a carriage return or a line feed, or with any of `=+-@` after
/// leading blanks (spreadsheets trim those before they look). `-3` is a formula too (`-3+A1`
/// is), so numbers written as text are neutralised alike; the platform writes its own numbers
/// without a sign.
pub fn is_formula_like(value: &str) -> bool {
    if value.starts_with(['\t', '\r', '\n']) {
        return true;
    }
    value
        .trim_start_matches([' ', '\t', '\r', '\n', '\u{a0}', '\u{3000}'])
        .starts_with([
            '=', '+', '-', '@', '\u{ff1d}', '\u{ff0b}', '\u{ff0d}', '\u{ff20}',
        ])
}

/// Appends `value` to `out`, with a leading `'` when it could run as a formula; spreadsheets
/// show the apostrophe's cell as text and hide it. Commas, quotes and newlines are the CSV
/// writer's to quote.
pub fn neutralise(out: &mut String, value: &str) {
    if is_formula_like(value) {
        out.push('\'');
    }
    out.push_str(value);
}

/// [`neutralise`] as a value, borrowing when nothing changes.
pub fn cell(value: &str) -> Cow<'_, str> {
    if is_formula_like(value) {
        Cow::Owned(format!("'{value}"))
    } else {
        Cow::Borrowed(value)
    }
}

/// A CSV record and the line of the file it starts on (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub line: usize,
    pub cells: Vec<String>,
}

/// Why a file was refused, naming the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadCsv(pub String);

impl std::fmt::Display for BadCsv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads RFC 4180 CSV strictly: a quote opens a field only at its start and must be closed,
/// and a closing quote is followed by a comma or the end of the line; `""` inside quotes is
/// one quote. Empty lines are skipped. Every record must have as many cells as the first
/// (the header); anything else is refused with the line it is on. Line ends may be `\n` or
/// `\r\n`.
pub fn read_strict(text: &str) -> Result<Vec<Record>, BadCsv> {
    let mut records = Vec::new();
    let mut cells: Vec<String> = Vec::new();
    let mut cell = String::new();
    let mut line = 1usize;
    let mut record_line = 1usize;
    let mut chars = text.chars().peekable();
    // At the start of a cell (nothing read for it yet, not quoted).
    let mut at_start = true;
    let mut end_record = |cells: &mut Vec<String>, cell: &mut String, record_line: usize| {
        cells.push(std::mem::take(cell));
        let done = std::mem::take(cells);
        if !(done.len() == 1 && done[0].is_empty()) {
            records.push(Record {
                line: record_line,
                cells: done,
            });
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '"' if at_start => {
                let opened_on = line;
                loop {
                    match chars.next() {
                        None => {
                            return Err(BadCsv(format!(
                                "Row {opened_on} has a quote that is never closed"
                            )));
                        }
                        Some('"') if chars.peek() == Some(&'"') => {
                            chars.next();
                            cell.push('"');
                        }
                        Some('"') => break,
                        Some(ch) => {
                            if ch == '\n' {
                                line += 1;
                            }
                            cell.push(ch);
                        }
                    }
                }
                match chars.peek() {
                    None | Some(',') | Some('\n') => {}
                    Some('\r') => {}
                    Some(_) => {
                        return Err(BadCsv(format!("Row {line} has text after a closing quote")));
                    }
                }
                at_start = false;
            }
            '"' => {
                return Err(BadCsv(format!(
                    "Row {line} has a quote inside a cell that does not start with one"
                )));
            }
            ',' => {
                cells.push(std::mem::take(&mut cell));
                at_start = true;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                end_record(&mut cells, &mut cell, record_line);
                line += 1;
                record_line = line;
                at_start = true;
            }
            other => {
                cell.push(other);
                at_start = false;
            }
        }
    }
    if !cells.is_empty() || !cell.is_empty() {
        end_record(&mut cells, &mut cell, record_line);
    }
    if let Some(width) = records.first().map(|r| r.cells.len())
        && let Some(r) = records.iter().find(|r| r.cells.len() != width)
    {
        return Err(BadCsv(format!(
            "Row {} has {} cells but the file has {width} columns",
            r.line,
            r.cells.len()
        )));
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_neutralised_however_they_start() {
        for (input, out) in [
            ("=1+2", "'=1+2"),
            ("+91", "'+91"),
            ("-2", "'-2"),
            ("@SUM(A1)", "'@SUM(A1)"),
            (
                "=HYPERLINK(\"http://x\",\"y\")",
                "'=HYPERLINK(\"http://x\",\"y\")",
            ),
            ("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"),
            ("\t=1+1", "'\t=1+1"),
            ("\tx", "'\tx"),
            ("\r=1", "'\r=1"),
            ("  =1+1", "'  =1+1"),
            ("\u{ff1d}1+1", "'\u{ff1d}1+1"),
            ("pan,1", "pan,1"),
            ("a=b", "a=b"),
            ("ABCDE1234F", "ABCDE1234F"),
            ("", ""),
        ] {
            let mut s = String::new();
            neutralise(&mut s, input);
            assert_eq!(s, out, "{input:?}");
            assert_eq!(cell(input), out);
        }
    }

    fn cells(text: &str) -> Vec<Vec<String>> {
        read_strict(text)
            .unwrap()
            .into_iter()
            .map(|r| r.cells)
            .collect()
    }

    #[test]
    fn well_formed_files_are_read_with_their_lines() {
        assert_eq!(
            cells("a,b\r\n1,\"x, \"\"y\"\"\"\n\n\"multi\nline\",2\n"),
            vec![
                vec!["a".to_owned(), "b".into()],
                vec!["1".into(), "x, \"y\"".into()],
                vec!["multi\nline".into(), "2".into()],
            ]
        );
        let r = read_strict("a,b\n1,2\n\n\"3\n\",4").unwrap();
        assert_eq!(r.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 2, 4]);
        assert_eq!(cells("a\n"), vec![vec!["a".to_owned()]]);
        assert!(cells("").is_empty());
    }

    #[test]
    fn unbalanced_quotes_and_ragged_rows_are_refused_naming_the_line() {
        let err = |t: &str| read_strict(t).unwrap_err().0;
        assert_eq!(
            err("id_number\n\"ABCDE1234F\nXYZ\n"),
            "Row 2 has a quote that is never closed"
        );
        assert_eq!(
            err("a,b\n1,2\n\"x\"y,3\n"),
            "Row 3 has text after a closing quote"
        );
        assert_eq!(
            err("a,b\n1,ab\"c\n"),
            "Row 2 has a quote inside a cell that does not start with one"
        );
        assert_eq!(
            err("a,b\n1,2\n3\n"),
            "Row 3 has 1 cells but the file has 2 columns"
        );
        assert_eq!(
            err("a\n1,2\n"),
            "Row 2 has 2 cells but the file has 1 columns"
        );
    }
}
