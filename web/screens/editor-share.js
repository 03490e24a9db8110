// Share links for the editor: a level's canonical text (from Python) compressed with
// CompressionStream("deflate-raw") and written in base64url, so that it fits a URL fragment.
// Decoding checks sizes before anything is parsed: the code's length first, then the
// inflated text is read with a byte cap, so a hostile link can neither bloat memory nor reach
// the JSON reader with more than SHARE_MAX_TEXT bytes. Python then validates the level.

import { t } from "../i18n.js";

/** Longest share code accepted (characters of base64url). */
export const SHARE_MAX_CODE = 12000;
/** Longest level text a share code may inflate to (bytes). */
export const SHARE_MAX_TEXT = 64 * 1024;

export class ShareError extends Error {}

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(code) {
  if (!/^[A-Za-z0-9_-]+$/.test(code) || code.length % 4 === 1) {
    throw new ShareError(t("editor.share.bad-code"));
  }
  const base64 = code.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((code.length + 3) % 4);
  let binary;
  try { binary = atob(base64); } catch { throw new ShareError(t("editor.share.undecodable")); }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pump(stream, limit) {
  const reader = stream.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new ShareError(t("editor.share.too-large", { limit }));
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

/** The share code of a level's canonical text. */
export async function encodeShare(text) {
  const input = new Blob([new TextEncoder().encode(text)]).stream();
  const bytes = await pump(input.pipeThrough(new CompressionStream("deflate-raw")), Infinity);
  return toBase64Url(bytes);
}

/** The level text in a share code; throws ShareError (in the player's words) when the code is
 * too long, is not base64url, does not inflate, inflates past the cap, or is not UTF-8. */
export async function decodeShare(code) {
  if (typeof code !== "string" || !code) throw new ShareError(t("editor.share.empty"));
  if (code.length > SHARE_MAX_CODE) {
    throw new ShareError(t("editor.share.too-long", { length: code.length, max: SHARE_MAX_CODE }));
  }
  const packed = fromBase64Url(code);
  let bytes;
  try {
    const input = new Blob([packed]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    bytes = await pump(input, SHARE_MAX_TEXT);
  } catch (error) {
    if (error instanceof ShareError) throw error;
    throw new ShareError(t("editor.share.damaged"));
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ShareError(t("editor.share.not-text"));
  }
}
