"""Griffe extension: every msgkit function, class and partial gets a Google-style `Args:` section built from its
fastcore docments (mkdocstrings then renders a parameter table); module docstrings are left to the page header
`prep.py` writes from the notebook (nbdev keeps only the first line of a wrapped description)."""
import functools, importlib, inspect, os, sys
import griffe

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docments_doc as D

def _runtime(path):
    "The live object at dotted `path` (a module, then attributes), or None"
    parts = path.split('.')
    for i in range(len(parts), 0, -1):
        try: o = importlib.import_module('.'.join(parts[:i]))
        except ImportError: continue
        try:
            for p in parts[i:]: o = getattr(o, p)
            return o
        except AttributeError: return None
    return None

_kinds = {inspect.Parameter.POSITIONAL_ONLY: griffe.ParameterKind.positional_only,
          inspect.Parameter.POSITIONAL_OR_KEYWORD: griffe.ParameterKind.positional_or_keyword,
          inspect.Parameter.VAR_POSITIONAL: griffe.ParameterKind.var_positional,
          inspect.Parameter.KEYWORD_ONLY: griffe.ParameterKind.keyword_only,
          inspect.Parameter.VAR_KEYWORD: griffe.ParameterKind.var_keyword}

def _default(p):
    "A parameter's default as griffe shows it (`**kw` as `{}`, as griffe shows it for functions it reads itself)"
    if p.kind == p.VAR_KEYWORD: return '{}'
    if p.kind == p.VAR_POSITIONAL: return '()'
    return None if p.default is p.empty else repr(p.default)

class DocmentsExtension(griffe.Extension):
    def __init__(self): self.done = 0

    def _add_partials(self, mod):
        """Each partial in a module's runtime `__all__` (`mk_msg_openai`, made by `globals()[...] = partial(...)`, which
        griffe can't see in the source, or sees as an attribute) as a function with the partial's own signature"""
        M = _runtime(mod.path)
        for n in getattr(M, '__all__', []):
            o = getattr(M, n, None)
            if not isinstance(o, functools.partial): continue
            sig = inspect.signature(o)
            ps = [griffe.Parameter(k, kind=_kinds[p.kind], default=_default(p),
                                   annotation=None if p.annotation is p.empty else D._anno_str(p.annotation))
                  for k, p in sig.parameters.items()]
            ret = None if sig.return_annotation is sig.empty else D._anno_str(sig.return_annotation)
            f = griffe.Function(n, lineno=None, parent=mod, parameters=griffe.Parameters(*ps), returns=ret)
            mod.set_member(n, f)

    def _visit(self, obj, loader):
        if obj.is_module:
            obj.docstring = None
            self._add_partials(obj)
        for m in list(obj.members.values()):
            if m.is_alias or m.name.startswith('__'): continue
            if m.is_module or m.is_class: self._visit(m, loader)
            if m.is_module: continue
            o = _runtime(m.path)
            if o is None or not D.documentable(o): continue
            text = D.full_doc(o)
            if not text.strip(): continue
            m.docstring = griffe.Docstring(text, parent=m, lineno=m.docstring.lineno if m.docstring else None,
                                           parser=loader.docstring_parser, parser_options=loader.docstring_options)
            self.done += 1

    def on_package(self, *, pkg, loader, **kwargs):
        if pkg.name == 'msgkit': self._visit(pkg, loader)
