"""build.py, the installable app: the icons rendered from web/icons/icon.svg (PNGs of their
stated sizes, byte for byte the same on every build, transparent corners on the "any" icons,
a full-bleed plate with the motif inside the safe zone on the maskable ones) and the web app
manifest's check (every field an installable app needs, relative start URL and scope, icons
present with their stated sizes)."""

from __future__ import annotations

import json
import math
import shutil
import zlib
from pathlib import Path

import pytest

from buildsys import icons
from buildsys.manifest import app_manifest_issues, check_app_manifest
from buildsys.steps import StepFailed

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.cpython_only  # reads web/ and writes files

WEB = ROOT / "web"
SMALL_ICONS = (  # the real set, drawn small: the same code paths, a fraction of the time
    ("icons/icon-192.png", 48, "any"),
    ("icons/icon-512.png", 64, "any"),
    ("icons/icon-maskable-192.png", 48, "maskable"),
    ("icons/icon-maskable-512.png", 96, "maskable"),
    ("icons/apple-touch-icon.png", 45, "bleed"),
)


def decode_png(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and RGBA pixels of an 8-bit RGBA PNG without filters (build.py's)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, header = 8, b"", b""
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        assert zlib.crc32(kind + body) == int.from_bytes(data[at + 8 + length:at + 12 + length],
                                                         "big")
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height = int.from_bytes(header[:4], "big"), int.from_bytes(header[4:8], "big")
    assert header[8:] == bytes([8, 6, 0, 0, 0])  # 8-bit RGBA, not interlaced
    raw = zlib.decompress(idat)
    stride = 4 * width
    assert all(raw[y * (stride + 1)] == 0 for y in range(height))
    pixels = b"".join(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)] for y in range(height))
    return width, height, pixels


def site_with_icons(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    (site / "icons").mkdir(parents=True)
    shutil.copy2(WEB / "icons" / "icon.svg", site / "icons" / "icon.svg")
    shutil.copy2(WEB / "app.webmanifest", site / "app.webmanifest")
    monkeypatch.setattr(icons, "RUNTIME_CACHE", tmp_path / "cache")
    monkeypatch.setattr(icons, "ICONS", SMALL_ICONS)
    icons.make_icons(site)
    return site


def plate_colour() -> tuple[int, int, int]:
    _units, plate, _motif = icons.read_icon(WEB / "icons" / "icon.svg")
    assert plate.fill is not None
    return plate.fill


def test_every_icon_is_a_png_of_its_size_and_the_same_bytes_on_every_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    site = site_with_icons(tmp_path, monkeypatch)
    for name, size, _kind in SMALL_ICONS:
        assert icons.png_size(site / name) == (size, size)
        width, height, pixels = decode_png((site / name).read_bytes())
        assert (width, height, len(pixels)) == (size, size, 4 * size * size)
    first = {name: (site / name).read_bytes() for name, _s, _k in SMALL_ICONS}
    shutil.rmtree(tmp_path / "cache")  # drawn again, not copied from the cache
    again = site_with_icons(tmp_path / "again", monkeypatch)
    assert {name: (again / name).read_bytes() for name in first} == first


def test_any_icons_have_transparent_corners_and_maskable_ones_keep_the_motif_in_the_safe_zone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    site = site_with_icons(tmp_path, monkeypatch)
    plate = plate_colour()
    for name, size, kind in SMALL_ICONS:
        _w, _h, pixels = decode_png((site / name).read_bytes())

        def at(x: int, y: int, pixels: bytes = pixels, size: int = size) -> bytes:
            return pixels[4 * (y * size + x):4 * (y * size + x) + 4]

        corners = [at(0, 0), at(size - 1, 0), at(0, size - 1), at(size - 1, size - 1)]
        if kind == "any":
            assert all(c[3] == 0 for c in corners), name
            continue
        # Full bleed: every pixel opaque (a launcher's mask may cut anywhere outside the
        # safe zone) and, outside the safe circle, nothing but the plate.
        assert all(pixels[i] == 255 for i in range(3, len(pixels), 4)), name
        if kind != "maskable":
            continue
        radius = icons.MASKABLE_SAFE_RADIUS * size
        motif_pixels = 0
        for y in range(size):
            for x in range(size):
                if tuple(at(x, y)[:3]) == plate:
                    continue
                motif_pixels += 1
                assert math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2) <= radius + 1, \
                    f"{name}: motif at {(x, y)} outside the safe zone"
        assert motif_pixels > size * size / 4  # the motif is there, and large


