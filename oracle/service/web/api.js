// Calls the oracle over the Connect protocol (unary POST of protobuf JSON), with the server's bearer token when
// one is given, and turns a Connect error into a message and the list of fields it names (google.rpc BadRequest
// and PreconditionFailure details).

const SERVICE = "oracle.api.v1.OracleService";
const TOKEN_KEY = "canasta-oracle.token";

/** What an UNAUTHENTICATED answer says, pointing at the field where the token goes. */
export const TOKEN_NEEDED = "This server only answers callers with its access token: enter it in \u201cServer access\u201d at the top of the page";

/** The bearer token kept for this tab (sessionStorage: it survives a reload, not the tab; never in a link). */
export function savedToken() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

let token = savedToken();

/** Use `text` as the bearer token of every call from now on (empty: none), and keep it for this tab. */
export function setToken(text) {
  token = String(text).trim();
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage refused (a private window): the token still holds until the page is left
  }
}

/** An error answer: `code` (e.g. "failed_precondition"), `message`, and `problems` [{field, description}]. */
export class OracleError extends Error {
  constructor(code, message, problems) {
    super(message);
    this.code = code;
    this.problems = problems;
  }
}

function base64Bytes(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/** The length-delimited fields of a protobuf message: [[number, bytes], ...] (other wire types skipped). */
function fields(bytes) {
  const out = [];
  let i = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[i++];
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return v;
    }
  };
  while (i < bytes.length) {
    const key = varint();
    const wire = key % 8;
    if (wire === 0) varint();
    else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else if (wire === 2) {
      const n = varint();
      out.push([Math.floor(key / 8), bytes.subarray(i, i + n)]);
      i += n;
    } else break;
  }
  return out;
}

const utf8 = new TextDecoder();

/** The problems a detail lists: BadRequest field violations, PreconditionFailure violations. */
function detailProblems(detail) {
  const type = String(detail.type || "").replace(/^.*\//, "");
  if (detail.debug) {
    const d = detail.debug;
    const list = d.fieldViolations || d.field_violations || d.violations || [];
    return list.map((v) => ({ field: v.field || v.subject || "", description: v.description || "" }));
  }
  if (!detail.value) return [];
  const entries = fields(base64Bytes(detail.value)).filter(([n]) => n === 1);
  if (type === "google.rpc.BadRequest") {
    return entries.map(([, b]) => {
      const f = Object.fromEntries(fields(b).map(([n, v]) => [n, utf8.decode(v)]));
      return { field: f[1] || "", description: f[2] || "" };
    });
  }
  if (type === "google.rpc.PreconditionFailure") {
    return entries.map(([, b]) => {
      const f = Object.fromEntries(fields(b).map(([n, v]) => [n, utf8.decode(v)]));
      return { field: f[2] || "", description: f[3] || "" };
    });
  }
  return [];
}

/** Call one method with a request in protobuf JSON; resolves to the answer, rejects with an OracleError. */
export async function call(method, request) {
  let response;
  try {
    response = await fetch(`/${SERVICE}/${method}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json", "Connect-Protocol-Version": "1",
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(request),
    });
  } catch (e) {
    throw new OracleError("unavailable", `the oracle cannot be reached (${e.message})`, []);
  }
  const text = await response.text();
  let body;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new OracleError("unknown", `the oracle answered ${response.status} with something that is not JSON`, []);
  }
  if (!response.ok) {
    if (body.code === "unauthenticated") {
      const why = token ? `the token given was refused: \u201c${body.message || "wrong token"}\u201d` : "no token was given";
      const error = new OracleError("unauthenticated", `${TOKEN_NEEDED} (${why}).`, []);
      error.reason = why;
      window.dispatchEvent(new CustomEvent("oracle-unauthenticated", { detail: error }));
      throw error;
    }
    const problems = (body.details || []).flatMap(detailProblems);
    throw new OracleError(body.code || "unknown", body.message || `HTTP ${response.status}`, problems);
  }
  return body;
}
