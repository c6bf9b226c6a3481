"""The part of OpenAI's OpenAPI spec the oracle uses (the request schemas it validates, everything they reference, and the
documented examples it builds responses from), vendored as `openapi-subset.json.gz` so that tests/ runs without ../shared.
`python tests/spec_subset.py SPEC` writes it; `test_oracle.py` checks it still equals the subset of the shared spec."""
import gzip, json, sys
from pathlib import Path

SCHEMAS, PATHS = ('CreateResponse', 'CreateChatCompletionRequest'), ('/responses', '/chat/completions')
OUT = Path(__file__).parent/'openapi-subset.json.gz'

def _refs(o):
    if isinstance(o, dict):
        if isinstance(o.get('$ref'), str): yield o['$ref'].rsplit('/', 1)[-1]
        for v in o.values(): yield from _refs(v)
    elif isinstance(o, list):
        for v in o: yield from _refs(v)

def subset(spec:dict)->dict:
    "The schemas reachable from `SCHEMAS`, and the documented examples of `PATHS`"
    allsch, keep, todo = spec['components']['schemas'], {}, list(SCHEMAS)
    while todo:
        k = todo.pop()
        if k in keep: continue
        keep[k] = allsch[k]
        todo += [r for r in _refs(allsch[k]) if r not in keep]
    paths = {p: {'post': {'x-oaiMeta': {'examples': spec['paths'][p]['post']['x-oaiMeta']['examples']}}} for p in PATHS}
    return {'openapi': spec['openapi'], 'info': spec['info'], 'paths': paths, 'components': {'schemas': dict(sorted(keep.items()))}}

def load_vendored(): return json.loads(gzip.decompress(OUT.read_bytes()))

if __name__=='__main__':
    s = subset(json.load(open(sys.argv[1])))
    OUT.write_bytes(gzip.compress(json.dumps(s, sort_keys=True).encode(), mtime=0))
    print(f"{OUT.name}: {len(s['components']['schemas'])} schemas, {OUT.stat().st_size:,} bytes")
