"""The app's icons: PNGs rendered from web/icons/icon.svg by a small rasteriser of flat
shapes (rects, circles, round-capped polylines), standard library only."""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import math
import re
import shutil
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

from buildsys.paths import RUNTIME_CACHE
from buildsys.steps import StepFailed, say

# The web app manifest (web/app.webmanifest) names these; make_icons renders them from the one
# source, web/icons/icon.svg. "any" icons keep the rounded plate (transparent corners);
# maskable ones have a full-bleed plate and the motif scaled into the safe zone (the circle
# of radius 40% of the size around the centre, which every launcher's mask keeps);
# apple-touch-icon (iOS ignores the manifest's icons and rounds the corners itself) has a
# full-bleed plate and the motif at full size.
ICON_SOURCE = Path("icons") / "icon.svg"
ICONS = (
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-192.png", 192, "maskable"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
    ("icons/apple-touch-icon.png", 180, "bleed"),
)
MASKABLE_SAFE_RADIUS = 0.4   # of the icon's size, around its centre (the W3C's safe zone)
MASKABLE_MOTIF_SCALE = 0.76  # the motif's corners then lie at 0.387 of the size
_SVG = "{http://www.w3.org/2000/svg}"


@dataclasses.dataclass(frozen=True)
class Shape:
    """One flat shape of the icon, in the SVG's units: a rect (rounded, filled and/or
    stroked), a circle or a polyline stroked with round caps and joins."""

    kind: str
    fill: tuple[int, int, int] | None
    stroke: tuple[int, int, int] | None
    width: float  # stroke width
    params: tuple[float, ...]  # rect: x, y, w, h, rx; circle: cx, cy, r; polyline: x0, y0, ...

    def scaled(self, scale: float, centre: float) -> Shape:
        """This shape scaled by ``scale`` about (centre, centre)."""
        def at(v: float) -> float:
            return centre + scale * (v - centre)
        p = self.params
        if self.kind == "rect":
            params: tuple[float, ...] = (at(p[0]), at(p[1]), p[2] * scale, p[3] * scale,
                                         p[4] * scale)
        elif self.kind == "circle":
            params = (at(p[0]), at(p[1]), p[2] * scale)
        else:
            params = tuple(at(v) for v in p)
        return dataclasses.replace(self, width=self.width * scale, params=params)


def _colour(value: str | None, where: str) -> tuple[int, int, int] | None:
    if value in (None, "none"):
        return None
    assert value is not None
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise StepFailed(f"step 'render the icons' failed: {where}: colour {value!r} is not "
                         "#rrggbb")
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def read_icon(svg: Path) -> tuple[float, Shape, list[Shape]]:
    """The icon's source: its size (a square viewBox from 0), its plate (the rect with
    id="plate") and the motif's shapes (the group id="motif"), in drawing order. Anything
    this renderer cannot draw fails the build, naming the element."""
    step = "step 'render the icons' failed"
    try:
        root = ET.fromstring(svg.read_text(encoding="utf-8"))
    except (OSError, ET.ParseError) as exc:
        raise StepFailed(f"{step}: {svg.name}: {exc}") from None
    box = [float(v) for v in (root.get("viewBox") or "").split()]
    if len(box) != 4 or box[:2] != [0, 0] or box[2] != box[3] or box[2] <= 0:
        raise StepFailed(f"{step}: {svg.name}: viewBox must be a square from 0 0")

    def shape(node: ET.Element) -> Shape:
        tag = node.tag.removeprefix(_SVG)
        where = f"{svg.name}: <{tag}>"

        def num(name: str, default: float | None = None) -> float:
            value = node.get(name)
            if value is None and default is not None:
                return default
            try:
                number = float(value or "")
            except ValueError:
                raise StepFailed(f"{step}: {where}: {name}={value!r} is not a number") from None
            if not math.isfinite(number):
                raise StepFailed(f"{step}: {where}: {name}={value!r} is not finite")
            return number

        fill = _colour(node.get("fill", "#000000"), where)
        stroke = _colour(node.get("stroke"), where)
        width = num("stroke-width", 1.0) if stroke else 0.0
        if tag == "rect":
            return Shape("rect", fill, stroke, width, (num("x", 0), num("y", 0), num("width"),
                                                       num("height"), num("rx", 0)))
        if tag == "circle":
            return Shape("circle", fill, stroke, width, (num("cx"), num("cy"), num("r")))
        if tag == "polyline":
            values = [float(v) for v in re.split(r"[\s,]+", (node.get("points") or "").strip())
                      if v]
            if fill is not None or stroke is None or len(values) < 4 or len(values) % 2:
                raise StepFailed(f"{step}: {where}: a polyline needs fill=\"none\", a stroke "
                                 "and at least two points")
            if node.get("stroke-linecap") != "round" or node.get("stroke-linejoin") != "round":
                raise StepFailed(f"{step}: {where}: a polyline is drawn with round caps and "
                                 "joins only")
            return Shape("polyline", None, stroke, width, tuple(values))
        raise StepFailed(f"{step}: {where}: only rect, circle and polyline are drawn")

    plate = root.find(f"{_SVG}rect[@id='plate']")
    motif = root.find(f"{_SVG}g[@id='motif']")
    if plate is None or motif is None:
        raise StepFailed(f"{step}: {svg.name}: needs <rect id=\"plate\"> and <g id=\"motif\">")
    return box[2], shape(plate), [shape(node) for node in motif]


