//! Finds the program in a completion: the last fenced block tagged `python`/`py`, else the last
//! fenced block, else (decided by the caller, which can ask the runner to compile it) the whole text.

/// A fenced code block: its info string (`python`) and its body.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The info string after the opening fence, lowercased and trimmed.
    pub info: String,
    /// The lines between the fences.
    pub body: String,
}

/// Every fenced block (``` or ~~~, three or more), in order. An unclosed last block runs to the end
/// of the text, as Markdown renders it.
pub fn fenced_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, usize, char, Vec<&str>)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let fence_char = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        let fence_len = fence_char.map_or(0, |c| trimmed.chars().take_while(|x| *x == c).count());
        match &mut open {
            None if fence_len >= 3 => {
                let info = trimmed[fence_len..].trim().to_ascii_lowercase();
                open = Some((info, fence_len, fence_char.expect("fence"), Vec::new()));
            }
            Some((_, len, c, _))
                if fence_char == Some(*c)
                    && fence_len >= *len
                    && trimmed[fence_len..].trim().is_empty() =>
            {
                let (info, _, _, lines) = open.take().expect("open block");
                blocks.push(Block {
                    info,
                    body: lines.join("\n"),
                });
            }
            Some((_, _, _, lines)) => lines.push(line),
            None => {}
        }
    }
    if let Some((info, _, _, lines)) = open {
        blocks.push(Block {
            info,
            body: lines.join("\n"),
        });
    }
    blocks
}

/// The program in fenced blocks: the last one tagged Python, else the last one.
pub fn fenced_program(text: &str) -> Option<String> {
    let blocks = fenced_blocks(text);
    let is_python = |b: &&Block| {
        let lang = b.info.split_whitespace().next().unwrap_or("");
        matches!(lang, "python" | "py" | "python3" | "{.python}")
    };
    blocks
        .iter()
        .rev()
        .find(is_python)
        .or_else(|| blocks.last())
        .map(|b| b.body.clone())
        .filter(|body| !body.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefers_the_last_python_block() {
        let text = "intro\n```python\nx = 1\n```\nthen\n```\nplain\n```\n```py\ny = 2\n```\ntext";
        assert_eq!(fenced_program(text).as_deref(), Some("y = 2"));
        let text = "```js\nlet a\n```\n```python\nprint(1)\n```\n```text\nout\n```";
        assert_eq!(fenced_program(text).as_deref(), Some("print(1)"));
    }

    #[test]
    fn falls_back_to_the_last_block_and_handles_unclosed_fences() {
        assert_eq!(
            fenced_program("```\na\n```\n```\nb\n```").as_deref(),
            Some("b")
        );
        assert_eq!(
            fenced_program("here:\n```python\ndef f():\n    return 1\n").as_deref(),
            Some("def f():\n    return 1")
        );
        assert_eq!(fenced_program("no code at all"), None);
        assert_eq!(fenced_program("```python\n```"), None);
    }

    #[test]
    fn longer_fences_contain_shorter_ones() {
        let text = "````python\ns = '''\n```\n'''\n````";
        assert_eq!(fenced_program(text).as_deref(), Some("s = '''\n```\n'''"));
    }
}
