"""The outputs the golden test pins: mk_msgs / mk_request / mk_msg on every template, seeded fuzz inputs and text histories,
for the five APIs, and the kind x API table; each as a short hash. `python tests/golden.py` rewrites tests/golden.json
(only when a change of output is meant: say so in the commit)."""
import hashlib, json, random, re, sys, warnings
from pathlib import Path

APIS = ('openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock')

def _norm(s):
    "Text that is the same from run to run: no memory addresses, no made-at-run-time document names"
    return re.sub(r'document-[0-9a-f]{10}', 'document-#', re.sub(r' at 0x[0-9a-f]+', '', s))

def _name(e):
    "The error's class, msgkit's own (`InputError`, a `ValueError`) by the builtin it is: the outputs pinned before them"
    t = type(e)
    if t.__module__=='msgkit.errors': t = next(c for c in t.__mro__ if c.__module__=='builtins')
    return t.__name__

def outputs():
    from msgkit import mk_msgs, mk_msg, mk_request, jsonable
    from msgkit.table import kind_table
    sys.path.insert(0, str(Path(__file__).parent))
    from fuzzgen import value, TEMPLATES
    r = random.Random(5)
    cases = [[t] for t in TEMPLATES] + [[value(r) for _ in range(3)] for _ in range(600)] + [[f'msg {i} ' * 3 for i in range(n)] for n in range(6)]
    cases += [['Hi', {'role': 'assistant', 'content': 'Hello  '}], ['a', 'b', 'c'], [{'role': 'user', 'content': 'x'}, {'role': 'assistant', 'content': 'y'}, 'z']]
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for c in cases:
            for api in APIS:
                for f in (lambda: mk_msgs(c, api), lambda: mk_request(c, api, model='m'), lambda: mk_msg(c[0], api=api)):
                    try: res = json.dumps(jsonable(f()), sort_keys=True, default=repr)
                    except Exception as e: res = 'ERR ' + _name(e)
                    out.append(_norm(res))
        out += _norm(kind_table(sorted(APIS))).splitlines()  # the five (the dialects' columns: tests/test_dialects.py)
    return [hashlib.sha1(o.encode()).hexdigest()[:10] for o in out]

if __name__ == '__main__':
    (Path(__file__).parent/'golden.json').write_text(json.dumps(outputs()) + '\n')
