"""The worked example of docs/online-protocol.md ("A worked example"), read from the document
itself, so that the tests re-check what a reader sees and the page cannot drift from them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "online-protocol.md"


@dataclass(frozen=True)
class WorkedExample:
    seed_text: str  # the text whose SHA-256 is the seed
    seed: str
    commitment: str
    bag_start: list[str]
    lines: list[str]  # the record's action lines, numbers stripped ("A draw RG …")


def worked_example() -> WorkedExample:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### A worked example"):]
    blocks = re.findall(r"```text\n(.*?)```", section, flags=re.S)
    facts, record = blocks[0], blocks[1]
    seed = re.search(r"^seed\s+([0-9a-f]{64})$", facts, flags=re.M).group(1)
    committed = re.search(r"^commitment\s+([0-9a-f]{64})$", facts, flags=re.M).group(1)
    bag_start = facts.split("bag, first 24 of 120", 1)[1].split()
    seed_text = re.search(r"SHA-256 of the text\s+`([^`]+)`", section).group(1)
    lines = [re.sub(r"^\d+\.\s+", "", line) for line in record.strip().splitlines()]
    return WorkedExample(seed_text, seed, committed, bag_start, lines)
