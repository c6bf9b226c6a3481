__version__ = "0.0.1"
# Hand-written: `from msgkit import *` gives the user-facing names only; the building blocks stay in their modules.
# `import msgkit` imports nothing else: each name loads its module when first used (the display of what msgkit
# returns with it). Each public function is guarded where it is defined (`msgkit.errors`), so
# `msgkit.mk_msg is msgkit.core.mk_msg`.
_where = dict(sniff='media_type media_kind sample', parts='Part Turn jsonable',
              mediapart='media media_url provider_file',
              registry='apis get_api', losses='LossWarning', history='read_history',
              core='mk_msg mk_msgs mk_doc mk_ant_doc render_history mk_toolres',
              response='tool_calls msg_text usage finish_reason read_parts',
              stream='stream_msg stream_response MsgStream StreamError body_events',
              tools='mk_tool mk_tools', request='mk_request mk_cache', batch='mk_batch read_batch BatchError',
              download='fetch FetchError', budget='est_tokens trim')
_mod = {n:m for m,ns in _where.items() for n in ns.split()}

def _partials():
    "`mk_msg_<api>` and `mk_msgs_<api>` for each API with a module of its own (found without importing them)"
    from .registry import api_names
    return [f'mk_msg{s}_{a}' for a in api_names() for s in ('','s')]

def __getattr__(name):
    "A public name, its module imported on first use (and `__all__`, made when `import *` asks)"
    if name=='__all__': return list(_mod) + _partials()
    m = _mod.get(name) or ('core' if name.startswith('mk_msg') and name in _partials() else None)
    if m is None: raise AttributeError(f"module 'msgkit' has no attribute {name!r}")
    import importlib
    importlib.import_module(f'{__name__}.display')  # what msgkit returns shows itself
    v = getattr(importlib.import_module(f'{__name__}.{m}'), name)
    try:  # help(v) lists the parameters' docments (guard gives functions theirs; partials and classes get them here)
        from ._docs import docs
        k = f"{getattr(v, '__module__', '')}.{getattr(v, '__qualname__', '')}"
        if (d := docs.get(k) or docs.get(f'{__name__}.{m}.{name}')): v.__doc__ = d
    except (ImportError, AttributeError, TypeError): pass
    globals()[name] = v
    return v

def __dir__(): return sorted(set(globals()) | set(__getattr__('__all__')))
