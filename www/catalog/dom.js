// DOM helpers. Text always goes in as text nodes (never as HTML): catalog data can hold markup.

/**
 * h(tag, props, ...children) makes an element. props: `class`, `text` (textContent), `dataset`
 * (an object), `on<event>` (listeners), anything else as an attribute (`true` = empty, false/null/
 * undefined = left out). Children: nodes, or strings/numbers (as text nodes); arrays are flattened.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** The element with this id (throws when the page lacks it: a wiring bug, found at once). */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el;
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** A definition list `<dl class="kv">` of [term, value, testid?] rows. */
export function kv(rows, className = "kv") {
  return h("dl", { class: className }, rows.flatMap(([term, value, testid]) => [
    h("dt", { text: term }),
    h("dd", { text: value, dataset: testid ? { testid } : undefined }),
  ]));
}

/** Integers with thousands separators, fixed locale so screenshots and tests read the same. */
export const num = (n) => (Number.isFinite(n) ? n.toLocaleString("en-US") : "—");

/** Shortens a long string for display: the start, an ellipsis, the end. */
export function abbreviate(s, max = 48) {
  if (s.length <= max) return s;
  const half = Math.floor((max - 1) / 2);
  return `${s.slice(0, half)}…${s.slice(s.length - half)}`;
}

/** GETs JSON; rejects with an Error carrying `status` and the body's `error`/`message`. */
export async function getJson(url, init = {}) {
  const res = await fetch(url, { ...init, headers: { accept: "application/json", ...(init.headers ?? {}) } });
  let body;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const message = body?.error ?? body?.message ?? res.statusText;
    throw Object.assign(new Error(`${init.method ?? "GET"} ${url}: HTTP ${res.status}: ${message}`), { status: res.status, body });
  }
  return body;
}

/** POSTs a JSON body and returns the JSON answer (errors as getJson). */
export function postJson(url, body = {}) {
  return getJson(url, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
}
