// Kubernetes apiserver continue tokens, byte for byte as k8s.io/apiserver writes them
// (pkg/storage/continue.go: EncodeContinue / DecodeContinue): base64url without padding
// of Go's json.Marshal of {"v":"meta.k8s.io/v1","rv":N,"start":"<key after the prefix>"}.

const HEX = "0123456789abcdef";

/**
 * goJsonString quotes a string exactly as Go's encoding/json (Go >= 1.22, HTML escaping
 * on, the json.Marshal default): `\"` `\\` `\b` `\f` `\n` `\r` `\t`, other bytes < 0x20 and
 * `<` `>` `&` as `\u00xx` (lowercase hex), U+2028/U+2029 as `\u2028`/`\u2029`, invalid
 * UTF-16 (a lone surrogate, which has no UTF-8) as `\ufffd`, everything else raw.
 */
export function goJsonString(s) {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      switch (c) {
        case 0x22: out += '\\"'; break;
        case 0x5c: out += "\\\\"; break;
        case 0x08: out += "\\b"; break;
        case 0x0c: out += "\\f"; break;
        case 0x0a: out += "\\n"; break;
        case 0x0d: out += "\\r"; break;
        case 0x09: out += "\\t"; break;
        default:
          if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26) {
            out += `\\u00${HEX[c >> 4]}${HEX[c & 0xf]}`;
          } else {
            out += s[i];
          }
      }
    } else if (c === 0x2028 || c === 0x2029) {
      out += c === 0x2028 ? "\\u2028" : "\\u2029";
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i] + s[i + 1];
        i++;
      } else {
        out += "\\ufffd";
      }
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      out += "\\ufffd";
    } else {
      out += s[i];
    }
  }
  return out + '"';
}

/** The JSON text the apiserver encodes (field order v, rv, start as in its Go struct). */
export function continueTokenJson(rv, start) {
  return `{"v":"meta.k8s.io/v1","rv":${rv},"start":${goJsonString(start)}}`;
}

/**
 * encodeContinue builds a continue token that lists from `startKey` (absolute, e.g.
 * `kubeapps/nginx\u0000`: the last returned key plus NUL) under `keyPrefix` (`kubeapps/`
 * for a namespaced list, `` across namespaces) at resourceVersion `rv` (-1: inconsistent).
 */
export function encodeContinue(startKey, keyPrefix, rv) {
  const start = startKey.startsWith(keyPrefix) ? startKey.slice(keyPrefix.length) : startKey;
  return Buffer.from(continueTokenJson(rv, start), "utf8").toString("base64url");
}

/** An invalid continue token; the message is the apiserver's. */
export class InvalidContinueError extends Error {}

const B64URL = /^[A-Za-z0-9_-]*$/;

// Go's base64.RawURLEncoding.DecodeString: URL alphabet, no padding, CR/LF ignored,
// a length of 4k+1 is corrupt.
function decodeRawUrl(s) {
  const t = s.replace(/[\r\n]/g, "");
  if (!B64URL.test(t) || t.length % 4 === 1) return null;
  return Buffer.from(t, "base64url");
}

// Go's path.Clean applied to "/"+start must give it back unchanged (the apiserver's
// defence against tokens that would range outside the list's prefix).
function isCleanPath(p) {
  const parts = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return `/${parts.join("/")}` === p;
}

// encoding/json matches field names case-insensitively when there is no exact match.
function field(obj, name) {
  if (Object.hasOwn(obj, name)) return obj[name];
  let found;
  for (const k of Object.keys(obj)) if (k.toLowerCase() === name) found = obj[k];
  return found;
}

/**
 * decodeContinue reads a token against `keyPrefix` and returns `{fromKey, rv}` where
 * `fromKey` is the absolute key to list from (inclusive). Throws InvalidContinueError
 * with the apiserver's messages (base64/JSON errors, unknown version, rv 0, empty or
 * unclean start key).
 */
export function decodeContinue(token, keyPrefix) {
  const bytes = decodeRawUrl(token);
  if (!bytes) throw new InvalidContinueError("continue key is not valid: illegal base64 data");
  let c;
  try {
    c = JSON.parse(new TextDecoder("utf-8", { fatal: false }).decode(bytes));
  } catch (e) {
    throw new InvalidContinueError(`continue key is not valid: ${e.message}`);
  }
  if (c === null || typeof c !== "object" || Array.isArray(c)) {
    throw new InvalidContinueError("continue key is not valid: not a JSON object");
  }
  const v = field(c, "v");
  const rv = field(c, "rv") ?? 0;
  const start = field(c, "start") ?? "";
  if ((v !== undefined && typeof v !== "string") || !Number.isSafeInteger(rv) || typeof start !== "string") {
    throw new InvalidContinueError("continue key is not valid: json: cannot unmarshal into continueToken");
  }
  if (v !== "meta.k8s.io/v1") {
    throw new InvalidContinueError(
      `continue key is not valid: server does not recognize this encoded version ${v ?? ""}`);
  }
  if (rv === 0) {
    throw new InvalidContinueError(
      "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }
  if (start.length === 0) {
    throw new InvalidContinueError("continue key is not valid: encoded start key empty");
  }
  const key = start.startsWith("/") ? start : `/${start}`;
  if (!isCleanPath(key)) throw new InvalidContinueError(`continue key is not valid: ${start}`);
  return { fromKey: keyPrefix + key.slice(1), rv };
}
