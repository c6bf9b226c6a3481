"""Run a notebook as `nbdev_test` does (cells marked `#| eval: false` and the closing `nbdev_export()` skipped, in the
notebook's folder) and write it, with its outputs, to DEST; the source notebook is only read. prep.py --execute runs it,
one process per notebook, for a site with outputs while the notebooks have none saved.
Usage: python .ci/docs/execute.py NOTEBOOK DEST"""
import os, sys
from pathlib import Path
from execnb.nbio import read_nb, write_nb
from execnb.shell import CaptureShell
from nbdev.process import extract_directives

def skip(c):
    if c.cell_type != 'code': return True
    if 'nbdev_export' + '(' in c.source: return True
    d = extract_directives(c, remove=False)
    return (d.get('eval:', [''])[0] or '').lower() == 'false'

if __name__ == '__main__':
    src, dest = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    nb = read_nb(src)
    os.environ['IN_TEST'] = '1'
    os.chdir(src.parent)
    sh = CaptureShell(src)
    try: sh.run_all(nb, exc_stop=True, preproc=skip)
    except Exception:
        sys.stderr.write(f'{src.name}: ' + sh.prettytb(fname=src) + '\n'); sys.exit(1)
    write_nb(nb, dest)
