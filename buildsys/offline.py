"""The service worker's list of files: sw-manifest.json and the same list written into
sw.js, whose version names the build."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from buildsys.levels import BLOCK_NAME
from buildsys.steps import StepFailed, sha256_of

SW_PLACEHOLDER = ("const BUILD = /** @type {SiteBuild | null} */ (null);  "
                  "// build.py writes this build's version and files here")


# The service worker fills its cache with the whole site but the main line's later blocks:
# those (tens of MiB in all) are cached one by one as the player reaches them.
PRECACHED_LEVELS = 100


def write_offline_manifest(site: Path) -> str:
    """Write the service worker's list of files (every file of the site but sw.js, with
    its SHA-256 and size; main-line blocks past level 100 marked ``lazy``) into sw.js and
    sw-manifest.json; return the build's version.

    The version is a hash of that list, so any change to any file names a new cache; and
    because it is written into sw.js itself, the browser sees a new service worker on
    every new build (an unchanged sw.js would never be re-installed).
    """
    sw = site / "sw.js"
    files: list[dict[str, object]] = []
    for path in sorted(site.rglob("*")):
        if path.is_file() and path != sw and path.name != "sw-manifest.json":
            entry: dict[str, object] = {"path": path.relative_to(site).as_posix(),
                                        "sha256": sha256_of(path),
                                        "bytes": path.stat().st_size}
            block = BLOCK_NAME.fullmatch(path.name) if path.parent.name == "levels" else None
            if block and int(block[1]) > PRECACHED_LEVELS:
                entry["lazy"] = True  # cached when first fetched, not at install
            files.append(entry)
    listing = "".join(f"{f['path']} {f['sha256']}\n" for f in files)
    version = hashlib.sha256(listing.encode("utf-8")).hexdigest()[:16]
    build_info = {"version": version, "files": files}
    (site / "sw-manifest.json").write_text(json.dumps(build_info, indent=1, sort_keys=True))
    if sw.exists():
        source = sw.read_text(encoding="utf-8")
        if source.count(SW_PLACEHOLDER) != 1:
            raise StepFailed("step 'write the offline manifest' failed: web/sw.js must hold "
                             f"the line {SW_PLACEHOLDER!r} once")
        # Written beside and renamed: a browser checking sw.js mid-deploy gets the old
        # file or the new one, never half of one.
        staged = sw.with_name("sw.js.tmp")
        staged.write_text(source.replace(
            SW_PLACEHOLDER, f"const BUILD = {json.dumps(build_info, sort_keys=True)};"),
            encoding="utf-8")
        os.replace(staged, sw)
    return version

