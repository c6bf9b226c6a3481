"""A long local run of the property suite's checks, with the outcome counts: `python tests/fuzz_report.py [inputs] [seed]`.
Each input goes through every function of test_fuzz.CALLS, for an API chosen with it; any rule broken stops the run."""
import collections, random, sys, time
sys.path.insert(0, __import__('os').path.dirname(__file__))
from test_fuzz import CALLS, APIS, run
from fuzzgen import value

def main(n=6000, seed=1):
    r, out, t = random.Random(seed), collections.Counter(), time.time()
    for i in range(n):
        v, api = value(r), r.choice(APIS)
        for name in CALLS: out[run(name, api, v) or 'returned'] += 1
    calls = sum(out.values())
    print(f"inputs {n:,}, calls {calls:,} in {time.time()-t:.0f} s (seed {seed}): " + ', '.join(f"{k} {c:,}" for k, c in out.most_common()))
    from msgkit.errors import raise_sites  # the guard's conversions (issue #23 item 14): each a check msgkit lacks
    print(f"the guard's conversions: {sum(raise_sites.values()):,}" + ''.join(f"\n{c:7,}  {k}" for k, c in raise_sites.most_common()))

if __name__ == '__main__': main(*(int(a) for a in sys.argv[1:]))
