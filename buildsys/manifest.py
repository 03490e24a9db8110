"""The web app manifest (web/app.webmanifest) checked against what an installable app
needs; a problem fails the build, naming its field."""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Mapping
from pathlib import Path

from buildsys.icons import png_size
from buildsys.steps import StepFailed

APP_MANIFEST = "app.webmanifest"  # the web app manifest (manifest.json is the wheel's)
_HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def app_manifest_issues(site: Path) -> list[str]:
    """Every problem of the site's web app manifest, each as "field: what is wrong" (empty
    when it is valid): the fields an installable app needs, relative start_url and scope
    (so the app works under any sub-path) with the start URL inside the scope, and each
    icon present in the site as a PNG of its stated size, among them "any" icons of 192
    and 512 px and a maskable one."""
    try:
        manifest = json.loads((site / APP_MANIFEST).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return [f"{APP_MANIFEST}: {exc}"]
    if not isinstance(manifest, dict):
        return ["(top): must be an object"]
    issues = _field_issues(manifest) + _url_issues(manifest)
    icons = manifest.get("icons")
    if not isinstance(icons, list) or not icons:
        return [*issues, "icons: must be a non-empty list"]
    return issues + _icons_issues(site, icons)


def _field_issues(manifest: Mapping[str, object]) -> list[str]:
    """The problems of the manifest's names, display mode and colours."""
    issues: list[str] = []
    for key in ("name", "short_name", "description"):
        value = manifest.get(key)
        if not isinstance(value, str) or not value.strip():
            issues.append(f"{key}: must be a non-empty string")
    short_name = manifest.get("short_name")
    if isinstance(short_name, str) and len(short_name) > 12:
        issues.append("short_name: at most 12 characters (a launcher cuts longer ones)")
    if manifest.get("display") not in ("standalone", "fullscreen"):
        issues.append('display: must be "standalone" or "fullscreen"')
    for key in ("theme_color", "background_color"):
        value = manifest.get(key)
        if not isinstance(value, str) or not _HEX_COLOUR.fullmatch(value):
            issues.append(f"{key}: must be a #rrggbb colour")
    return issues


def _url_issues(manifest: Mapping[str, object]) -> list[str]:
    """The problems of start_url and scope: relative, the start URL inside the scope."""
    issues: list[str] = []
    # Resolved as the browser does, against the manifest's own URL on some sub-path.
    here = "https://host.invalid/some/path/" + APP_MANIFEST
    urls: dict[str, str] = {}
    for key in ("start_url", "scope"):
        value = manifest.get(key)
        if (not isinstance(value, str) or value.startswith("/")
                or urllib.parse.urlsplit(value).scheme or urllib.parse.urlsplit(value).netloc):
            issues.append(f"{key}: must be a relative URL (the site may live under any path)")
        else:
            urls[key] = urllib.parse.urljoin(here, value)
    if len(urls) == 2 and not urls["start_url"].startswith(urls["scope"]):
        issues.append("start_url: must lie inside scope")
    return issues


def _icons_issues(site: Path, icons: list[object]) -> list[str]:
    """The problems of the icons: each a PNG of the site of its stated size; "any" icons of
    192 and 512 px and a maskable one of 512 among them."""
    issues: list[str] = []
    found: set[tuple[str, int]] = set()
    for i, icon in enumerate(icons):
        issue, purposes = _icon_issue(site, f"icons[{i}]", icon)
        if issue is not None:
            issues.append(issue)
        found |= purposes
    for purpose, size in (("any", 192), ("any", 512), ("maskable", 512)):
        if (purpose, size) not in found:
            issues.append(f"icons: no {purpose} icon of {size}x{size}")
    return issues


def _icon_issue(site: Path, where: str, icon: object) -> tuple[str | None, set[tuple[str, int]]]:
    """One icon's first problem (None when it has none) and the (purpose, size) pairs it
    provides."""
    if not isinstance(icon, dict) or not isinstance(icon.get("src"), str):
        return f"{where}.src: must be a path in the site", set()
    src: str = icon["src"]
    path = site / src
    if urllib.parse.urlsplit(src).scheme or src.startswith("/") or not path.is_file():
        return f"{where}.src: {src!r} is not a file of the site", set()
    if icon.get("type") != "image/png":
        return f'{where}.type: must be "image/png"', set()
    try:
        width, height = png_size(path)
    except ValueError as exc:
        return f"{where}.src: {src}: {exc}", set()
    if icon.get("sizes") != f"{width}x{height}":
        return (f"{where}.sizes: {icon.get('sizes')!r}, but {src} is "
                f"{width}x{height}"), set()
    return None, {(purpose, width) for purpose in str(icon.get("purpose", "any")).split()}


def check_app_manifest(site: Path) -> None:
    """Fail the build, naming every problem, when the web app manifest is not valid."""
    issues = app_manifest_issues(site)
    if issues:
        raise StepFailed(f"step 'check the web app manifest' failed: {APP_MANIFEST}: "
                         + "; ".join(issues))

