// A rule set pasted in the protobuf text format (as in specs/*.textproto) turned into the protobuf JSON mapping,
// so a house rule can travel inline in a request (RuleSetRef.inline). The server validates it like a spec file.

/** The repeated fields of oracle.api.v1.RuleSet and its submessages (tests/test_browser_pieces.py checks it). */
export const REPEATED_FIELDS = ["choices", "cite", "count_values", "fields", "minimum_by_hand", "others", "rank_rules", "rank_values", "rules", "thresholds"];

/** A text-format syntax error: says the line and what was expected. */
export class TextprotoError extends Error {}

function tokenize(text) {
  const tokens = [];
  const re = /\s+|#[^\n]*|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|([{}[\]:,;<>])|([A-Za-z_][\w.]*|[-+]?[\d.][\w.+-]*)|(.)/gy;
  let line = 1;
  let m;
  while ((m = re.exec(text)) !== null) {
    const [all, str, punct, word, bad] = m;
    if (str !== undefined) tokens.push({ kind: "string", value: str, line });
    else if (punct !== undefined) tokens.push({ kind: punct, line });
    else if (word !== undefined) tokens.push({ kind: "word", value: word, line });
    else if (bad !== undefined) throw new TextprotoError(`line ${line}: unexpected character '${bad}'`);
    line += (all.match(/\n/g) || []).length;
  }
  return tokens;
}

function unquote(token) {
  const body = token.value.slice(1, -1);
  return body.replace(/\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)/g, (_, e) => {
    const simple = { n: "\n", t: "\t", r: "\r", '"': '"', "'": "'", "\\": "\\" };
    if (e in simple) return simple[e];
    if (e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return e;
  });
}

function scalar(token) {
  if (token.kind === "string") return unquote(token);
  const v = token.value;
  if (v === "true" || v === "True" || v === "t") return true;
  if (v === "false" || v === "False" || v === "f") return false;
  if (/^[-+]?\d+$/.test(v)) return Number(v);
  if (/^[-+]?[\d.]+(e[-+]?\d+)?f?$/i.test(v)) return Number(v.replace(/f$/i, ""));
  return v; // an enum value name
}

/** Parse a text-format RuleSet into a plain object in the protobuf JSON mapping (original field names). */
export function parseTextproto(text) {
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i];
  const where = () => (peek() ? `line ${peek().line}` : "at the end");
  const expect = (kind) => {
    const t = tokens[i];
    if (!t || t.kind !== kind) throw new TextprotoError(`${where()}: expected '${kind}'`);
    i += 1;
    return t;
  };

  function value() {
    const t = peek();
    if (!t) throw new TextprotoError(`at the end: a value is missing`);
    if (t.kind === "{" || t.kind === "<") {
      i += 1;
      return message(t.kind === "{" ? "}" : ">");
    }
    if (t.kind === "string") {
      let s = "";
      while (peek() && peek().kind === "string") s += scalar(tokens[i++]);
      return s;
    }
    if (t.kind === "word") {
      i += 1;
      return scalar(t);
    }
    throw new TextprotoError(`line ${t.line}: expected a value, got '${t.kind}'`);
  }

  function message(close) {
    const out = {};
    for (;;) {
      const t = peek();
      if (!t) {
        if (close) throw new TextprotoError(`at the end: '${close}' is missing`);
        return out;
      }
      if (close && t.kind === close) {
        i += 1;
        return out;
      }
      if (t.kind !== "word") throw new TextprotoError(`line ${t.line}: expected a field name, got '${t.kind}'`);
      i += 1;
      const name = t.value;
      let values;
      const next = peek();
      if (next && next.kind === ":") {
        i += 1;
        if (peek() && peek().kind === "[") {
          i += 1;
          values = [];
          while (peek() && peek().kind !== "]") {
            values.push(value());
            if (peek() && peek().kind === ",") i += 1;
          }
          expect("]");
        } else {
          values = [value()];
        }
      } else if (next && (next.kind === "{" || next.kind === "<")) {
        values = [value()];
      } else {
        throw new TextprotoError(`line ${t.line}: expected ':' or '{' after '${name}'`);
      }
      if (REPEATED_FIELDS.includes(name)) out[name] = (out[name] || []).concat(values);
      else if (name in out || values.length !== 1) {
        throw new TextprotoError(`line ${t.line}: field '${name}' is given more than once`);
      } else out[name] = values[0];
      if (peek() && (peek().kind === "," || peek().kind === ";")) i += 1;
    }
  }

  return message(null);
}
