"""Finds the program in a completion: the last fenced block tagged with the language, else the last
fenced block. The same rule as the host's and the `code` verifier's
(`crates/rewardbox-languages/src/fences.rs`, whose tests check this table against theirs)."""

#: Info strings that name each language, as models write them.
LANGUAGE_TAGS = {
    "python": {"python", "py", "python3", "{.python}"},
    "c": {"c", "h"},
    "cpp": {"cpp", "c++", "cc", "cxx", "hpp"},
    "javascript": {"javascript", "js", "node", "nodejs", "mjs"},
    "rust": {"rust", "rs"},
    "rust-release": {"rust-release", "rust", "rs"},
    "go": {"go", "golang"},
    "typescript": {"typescript", "ts", "mts", "cts"},
}


def fenced_blocks(text):
    """Every fenced block (``` or ~~~, three or more) as `(info, body)`, in order. An unclosed last
    block runs to the end of the text, as Markdown renders it."""
    blocks = []
    open_block = None
    for line in text.splitlines():
        stripped = line.lstrip()
        fence = stripped[:1] if stripped[:1] in ("`", "~") else ""
        length = len(stripped) - len(stripped.lstrip(fence)) if fence else 0
        if open_block is None:
            if length >= 3:
                open_block = (stripped[length:].strip().lower(), length, fence, [])
        elif fence == open_block[2] and length >= open_block[1] and not stripped[length:].strip():
            blocks.append((open_block[0], "\n".join(open_block[3])))
            open_block = None
        else:
            open_block[3].append(line)
    if open_block is not None:
        blocks.append((open_block[0], "\n".join(open_block[3])))
    return blocks


def fenced_program(text, language="python"):
    """The body of the last block tagged `language`, else of the last block; None when there is no
    block or it is empty."""
    tags = LANGUAGE_TAGS.get(language, {language})
    blocks = fenced_blocks(text)
    chosen = None
    for info, body in reversed(blocks):
        if (info.split() or [""])[0] in tags:
            chosen = body
            break
    if chosen is None and blocks:
        chosen = blocks[-1][1]
    if chosen is None or not chosen.strip():
        return None
    return chosen


def extract_code(completion, language="python"):
    """The program a completion holds: its fenced program, else the whole text (None if empty)."""
    program = fenced_program(completion, language)
    if program is not None:
        return program
    return completion if completion.strip() else None
