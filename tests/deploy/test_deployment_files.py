"""docs/deployment.md prints the deployment's files of ``deploy/`` as they are: the page and
the files the deployment story runs cannot drift apart."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_deployment_story_files_are_the_documents_blocks():
    page = (ROOT / "docs" / "deployment.md").read_text()
    blocks = {m.group(1): m.group(2) for m in re.finditer(
        r"```[a-z]*\n# (deploy/\S+)\n(.*?)```", page, re.S)}
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "deploy").rglob("*") if p.is_file())
    assert sorted(blocks) == files
    for name, text in blocks.items():
        assert (ROOT / name).read_text() == text, f"docs/deployment.md's copy of {name} differs"
