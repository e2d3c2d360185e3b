"""The README's first Python example runs as written and prints what its
comments say."""

import contextlib
import io
import pathlib

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_example_runs():
    text = README.read_text()
    section = text[text.index("## From Python"):]
    block = section[section.index("```python\n") + len("```python\n"):]
    block = block[:block.index("```")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(README), "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "[[12]]"
    assert lines[2] == "[[11], [22], [33]]"
    assert lines[3] == "69c4e0d86a7b0430d8cdb78070b4c55a"
    assert lines[4].startswith("config ")
