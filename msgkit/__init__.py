__version__ = "0.0.1"
from .sniff import *
from .parts import *
from .core import *
from .tools import *
from .stream import *
