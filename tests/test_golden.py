"""Byte-identical outputs: what mk_msgs, mk_request and mk_msg make from templates, seeded fuzz inputs and text histories
for all five APIs, and the kind x API table, hashed and pinned in golden.json (made from the code before #9's speed work)."""
import json
from pathlib import Path
from golden import outputs

def test_outputs_unchanged():
    want = json.loads((Path(__file__).parent/'golden.json').read_text())
    got = outputs()
    bad = [i for i, (a, b) in enumerate(zip(got, want)) if a != b]
    assert len(got) == len(want) and not bad, f"{len(bad)} of {len(want)} outputs changed, first at {bad[:10]}"