def _distance(shape: Shape, x: float, y: float) -> float:
    """Signed distance from (x, y) to the shape's filled outline (negative inside)."""
    p = shape.params
    if shape.kind == "rect":
        hx, hy, r = p[2] / 2, p[3] / 2, min(p[4], p[2] / 2, p[3] / 2)
        qx = abs(x - p[0] - hx) - hx + r
        qy = abs(y - p[1] - hy) - hy + r
        return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r
    if shape.kind == "circle":
        return math.hypot(x - p[0], y - p[1]) - p[2]
    best = math.inf  # a polyline: the nearest of its segments
    for i in range(0, len(p) - 2, 2):
        ax, ay, bx, by = p[i], p[i + 1], p[i + 2], p[i + 3]
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length))
        best = min(best, math.hypot(x - ax - t * dx, y - ay - t * dy))
    return best


def _extent(shape: Shape) -> tuple[float, float, float, float]:
    """The shape's bounding box with its stroke: x0, y0, x1, y1."""
    p = shape.params
    pad = shape.width / 2
    if shape.kind == "rect":
        return p[0] - pad, p[1] - pad, p[0] + p[2] + pad, p[1] + p[3] + pad
    if shape.kind == "circle":
        return p[0] - p[2] - pad, p[1] - p[2] - pad, p[0] + p[2] + pad, p[1] + p[2] + pad
    return min(p[0::2]) - pad, min(p[1::2]) - pad, max(p[0::2]) + pad, max(p[1::2]) + pad


