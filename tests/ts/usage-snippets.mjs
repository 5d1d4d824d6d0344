// Writes every code snippet of docs/USAGE.md and docs/PACKAGE.md (the package's README) that is code a consumer runs (```js, ```jsx, ```ts,
// ```tsx, and the module script of the ```html one) into tests/ts/usage/ (not committed: made
// anew on every run), one file a snippet, named by its line, for `tsc -p tests/ts/tsconfig.usage.json`
// (strict; the JS ones with checkJs). A snippet that uses names it does not define (a `pager`, the
// `options` of the page around it) says so in an HTML comment right above its fence, invisible in
// the rendered page: `<!-- tsc: declare const pager: Pager; -->` is put before the snippet's code
// (imports it needs are allowed there too). `<!-- tsc: skip REASON -->` leaves a snippet out; none
// does today. Fails when the doc has no snippet (a broken extraction must not pass).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const out = path.join(here, "usage");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// USAGE.md, and the package's own README (PACKAGE.md), whose snippets are named package-line-N.
let written = 0;
for (const [name, prefix] of [["USAGE.md", "usage"], ["PACKAGE.md", "package"]]) extract(name, prefix);
if (written === 0) throw new Error("docs: no snippet found");
console.log(`tests/ts/usage/: ${written} snippets of docs/USAGE.md and docs/PACKAGE.md`);

function extract(name, prefix) {
const doc = readFileSync(path.join(here, "..", "..", "docs", name), "utf8").split("\n");

const EXT = { js: "js", jsx: "jsx", ts: "ts", tsx: "tsx", html: "js" };
for (let i = 0; i < doc.length; i++) {
  const fence = /^```(\w+)\s*$/.exec(doc[i]);
  if (!fence) continue;
  const end = doc.indexOf("```", i + 1);
  if (end < 0) throw new Error(`docs/${name}:${i + 1}: unclosed fence`);
  const lang = fence[1];
  let body = doc.slice(i + 1, end);
  const at = i + 1;
  i = end;
  if (!(lang in EXT)) continue;
  const comment = /^<!-- tsc: (.*) -->$/.exec(doc[at - 2] ?? "");
  if (comment?.[1].startsWith("skip")) continue;
  if (lang === "html") {
    const from = body.findIndex((l) => l.includes('<script type="module">'));
    const to = body.findIndex((l, k) => k > from && l.includes("</script>"));
    if (from < 0 || to < 0) continue;
    body = body.slice(from + 1, to);
  }
  // A CommonJS snippet (require) is a .cjs file; a first-line comment may name the file.
  const cjs = body.some((l) => /\brequire\("/.test(l));
  const ext = cjs ? "cjs" : EXT[lang];
  const preamble = comment ? [comment[1]] : [];
  // Every snippet is a module of its own (its names do not clash with another's).
  const text = [...preamble, ...body, cjs ? "" : "export {};", ""].join("\n");
  // A snippet that names its file on its first line (`// CatalogRoute.jsx: …`) is written under
  // that name, so that another snippet may import it (`import("./CatalogRoute")`).
  const named = /^\/\/ (?:[\w.-]+\/)*([\w-]+\.(?:[cm]?[jt]sx?))\b/.exec(body[0] ?? "");
  const file = named ? named[1] : `${prefix}-line-${String(at).padStart(4, "0")}.${ext}`;
  if (existsSync(path.join(out, file))) throw new Error(`docs/${name}:${at}: a second snippet named ${file}`);
  writeFileSync(path.join(out, file), text);
  written++;
}
}
