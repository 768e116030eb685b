"""Colours of the light wooden theme.

Chosen for three constraints: it should read as a wooden nardy board; the two checker colours
must differ in *lightness* (ivory vs charcoal, not hue) so colour-blind players and Telegram's
JPEG recompression cannot confuse them; and the two marker colours, orange for the last play
and blue for points you may pick, are the pair that stays distinct under every common colour
blindness and are always paired with a shape (ring, ghost, badge) rather than colour alone.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

FRAME = (104, 64, 36)  # walnut frame and strips
FRAME_DARK = (62, 37, 20)  # frame edges, tray wells
FRAME_LIGHT = (134, 88, 52)
FIELD = (238, 218, 176)  # light maple playing field
FIELD_GRAIN = (226, 200, 152)
POINT_RED = (168, 58, 40)  # mahogany points
POINT_DARK = (70, 88, 86)  # slate-green points
POINT_EDGE = (90, 50, 30)

TEXT_ON_FRAME = (250, 236, 206)
TEXT_DIM = (214, 186, 146)

WHITE_BODY = (247, 242, 230)
WHITE_EDGE = (60, 44, 30)
WHITE_GROOVE = (200, 186, 160)
WHITE_TEXT = (40, 30, 20)

BLACK_BODY = (40, 40, 44)
BLACK_EDGE = (10, 10, 12)
BLACK_RIM = (168, 168, 174)
BLACK_GROOVE = (92, 92, 98)
BLACK_TEXT = (250, 250, 250)

LAST_PLAY = (255, 140, 26)  # orange: where the last play went from and to
LAST_PLAY_DARK = (120, 52, 0)
SELECT = (32, 128, 230)  # blue: points the player may choose now
SELECT_DARK = (10, 50, 110)
TURN = (255, 196, 60)  # marker of the player to move

BANNER = (28, 20, 12)
BANNER_TEXT = (255, 238, 200)