def render_icon(size: int, units: float, shapes: list[Shape]) -> bytes:
    """RGBA pixels (size x size, rows top to bottom) of ``shapes`` drawn in order, each pixel
    covered by how far its centre lies inside the outline (a one-pixel anti-aliased edge)."""
    scale = size / units  # pixels per unit
    n = size * size
    premultiplied = [[0.0] * n for _ in range(4)]
    r_, g_, b_, a_ = premultiplied
    for shape in shapes:
        x0, y0, x1, y1 = _extent(shape)
        cols = range(max(0, int(x0 * scale) - 1), min(size, int(x1 * scale) + 2))
        rows = range(max(0, int(y0 * scale) - 1), min(size, int(y1 * scale) + 2))
        for colour, stroked in ((shape.fill, False), (shape.stroke, True)):
            if colour is None:
                continue
            red, green, blue = (c / 255 for c in colour)
            half = shape.width / 2
            for py in rows:
                y = (py + 0.5) / scale
                base = py * size
                for px in cols:
                    d = _distance(shape, (px + 0.5) / scale, y)
                    if stroked:
                        d = d - half if shape.kind == "polyline" else abs(d) - half
                    cover = 0.5 - d * scale
                    if cover <= 0.0:
                        continue
                    if cover > 1.0:
                        cover = 1.0
                    i = base + px
                    keep = 1.0 - cover
                    r_[i] = red * cover + r_[i] * keep
                    g_[i] = green * cover + g_[i] * keep
                    b_[i] = blue * cover + b_[i] * keep
                    a_[i] = cover + a_[i] * keep
    out = bytearray(4 * n)
    for i in range(n):
        alpha = a_[i]
        if alpha > 0:
            out[4 * i] = round(min(1.0, r_[i] / alpha) * 255)
            out[4 * i + 1] = round(min(1.0, g_[i] / alpha) * 255)
            out[4 * i + 2] = round(min(1.0, b_[i] / alpha) * 255)
            out[4 * i + 3] = round(alpha * 255)
    return bytes(out)


def png_bytes(size: int, rgba: bytes) -> bytes:
    """A PNG file (8-bit RGBA, no filter, zlib level 9) of square ``rgba`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (len(data).to_bytes(4, "big") + kind + data
                + zlib.crc32(kind + data).to_bytes(4, "big"))

    stride = 4 * size
    raw = b"".join(b"\x00" + rgba[y * stride:(y + 1) * stride] for y in range(size))
    header = size.to_bytes(4, "big") * 2 + bytes([8, 6, 0, 0, 0])
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG file's header; ValueError if it is not a PNG."""
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def icon_shapes(kind: str, units: float, plate: Shape, motif: list[Shape]) -> list[Shape]:
    """What an icon of ``kind`` draws: "any" the plate as drawn and the motif; "maskable" a
    full-bleed plate and the motif scaled into the safe zone; "bleed" a full-bleed plate."""
    if kind == "any":
        return [plate, *motif]
    bleed = dataclasses.replace(plate, stroke=None, width=0.0, params=(0, 0, units, units, 0))
    if kind == "maskable":
        return [bleed, *(s.scaled(MASKABLE_MOTIF_SCALE, units / 2) for s in motif)]
    return [bleed, *motif]


def make_icons(site: Path) -> list[str]:
    """Render every icon of ICONS from the site's icons/icon.svg into the site (kept in
    build/runtime-cache by the source's hash, so an unchanged icon is not drawn again);
    return their paths."""
    source = site / ICON_SOURCE
    if not source.is_file():
        raise StepFailed(f"step 'render the icons' failed: web/{ICON_SOURCE.as_posix()} is "
                         "missing")
    units, plate, motif = read_icon(source)
    renderer = inspect.getsource(render_icon) + inspect.getsource(icon_shapes)
    key = hashlib.sha256((source.read_text(encoding="utf-8") + renderer + repr(ICONS)
                          + repr(MASKABLE_MOTIF_SCALE)).encode()).hexdigest()[:16]
    cache = RUNTIME_CACHE / f"icons-{key}"
    if not cache.is_dir():
        say(f"render the icons from web/{ICON_SOURCE.as_posix()}")
        RUNTIME_CACHE.mkdir(parents=True, exist_ok=True)
        for old in RUNTIME_CACHE.glob("icons-*"):
            shutil.rmtree(old)  # keep only the newest
        partial = RUNTIME_CACHE / "partial-icons"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir()
        for name, size, kind in ICONS:
            pixels = render_icon(size, units, icon_shapes(kind, units, plate, motif))
            (partial / Path(name).name).write_bytes(png_bytes(size, pixels))
        partial.replace(cache)
    for name, _size, _kind in ICONS:
        shutil.copy2(cache / Path(name).name, site / name)
    return [name for name, _size, _kind in ICONS]

