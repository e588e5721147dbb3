# The compiled twin reads this module's annotations as types (setup.py): ``s: State`` is
# journey/state.pxd's extension type, its fields read as a C struct.

from journey.state cimport State
