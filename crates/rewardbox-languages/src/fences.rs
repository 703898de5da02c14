//! Finds the program in an LLM completion: the last fenced block tagged with the task's language,
//! else the last fenced block. Whether the whole text is a program when there is no fence is the
//! caller's decision (the `code` verifier asks a sandboxed runner whether it compiles).
//!
//! Shared by the `code` verifier component and the host; `guests/python/rb_fences.py` applies the
//! same rule inside the Python verifier sandbox.

/// A fenced code block: its info string (`python`) and its body.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The info string after the opening fence, lowercased and trimmed.
    pub info: String,
    /// The lines between the fences.
    pub body: String,
}

/// The info strings that name `language` (a language name or alias: `python`, `c`, `cpp`,
/// `javascript`, `rust`, ...), as models write them; none for a language rewardbox does not run.
pub fn language_tags(language: &str) -> &'static [&'static str] {
    crate::Language::parse(language).map_or(&[], crate::Language::fence_tags)
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

/// The program in fenced blocks: the last one tagged `language`, else the last one; `None` when
/// there is no block or it is empty.
pub fn fenced_program(text: &str, language: &str) -> Option<String> {
    let blocks = fenced_blocks(text);
    let tags = language_tags(language);
    let tagged = |b: &&Block| {
        let tag = b.info.split_whitespace().next().unwrap_or("");
        tags.contains(&tag) || tag == language
    };
    blocks
        .iter()
        .rev()
        .find(tagged)
        .or_else(|| blocks.last())
        .map(|b| b.body.clone())
        .filter(|body| !body.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefers_the_last_block_in_the_language() {
        let text = "intro\n```python\nx = 1\n```\nthen\n```\nplain\n```\n```py\ny = 2\n```\ntext";
        assert_eq!(fenced_program(text, "python").as_deref(), Some("y = 2"));
        let text = "```js\nlet a\n```\n```python\nprint(1)\n```\n```text\nout\n```";
        assert_eq!(fenced_program(text, "python").as_deref(), Some("print(1)"));
        assert_eq!(fenced_program(text, "javascript").as_deref(), Some("let a"));
        let text = "```c++\nint main(){}\n```\n```python\nprint(1)\n```";
        assert_eq!(fenced_program(text, "cpp").as_deref(), Some("int main(){}"));
    }

    #[test]
    fn falls_back_to_the_last_block_and_handles_unclosed_fences() {
        assert_eq!(
            fenced_program("```\na\n```\n```\nb\n```", "python").as_deref(),
            Some("b")
        );
        assert_eq!(
            fenced_program("here:\n```python\ndef f():\n    return 1\n", "python").as_deref(),
            Some("def f():\n    return 1")
        );
        assert_eq!(fenced_program("no code at all", "python"), None);
        assert_eq!(fenced_program("```python\n```", "python"), None);
    }

    #[test]
    fn longer_fences_contain_shorter_ones() {
        let text = "````python\ns = '''\n```\n'''\n````";
        assert_eq!(
            fenced_program(text, "python").as_deref(),
            Some("s = '''\n```\n'''")
        );
    }
}
