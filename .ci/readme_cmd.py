"Print one of the README's two commands: `main` (install and run msgkit) or `test` (install and run the tests)."
import re, sys
from pathlib import Path
md = (Path(__file__).resolve().parent.parent/'README.md').read_text()
cmds = [o.strip() for o in re.findall(r'```sh\n(.*?)```', md, re.S) if o.strip().startswith('python3 -m venv')]
pick = {'main': [o for o in cmds if 'msgkit' in o.split('&&')[-1]], 'test': [o for o in cmds if 'pytest' in o]}[sys.argv[1]]
assert len(pick)==1, f"expected one {sys.argv[1]} command in README.md, found {pick}"
print(pick[0])