def test_the_icon_source_draws_only_what_the_renderer_knows(tmp_path: Path):
    source = (WEB / "icons" / "icon.svg").read_text()
    bad = tmp_path / "icon.svg"
    bad.write_text(source.replace("<circle ", '<ellipse rx="1" ', 1))
    with pytest.raises(StepFailed, match=r"icon\.svg: <ellipse>: only rect, circle and "
                                               r"polyline"):
        icons.read_icon(bad)
    bad.write_text(source.replace('fill="#efe9dc"', 'fill="beige"', 1))
    with pytest.raises(StepFailed, match=r"<rect>: colour 'beige' is not #rrggbb"):
        icons.read_icon(bad)
    bad.write_text(source.replace('id="plate"', 'id="plaque"'))
    with pytest.raises(StepFailed, match=r'needs <rect id="plate">'):
        icons.read_icon(bad)


def test_the_shipped_manifest_is_valid_with_icons_of_the_stated_sizes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    site = site_with_icons(tmp_path, monkeypatch)
    manifest = json.loads((site / "app.webmanifest").read_text())
    sizes = {Path(name).name: size for name, size, _kind in SMALL_ICONS}
    for icon in manifest["icons"]:  # the small test set, stated as such
        size = sizes[Path(icon["src"]).name]
        icon["sizes"] = f"{size}x{size}"
    (site / "app.webmanifest").write_text(json.dumps(manifest))
    assert app_manifest_issues(site) == ["icons: no any icon of 192x192",
                                         "icons: no any icon of 512x512",
                                         "icons: no maskable icon of 512x512"]
    # And with the real sizes (the files the build makes): valid.
    monkeypatch.setattr(icons, "ICONS", (
        ("icons/icon-192.png", 192, "any"), ("icons/icon-512.png", 512, "any"),
        ("icons/icon-maskable-192.png", 192, "maskable"),
        ("icons/icon-maskable-512.png", 512, "maskable")))
    monkeypatch.setattr(icons, "render_icon", lambda size, _units, _shapes: bytes(4 * size * size))
    icons.make_icons(site)
    shutil.copy2(WEB / "app.webmanifest", site / "app.webmanifest")
    assert app_manifest_issues(site) == []
    check_app_manifest(site)


BROKEN = [
    (lambda m: m.pop("name"), "name: must be a non-empty string"),
    (lambda m: m.update(short_name="gridforge games"), "short_name: at most 12 characters"),
    (lambda m: m.update(display="browser"), 'display: must be "standalone"'),
    (lambda m: m.update(theme_color="white"), "theme_color: must be a #rrggbb colour"),
    (lambda m: m.update(start_url="/"), "start_url: must be a relative URL"),
    (lambda m: m.update(scope="https://example.org/"), "scope: must be a relative URL"),
    (lambda m: m.update(start_url="../"), "start_url: must lie inside scope"),
    (lambda m: m["icons"][0].update(src="icons/none.png"), "icons[0].src: 'icons/none.png' "
                                                          "is not a file of the site"),
    (lambda m: m["icons"][1].update(sizes="256x256"), "icons[1].sizes: '256x256', but "
                                                      "icons/icon-512.png is 512x512"),
    (lambda m: m["icons"].pop(3), "icons: no maskable icon of 512x512"),
    (lambda m: m.update(icons=[]), "icons: must be a non-empty list"),
]


@pytest.mark.parametrize(("damage", "issue"), BROKEN)
def test_a_broken_manifest_fails_the_build_naming_the_field(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage, issue):
    site = tmp_path / "site"
    (site / "icons").mkdir(parents=True)
    shutil.copy2(WEB / "icons" / "icon.svg", site / "icons" / "icon.svg")
    monkeypatch.setattr(icons, "RUNTIME_CACHE", tmp_path / "cache")
    monkeypatch.setattr(icons, "render_icon", lambda size, _units, _shapes: bytes(4 * size * size))
    icons.make_icons(site)
    manifest = json.loads((WEB / "app.webmanifest").read_text())
    damage(manifest)
    (site / "app.webmanifest").write_text(json.dumps(manifest))
    with pytest.raises(StepFailed, match="step 'check the web app manifest' failed") as info:
        check_app_manifest(site)
    assert issue in str(info.value)


def test_every_page_of_the_shell_links_the_manifest_the_icons_and_a_theme_colour():
    pages = sorted(WEB.rglob("*.html"))
    assert pages
    for page in pages:
        text = page.read_text()
        assert '<link rel="manifest" href="app.webmanifest">' in text, page.name
        assert 'rel="icon" href="icons/icon.svg"' in text, page.name
        assert 'rel="apple-touch-icon" href="icons/apple-touch-icon.png"' in text, page.name
        assert '<meta name="theme-color"' in text, page.name
