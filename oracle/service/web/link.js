// The shareable link: the page's state as base64url JSON (UTF-8) in the URL fragment.

/** The base64url text of a value's JSON. */
export function encode(obj) {
  const bytes = new TextEncoder().encode(JSON.stringify(obj));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The value of a base64url JSON text; throws on damaged text. */
export function decode(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))));
}
