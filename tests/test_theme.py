"""The light and dark themes (web/theme.css, issue 22): the same colours named in both, every
colour the stylesheets draw with taken from them (but for drawings that carry their own
ground: the markers' pills, the battle panel, the busy pill...), and the contrast rules in
both themes, computed from the stylesheet's values: text at least 4.5:1 against its ground
(WCAG 2 relative luminance), focus rings and board marks at least 3:1, and the snakes
board's pieces and holes at least 20 apart (CIEDE2000) from its floor, as body colours are
from each other (tests/test_palette.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .test_palette import delta_e_2000, palette, srgb_to_lab, theme_palette

pytestmark = pytest.mark.cpython_only  # reads web/ from the source tree

WEB = Path(__file__).resolve().parent.parent / "web"
THEMES = ("light", "dark")
HEX = re.compile(r"#[0-9a-fA-F]{6}")
# Custom properties that are layout, not colour (set by style.css or by the screens' code).
LAYOUT = {"message-height", "cols", "rows", "cell", "cell-max", "from-x", "from-y", "side",
          "swatch", "swatch-ink", "k",
          "dx", "dy", "spark"}  # a win's sparks (snakes-win.js)
# Rules that draw with their own colours on a ground of their own, the same in both themes:
# the markers (on their pills), a body's eyes and end rims, the lessons' demonstration, the
# mines battle panel and its HP bars, the busy pill, the rules' small mines picture's cells
# and figure, the editor's swatches, narrow points and previews, the avatar's glow, a
# bridge (wood).
OWN_GROUND = re.compile(
    r"marker|\.eye\b|end-disc|demo-|mines-fight|fight-battle|fighter|figure-box|hp-|app-busy|"
    r"spinner|mp-concealed|mp-pole|mp-flag|mp-figure|editor-swatch|editor-narrow|"
    r"editor-preview|cell\.path|data-avatar|avatar-figure|mines-settlement|mines-end|"
    # A bridge is drawn in its own wood in both themes (spec/snakes.md 3b, terrain.js).
    r"terrain-|editor-eye|editor-ice")
SHADOWS = {"box-shadow", "text-shadow", "filter"}


def theme_colours() -> dict[str, dict[str, str]]:
    """{theme: {name: value}} as web/theme.css declares them."""
    text = (WEB / "theme.css").read_text()
    blocks = {
        "light": re.search(r':root, :root\[data-theme="light"\] \{(.*?)\n\}', text, re.S),
        "dark": re.search(r':root\[data-theme="dark"\] \{(.*?)\n\}', text, re.S),
    }
    out = {}
    for theme, block in blocks.items():
        assert block, f"theme.css lost its {theme} block"
        body = re.sub(r"/\*.*?\*/", "", block.group(1), flags=re.S)
        out[theme] = dict(re.findall(r"--([\w-]+):\s*([^;]+);", body))
    return out


COLOURS = theme_colours()


def luminance(colour: str) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def colour(theme: str, name: str) -> str:
    value = COLOURS[theme][name].strip()
    assert HEX.fullmatch(value), f"--{name} in the {theme} theme: {value} is not #rrggbb"
    return value


def test_both_themes_name_the_same_colours_and_the_top_bar_is_the_theme_colour():
    assert set(COLOURS["light"]) == set(COLOURS["dark"])
    assert len(COLOURS["light"]) > 60
    script = (WEB / "theme.js").read_text()
    bar = dict(re.findall(r'(light|dark): "(#[0-9a-f]{6})"', script))
    assert bar == {theme: COLOURS[theme]["topbar"] for theme in THEMES}
    # The light top bar is the manifest's theme colour (what an installed app opens with).
    light_bar = COLOURS["light"]["topbar"]
    assert f'"theme_color": "{light_bar}"' in (WEB / "app.webmanifest").read_text()
    assert f'<meta name="theme-color" content="{light_bar}">' in (WEB / "index.html").read_text()


def stylesheets() -> list[Path]:
    return sorted(p for p in WEB.rglob("*.css") if p.name != "theme.css")


def test_every_colour_variable_the_pages_use_is_defined_in_both_themes():
    used: set[str] = set()
    for path in [*stylesheets(), *WEB.rglob("*.js")]:
        used |= set(re.findall(r"var\(--([\w-]+)", path.read_text()))
    assert used - LAYOUT - set(COLOURS["light"]) == set()


def test_the_stylesheets_draw_with_the_themes_colours_but_where_a_drawing_has_its_own_ground():
    stray = []
    for path in stylesheets():
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
        for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
            if OWN_GROUND.search(selector):
                continue
            for prop, value in re.findall(r"([\w-]+)\s*:\s*([^;]+)", body):
                if prop in SHADOWS:
                    continue
                if re.search(r"#[0-9a-fA-F]{3,8}\b|rgba?\(", value):
                    stray.append(f"{path.name}: {selector.strip()} {{ {prop}: {value.strip()} }}")
    assert stray == []


# (text, ground) pairs read as text: at least 4.5:1 in both themes.
TEXT = [
    ("fg", g) for g in ("bg", "panel", "topbar", "button-bg", "hover", "tip-bg", "lesson-bg",
                        "done-bg", "bad-bg", "summary-bg", "hint-digit-bg", "pointing-bg",
                        "flag-on-bg", "open")
] + [
    ("muted", "bg"), ("muted", "panel"), ("muted", "done-bg"), ("muted", "lesson-bg"),
    ("accent", "bg"), ("accent", "panel"), ("link", "bg"), ("link", "panel"),
    ("link", "pointing-bg"), ("on-accent", "accent-fill"), ("on-accent", "bad-fill"),
    ("bad", "bad-bg"), ("bad", "bg"), ("bad", "panel"), ("good", "bg"), ("good", "panel"),
    ("locked-fg", "locked-bg"), ("editor-load", "floor"),
] + [(f"digit-{n}", ground) for n in range(1, 9) for ground in ("open", "hint-digit-bg")]
# Marks that are not text (focus rings, outlines, the hint's arrow, a tile's star): 3:1.
MARKS = [
    ("accent", "bg"), ("accent", "panel"), ("accent", "open"), ("board-ink", "floor"),
    ("ink", "open"), ("refused", "floor"), ("star", "done-bg"), ("hint-safe", "hint-safe-bg"),
    ("hint-mine", "hint-mine-bg"), ("hint-digit", "hint-digit-bg"), ("bad", "bad-bg"),
]


@pytest.mark.parametrize("theme", THEMES)
def test_text_reads_at_least_4_5_to_1_on_its_ground(theme: str):
    weak = {f"--{fg} on --{bg}": round(contrast(colour(theme, fg), colour(theme, bg)), 2)
            for fg, bg in TEXT if contrast(colour(theme, fg), colour(theme, bg)) < 4.5}
    assert weak == {}


@pytest.mark.parametrize("theme", THEMES)
def test_rings_arrows_and_marks_stand_3_to_1_against_their_ground(theme: str):
    weak = {f"--{fg} on --{bg}": round(contrast(colour(theme, fg), colour(theme, bg)), 2)
            for fg, bg in MARKS if contrast(colour(theme, fg), colour(theme, bg)) < 3}
    assert weak == {}


def apart(a: str, b: str) -> float:
    return delta_e_2000(srgb_to_lab(a), srgb_to_lab(b))


@pytest.mark.parametrize("theme", THEMES)
def test_pieces_holes_and_stones_are_told_apart_from_the_floor(theme: str):
    _, _, count = palette()
    colours = theme_palette(theme)
    floor, hole, stone = (colour(theme, n) for n in ("floor", "hole", "stone"))
    close = {c: round(apart(c, floor), 1) for c in colours[:count] if apart(c, floor) < 20}
    assert close == {}, "a body colour too close to the floor"
    # A hole is its ring, in its colour, on the hole's own ground (the ring is checked against
    # the floor above).
    close = {c: round(apart(c, hole), 1) for c in colours[:count] if apart(c, hole) < 20}
    assert close == {}, "a hole's ring too close to the hole"
    assert apart(stone, floor) >= 20
    close = {c: round(apart(c, stone), 1) for c in colours[:count] if apart(c, stone) < 15}
    assert close == {}, "a body colour too close to a stone beside it"


@pytest.mark.parametrize("theme", THEMES)
def test_the_mines_grounds_are_told_apart_at_a_glance(theme: str):
    open_ground = colour(theme, "open")
    # Concealed cells (a gradient to --concealed-bottom with a light edge) at least 15 from
    # open ground, as in the light theme since issue 21; the other grounds (each with its
    # own texture too) at least 8.
    assert apart(colour(theme, "concealed-bottom"), open_ground) >= 15
    for ground in ("open-fog", "dug", "hint-safe-bg", "hint-mine-bg"):
        assert apart(colour(theme, ground), open_ground) >= 8, ground
    # The eight digits differ from each other as the customary colours do.
    digits = [colour(theme, f"digit-{n}") for n in range(1, 9)]
    assert min(apart(a, b) for i, a in enumerate(digits) for b in digits[i + 1:]) >= 10


@pytest.mark.parametrize("theme", THEMES)
def test_every_body_colour_reads_3_to_1_against_the_floor(theme: str):
    """WCAG 1.4.11 (non-text contrast): a body, a hole's ring and a coat are the pieces a
    player must see, so every palette colour stands 3:1 against the board's floor."""
    colours = theme_palette(theme)
    floor = colour(theme, "floor")
    weak = {c: round(contrast(c, floor), 2) for c in colours if contrast(c, floor) < 3}
    assert weak == {}
