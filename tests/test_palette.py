"""The page's palette (web/palette.js): colours the designer may place in one level are told
apart at a glance, every pair at least 20 apart in CIEDE2000 (spec/web.md, "Layout and look").

CIEDE2000 is computed here from its definition (Sharma, Wu and Dalal 2005) and checked
against their published test pairs before it judges the palette.
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.cpython_only  # reads web/ from the source tree

ROOT = Path(__file__).resolve().parent.parent
PALETTE_JS = ROOT / "web" / "palette.js"
MIN_DELTA_E = 20.0


def palette() -> tuple[list[str], list[str], int]:
    """PALETTE, LETTERS and DESIGNER_COLOURS as web/palette.js writes them."""
    text = PALETTE_JS.read_text()
    colours_block = re.search(r"export const PALETTE = \[(.*?)\];", text, re.S)
    letters_block = re.search(r"export const LETTERS = \[(.*?)\];", text, re.S)
    count = re.search(r"export const DESIGNER_COLOURS = (\d+);", text)
    assert colours_block and letters_block and count, "palette.js lost one of its exports"
    colours = re.findall(r'"(#[0-9a-fA-F]{6})"', colours_block.group(1))
    letters = re.findall(r'"([^"]*)"', letters_block.group(1))
    return colours, letters, int(count.group(1))


def dark_palette() -> list[str]:
    """DARK_PALETTE as web/palette.js writes it (the dark theme's board, issue 52)."""
    block = re.search(r"export const DARK_PALETTE = \[(.*?)\];", PALETTE_JS.read_text(), re.S)
    assert block, "palette.js lost DARK_PALETTE"
    return re.findall(r'"(#[0-9a-fA-F]{6})"', block.group(1))


def theme_palette(theme: str) -> list[str]:
    """The body colours drawn on the board of ``theme`` ("light" or "dark")."""
    return palette()[0] if theme == "light" else dark_palette()


def srgb_to_lab(colour: str) -> tuple[float, float, float]:
    """CIELAB (D65) of a "#rrggbb" sRGB colour."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e_2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    else:
        dhp = h2p - h1p
        if dhp > 180:
            dhp -= 360
        elif dhp < -180:
            dhp += 360
    d_hp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    l_bar, c_bar_p = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_bar = (h1p + h2p + 360) / 2
    else:
        h_bar = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6))
         - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_bar_p**7 / (c_bar_p**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * c_bar_p
    s_h = 1 + 0.015 * c_bar_p * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dlp / s_l) ** 2 + (dcp / s_c) ** 2 + (d_hp / s_h) ** 2
                     + r_t * (dcp / s_c) * (d_hp / s_h))


# Sharma, Wu and Dalal (2005), table 1: (Lab 1, Lab 2, ΔE00).
SHARMA_PAIRS = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.694), (23.0331, 14.973, -42.5619), 2.0373),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA_PAIRS)
def test_delta_e_2000_matches_the_published_test_pairs(lab1, lab2, expected):
    assert delta_e_2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert delta_e_2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_pair_of_designer_colours_is_at_least_20_apart(theme: str):
    _, _, count = palette()
    colours = theme_palette(theme)
    assert count == 15 and len(colours) == count  # all fifteen (issue 23), in both themes
    labs = [srgb_to_lab(c) for c in colours[:count]]
    too_close = [
        (colours[i], colours[j], round(delta_e_2000(labs[i], labs[j]), 2))
        for i, j in itertools.combinations(range(count), 2)
        if delta_e_2000(labs[i], labs[j]) < MIN_DELTA_E
    ]
    assert too_close == []


def test_every_colour_the_designer_may_choose_is_one_of_the_checked_colours():
    # Any two colours that can appear together in a designed level are 20 apart: the
    # designer draws from ALL_COLORS (a request may narrow it, never widen it), and every
    # one of those is among the palette's checked colours above.
    from gridforge.snakes.design.request import ALL_COLORS
    from gridforge.snakes.game.level import MAX_COLOR

    _, _, count = palette()
    assert set(ALL_COLORS) <= set(range(count))
    assert count > MAX_COLOR


def test_the_letter_on_every_colour_reads_at_least_4_5_to_1():
    colours = palette()[0] + dark_palette()
    text = PALETTE_JS.read_text()
    switch = float(re.search(r"export const INK_SWITCH = ([\d.]+);", text).group(1))
    inks = re.search(r'luminance > INK_SWITCH \? "(#[0-9a-f]{6})" : "(#[0-9a-f]{6})"', text)
    assert inks, "inkOn lost its two inks"
    dark, light = inks.groups()

    def lum(colour: str) -> float:
        def linear(c: float) -> float:
            return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    def contrast(a: str, b: str) -> float:
        high, low = sorted((lum(a), lum(b)), reverse=True)
        return (high + 0.05) / (low + 0.05)

    weak = {c: round(contrast(c, dark if lum(c) > switch else light), 2) for c in colours
            if contrast(c, dark if lum(c) > switch else light) < 4.5}
    assert weak == {}


def test_each_colour_has_its_own_letter_for_colour_blind_players():
    colours, letters, _ = palette()
    assert len(letters) == len(colours) == 15
    assert all(len(letter) == 1 for letter in letters)
    assert len(set(letters)) == len(letters)


def test_every_body_colour_stands_out_from_the_floor():
    colours, _, count = palette()
    floor = srgb_to_lab("#efe9dc")  # --floor of the light theme (web/theme.css; the dark
    assert "--floor: #efe9dc;" in (ROOT / "web" / "theme.css").read_text()  # test_theme.py)
    assert min(delta_e_2000(floor, srgb_to_lab(c)) for c in colours[:count]) >= MIN_DELTA_E


def test_the_editors_badges_read_at_least_4_5_to_1_on_their_ground():
    # A corner badge (a freeze count, a lock, a key) sits on a white pill; a hole's letter on
    # the hole's own ground (white, or --hole of the dark theme); a body's letter takes
    # inkOn (the test above). Issue 23: text at 4.5:1 wherever the board draws it.
    from .test_theme import colour, contrast

    board = (ROOT / "web" / "screens" / "editor-board.js").read_text()
    fills = re.findall(r'this\.badge\([^;]*?"(#[0-9a-fA-F]{3,6})"', board)
    assert len(fills) >= 4, "the badges' colours moved"
    assert 'fill: "#ffffff", "fill-opacity": 0.92, class: "editor-badge-pill"' in board

    def full(c: str) -> str:
        return c if len(c) == 7 else "#" + "".join(ch * 2 for ch in c[1:])

    # A hole's letter: its theme's ink on that theme's hole (no pill under it).
    inks = re.search(
        r'dataset\.theme === "dark" \? "(#[0-9a-f]{6})" : "(#[0-9a-f]{3,6})", "centre"', board)
    assert inks, "the hole letter's inks moved"
    for theme, ink in zip(("dark", "light"), inks.groups(), strict=True):
        assert contrast(full(ink), colour(theme, "hole")) >= 4.5, theme
    fills = [f for f in fills if f not in inks.groups()]
    grounds = ["#ffffff"]
    weak = {(f, g): round(contrast(full(f), g), 2) for f in fills for g in grounds
            if contrast(full(f), g) < 4.5}
    assert weak == {}

