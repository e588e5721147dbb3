# The compiled twin reads this module's annotations as types (setup.py): ``s: State`` is
# journey/state.pxd's extension type, its fields read as a C struct; the small changes
# of journey/steps.pxd are called as C functions.

from journey.state cimport State
from journey.steps cimport (draw, interrupt, mill, move_black, replaced, walk_white,
                            with_card, without)
