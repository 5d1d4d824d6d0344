// Turns wasm-bindgen's outputs in pkg/ (three modules, three targets each) into one npm package:
// entry points that add PagerError, a CommonJS copy of the snippets for the nodejs builds,
// per-target package.json files, the package's own package.json (entries "." for the pager
// module, "./codec" for the codec module, "./collation" for the pager module with the collator,
// with codec/ and collation/package.json for resolvers that ignore `exports`) and its README
// (docs/PACKAGE.md).
import { readFileSync, writeFileSync, readdirSync, existsSync, copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const pkg = join(root, "pkg");
const crate = "kubeapps_pager";
const version = /^version = "([^"]+)"/m.exec(readFileSync(join(root, "Cargo.toml"), "utf8"))[1];

/** The path of src/wasm/`file` as wasm-bindgen copied it into a build's snippets/, from `base`. */
function snippet(base, file = "errors.js") {
  const dir = join(base, "snippets");
  const crates = readdirSync(dir).filter((d) => d.startsWith("kubeapps-pager-"));
  if (crates.length !== 1) throw new Error(`expected one snippet folder in ${dir}, found ${crates}`);
  const path = join(dir, crates[0], "src", "wasm", file);
  if (!existsSync(path)) throw new Error(`missing ${path}`);
  return "./" + relative(base, path);
}
const errorSnippet = (base) => snippet(base);

/**
 * What the pager module's snippets export to users besides the glue's (no wasm export): the
 * built-in fetchers (fetchers.js, kube.js, connect.js), and window.js's page window and URL
 * helpers. wasm-bindgen copies only the snippets the wasm imports (kube.js through a binding in
 * src/wasm/options.rs); connect.js and window.js are none of them, so `entries` copies them
 * beside them (`copy`).
 */
const OWN = [
  { file: "fetchers.js", names: ["kubeappsFetcher", "kubernetesListFetcher"] },
  { file: "kube.js", names: ["kubernetesFetcher"] },
  { file: "connect.js", names: ["connectFetcher"], copy: true },
  { file: "window.js", names: ["PageWindow", "readPageToken", "writePageToken"], copy: true },
];

function writeJson(file, value) {
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

/**
 * The entry points of one wasm module's three builds: `dir` (pkg/ or pkg/codec/) holds web/,
 * bundler/ and nodejs/ as wasm-bindgen made them, with glue named `name`.js. `own`: the names
 * snippets export to users besides the glue's, `[{ file, names, copy? }]` from src/wasm/`file`
 * (`copy`: a file the wasm does not import, copied here), if any.
 */
function entries(dir, name, own = []) {
  for (const target of ["web", "bundler", "nodejs"]) {
    const base = join(dir, target);
    for (const { file } of own.filter((o) => o.copy)) {
      copyFileSync(join(root, "src", "wasm", file), join(base, dirname(errorSnippet(base)), file));
    }
  }
  // ESM targets: re-export the glue and PagerError from the same snippet module the glue uses,
  // so `instanceof PagerError` holds for every thrown error.
  for (const target of ["web", "bundler"]) {
    const base = join(dir, target);
    // The web build's init is wasm-bindgen's default export; it is also exported as `init`, as the
    // nodejs build does, so `import { init }` works (and type-checks) with either build.
    // The web build's init runs once: a second call (a route's effect, React StrictMode, two
    // routes at once) gets the first call's promise, so the wasm is fetched and instantiated once
    // (wasm-bindgen's own init instantiates again when called before the first has finished). A
    // failed init (a network error) is forgotten, so a later call tries again.
    const lines = [
      `export * from "./${name}.js";`,
      target === "web" ? `import glueInit from "./${name}.js";` : null,
      target === "web"
        ? "let ready;\nfunction init(input) {\n  return (ready ??= glueInit(input).catch((e) => {\n    ready = undefined;\n    throw e;\n  }));\n}\nexport { init as default, init };"
        : null,
      `export { PagerError } from "${errorSnippet(base)}";`,
      ...own.filter((o) => o.names.length > 0).map((o) => `export { ${o.names.join(", ")} } from "${snippet(base, o.file)}";`),
    ].filter(Boolean);
    writeFileSync(join(base, "index.js"), lines.join("\n") + "\n");
    writeFileSync(
      join(base, "index.d.ts"),
      [`export * from "./${name}.js";`, target === "web" ? `export { default, default as init } from "./${name}.js";` : null]
        .filter(Boolean)
        .join("\n") + "\n",
    );
    writeJson(join(base, "package.json"), { type: "module", sideEffects: target === "bundler" });
  }

  // nodejs target: the glue is CommonJS and `require`s the snippets, so they must be CommonJS too.
  // Each snippet ends with one `export { a, b };` line (a rule of src/wasm/*.js); it becomes module.exports.
  // Its imports of other snippets (`import { a } from "./b.js";`, whole lines) become `require`s.
  const base = join(dir, "nodejs");
  const snippetRoot = dirname(join(base, errorSnippet(base)));
  for (const file of readdirSync(snippetRoot).filter((f) => f.endsWith(".js")).map((f) => join(snippetRoot, f))) {
    const source = readFileSync(file, "utf8");
    const exportLine = /^export \{ ([\w, ]+) \};$/m;
    if ((source.match(new RegExp(exportLine, "gm")) ?? []).length !== 1) throw new Error(`${file}: needs exactly one export line`);
    const importLine = /^import \{ ([\w, ]+) \} from ("\.\/\w+\.js");$/gm;
    const cjs = source.replace(exportLine, "module.exports = { $1 };").replace(importLine, "const { $1 } = require($2);");
    if (/^\s*(import|export)\b/m.test(cjs)) throw new Error(`${file}: an import or export line is left`);
    // Like the glue below: Node's own TextEncoder, which Jest's jsdom environment lacks as a global.
    const bind = /\bTextEncoder\b/.test(source) ? 'const { TextEncoder } = require("util");\n' : "";
    writeFileSync(file, bind + cjs);
  }
  writeJson(join(base, "package.json"), { type: "commonjs" });

  // The glue reads the global TextEncoder/TextDecoder, which Jest's jsdom environment (the default of
  // CRA's `react-scripts test`; Jest loads this build there too) does not have. Node's own, from
  // `util`, work in every environment, so bind those unless the glue already does.
  const gluePath = join(base, `${name}.js`);
  const glueSource = readFileSync(gluePath, "utf8");
  if (!/\b(?:const|let|var)\s*\{[^}]*\bText(?:En|De)coder\b[^}]*\}\s*=\s*require\(/.test(glueSource)) {
    const [first, ...rest] = glueSource.split("\n");
    const bind = 'const { TextEncoder, TextDecoder } = require("util");';
    // Keep wasm-bindgen's `/* @ts-self-types */` pragma the first line.
    const lines = first.startsWith("/* @ts-self-types") ? [first, bind, ...rest] : [bind, first, ...rest];
    writeFileSync(gluePath, lines.join("\n"));
  }

  // Named `exports.x =` lines (not a spread) so that Node's ESM loader sees every name.
  const glue = createRequire(import.meta.url)(gluePath);
  const names = Object.keys(glue).filter((n) => !n.startsWith("__"));
  // `__esModule`: Babel's interop (CRA 5's Jest, `import init from "kubeapps-pager"` compiled to
  // `_interopRequireDefault(require(…)).default`) and TypeScript's `esModuleInterop` then take
  // `exports.default` (init) as the default import instead of the whole exports object. Node's
  // own ESM loader ignores the flag (its default import of CommonJS is `module.exports`) and
  // loads index.mjs anyway.
  const body = [
    '"use strict";',
    'Object.defineProperty(exports, "__esModule", { value: true });',
    `const glue = require("./${name}.js");`,
    ...names.map((n) => `exports.${n} = glue.${n};`),
    `exports.PagerError = require("${errorSnippet(base)}").PagerError;`,
    ...own.flatMap((o) => o.names.map((n) => `exports.${n} = require("${snippet(base, o.file)}").${n};`)),
    "/** The nodejs build is ready on require; `init()` exists so that code shared with the web build runs unchanged. */",
    "exports.default = exports.init = function init() { return Promise.resolve(); };",
  ];
  writeFileSync(join(base, "index.js"), body.join("\n") + "\n");
  // ESM face of the same CommonJS module (one instance, one PagerError class), with a real default `init`.
  const esm = [
    'import cjs from "./index.js";',
    `export const { ${[...names, "PagerError", ...own.flatMap((o) => o.names), "init"].join(", ")} } = cjs;`,
    "export default cjs.init;",
  ];
  writeFileSync(join(base, "index.mjs"), esm.join("\n") + "\n");
  // Declarations of both faces. index.d.ts is CommonJS (nodejs/package.json): it declares
  // index.js, whose `exports.default` is `init`. index.d.mts is ESM: it declares index.mjs, whose
  // default export is `init`; without it, TypeScript (nodenext) would type an ESM default import of
  // the CommonJS index.d.ts as the whole module object.
  const nodeDts = [
    `export * from "./${name}.js";`,
    "/** No-op in Node (the module is ready on load); present so code shared with the web build runs unchanged. */",
    "export declare function init(): Promise<void>;",
    "export default init;",
  ].join("\n") + "\n";
  writeFileSync(join(base, "index.d.ts"), nodeDts);
  writeFileSync(join(base, "index.d.mts"), nodeDts);
}

/**
 * wasm-bindgen names an export `x2` in the glue and its .d.ts (`declare function x2(…)` plus
 * `export { x2 as x }`) when the glue also imports a snippet function named `x` (driver.js's
 * request loop was once `kubeappsFetcher`, a wasm export then; the fetchers are driver.js's own
 * exports now, which the glue does not import). Kept as a guard: make
 * such declarations say `export function x(…)`, as for every other function, so that editors
 * show the real name. Throws if an aliased export is left over.
 */
function unaliasDeclarations(file) {
  let text = readFileSync(file, "utf8");
  for (const [line, local, exported] of [...text.matchAll(/^export \{ (\w+) as (\w+) \}\n/gm)]) {
    const declaration = new RegExp(`^declare function ${local}\\(`, "m");
    if (!declaration.test(text) || text.split(local).length !== 3) throw new Error(`${file}: cannot unalias ${local} as ${exported}`);
    text = text.replace(line, "").replace(declaration, `export function ${exported}(`);
  }
  if (/^export \{[^}]* as /m.test(text)) throw new Error(`${file}: an aliased export is left`);
  writeFileSync(file, text);
}

/**
 * Pages typed by what was fed: wasm-bindgen cannot declare a generic class or method, so the
 * `Pager` is made generic here over its items' type `T` (`any` unless a custom predicate's
 * `matches` gives it, or it is given: `new Pager<AvailablePackageSummary>(…)`), its `nextPage`
 * typed by its fetchChunk's response type (`Page<ItemOf<R>>`: a fetchChunk resolving with
 * protobuf-es `GetAvailablePackageSummariesResponse` messages gives
 * `Page<AvailablePackageSummary>`; with a `T`, only a fetchChunk of `T`s), and `takePage`
 * (`Page<U>`, `T` unless given). Throws if wasm-bindgen's declaration of any is not the one
 * expected.
 */
function typedPages(file) {
  let text = readFileSync(file, "utf8");
  for (const [from, to] of [
    ["export class Pager {", "export class Pager<T = any> {"],
    ["constructor(options: PagerOptions);", "constructor(options: PagerOptions<T>);"],
    ["static resume(token: string, options: PagerOptions): Pager;", "static resume<T = any>(token: string, options: PagerOptions<T>): Pager<T>;"],
    [
      "nextPage(fetchChunk: FetchChunk, options?: NextPageOptions | null): Promise<Page>;",
      "nextPage<R extends ChunkResponse<T> = ChunkResponse<T>>(fetchChunk: FetchChunk<R>, options?: NextPageOptions | null): Promise<Page<ItemOf<R>>>;",
    ],
    ["takePage(): Page | null;", "takePage<U = T>(): Page<U> | null;"],
  ]) {
    if (text.split(from).length !== 2) throw new Error(`${file}: expected one \`${from}\``);
    text = text.replace(from, to);
  }
  writeFileSync(file, text);
}

// The pager module (pkg/web, pkg/bundler, pkg/nodejs), the codec module (pkg/codec/…) and the
// pager module with the collator (pkg/collation/…: the same API, plus collated merge orders).
entries(pkg, crate, OWN);
entries(join(pkg, "codec"), `${crate}_codec`);
entries(join(pkg, "collation"), `${crate}_collation`, OWN);
for (const [dir, name] of [[pkg, crate], [join(pkg, "codec"), `${crate}_codec`], [join(pkg, "collation"), `${crate}_collation`]]) {
  for (const target of ["web", "bundler", "nodejs"]) unaliasDeclarations(join(dir, target, `${name}.d.ts`));
}
for (const [dir, name] of [[pkg, crate], [join(pkg, "collation"), `${crate}_collation`]]) {
  for (const target of ["web", "bundler", "nodejs"]) typedPages(join(dir, target, `${name}.d.ts`));
}

/**
 * The conditional exports of one module whose builds are under `dir` ("." or "./codec"). Each
 * condition's object gives the declarations of the very file it loads, `types` first, so that
 * TypeScript resolves as the runtime does: under `moduleResolution: nodenext` (conditions `node`,
 * `import` or `require`, `types`) a Node program gets the nodejs build's declarations (no
 * `initSync`, a no-op `init`), the ESM face's from index.d.mts; under `bundler` (`import`, `types`)
 * the web build's. No `types` at the top: it would match before `node`.
 */
function conditions(dir) {
  const web = { types: `${dir}/web/index.d.ts`, default: `${dir}/web/index.js` };
  const nodeCjs = { types: `${dir}/nodejs/index.d.ts`, default: `${dir}/nodejs/index.js` };
  return {
    node: {
      import: { types: `${dir}/nodejs/index.d.mts`, default: `${dir}/nodejs/index.mjs` },
      require: nodeCjs,
      default: nodeCjs,
    },
    browser: web,
    import: web,
    require: nodeCjs,
    default: web,
  };
}

/** The per-target subpaths of one module: `${prefix}/web`, `${prefix}/bundler`, `${prefix}/nodejs`. */
function targets(prefix, dir) {
  return {
    [`${prefix}/web`]: { types: `${dir}/web/index.d.ts`, default: `${dir}/web/index.js` },
    [`${prefix}/bundler`]: { types: `${dir}/bundler/index.d.ts`, default: `${dir}/bundler/index.js` },
    [`${prefix}/nodejs`]: {
      import: { types: `${dir}/nodejs/index.d.mts`, default: `${dir}/nodejs/index.mjs` },
      default: { types: `${dir}/nodejs/index.d.ts`, default: `${dir}/nodejs/index.js` },
    },
  };
}

/**
 * The plain-JS entries over the pager entry, from src/react/: `kubeapps-pager/react` (`usePager`,
 * imports "react") in pkg/react/, and `kubeapps-pager/tanstack` (`pagerInfiniteQuery`, TanStack
 * Query's options) in pkg/tanstack/. Each ships its ESM source as it is (`index.js`, importing
 * "kubeapps-pager": the pager entry the consumer resolves, web build in a bundler), a CommonJS
 * copy made by esbuild (`index.cjs`, for `require`) and its hand-written declarations
 * (`index.d.ts`, and `index.d.cts` for `require` under `nodenext`). No wasm entry imports them.
 */
const JS_ENTRIES = [
  { dir: "react", source: "index" },
  { dir: "tanstack", source: "tanstack" },
];
const { transformSync } = createRequire(import.meta.url)("esbuild");
for (const { dir, source } of JS_ENTRIES) {
  const out = join(pkg, dir);
  mkdirSync(out, { recursive: true });
  const code = readFileSync(join(root, "src", "react", `${source}.js`), "utf8");
  writeFileSync(join(out, "index.js"), code);
  writeFileSync(join(out, "index.cjs"), transformSync(code, { format: "cjs", target: "es2022", platform: "neutral" }).code);
  const dts = readFileSync(join(root, "src", "react", `${source}.d.ts`), "utf8");
  writeFileSync(join(out, "index.d.ts"), dts);
  writeFileSync(join(out, "index.d.cts"), dts);
  // No package.json in the folder: it would be the package scope of its files, and their import of
  // "kubeapps-pager" (a self-reference, which is how it resolves when the package is a symlink:
  // `npm link`, a `file:` install) needs pkg/package.json to be it. Resolvers that ignore
  // `exports` (Jest 27's) map the name to index.cjs (docs/USAGE.md).
}
/** The conditional exports of a plain-JS entry under `dir`. */
const jsEntry = (dir) => ({
  import: { types: `./${dir}/index.d.ts`, default: `./${dir}/index.js` },
  require: { types: `./${dir}/index.d.cts`, default: `./${dir}/index.cjs` },
});

const description = "Correct, resumable paging over Kubernetes-style package lists (Kubeapps plugins), in WebAssembly";
writeJson(join(pkg, "package.json"), {
  name: "kubeapps-pager",
  version,
  description,
  license: "Apache-2.0",
  type: "module",
  main: "./nodejs/index.js",
  module: "./web/index.js",
  types: "./web/index.d.ts",
  exports: {
    ".": conditions("."),
    "./codec": conditions("./codec"),
    "./collation": conditions("./collation"),
    "./react": jsEntry("react"),
    "./tanstack": jsEntry("tanstack"),
    ...targets(".", "."),
    ...targets("./codec", "./codec"),
    ...targets("./collation", "./collation"),
    "./package.json": "./package.json",
  },
  files: ["web/", "bundler/", "nodejs/", "codec/", "collation/", "react/", "tanstack/", "README.md", "LICENSE"],
  // The react and tanstack entries only: the wasm entries need neither.
  peerDependencies: { react: ">=18", "@tanstack/react-query": "^5" },
  peerDependenciesMeta: { react: { optional: true }, "@tanstack/react-query": { optional: true } },
  sideEffects: [
    "./bundler/*.js", "./nodejs/*.js", "./codec/bundler/*.js", "./codec/nodejs/*.js",
    "./collation/bundler/*.js", "./collation/nodejs/*.js",
  ],
  keywords: ["kubernetes", "kubeapps", "pagination", "page-token", "wasm"],
  engines: { node: ">=18" },
});
// For resolvers that ignore `exports` (TypeScript's `moduleResolution: node10`, Jest 27, webpack 4):
// "kubeapps-pager/codec" is then the folder codec/, and its package.json names the files as the
// package's own main, module and types do for ".". No `name` (not a package), no `type` (each build has its own).
for (const sub of ["codec", "collation"]) {
  writeJson(join(pkg, sub, "package.json"), {
    main: "./nodejs/index.js",
    module: "./web/index.js",
    types: "./web/index.d.ts",
  });
}
// The package's README is for its users (docs/PACKAGE.md), not the repository's; without the
// `<!-- tsc: … -->` lines that give tests/ts/usage-snippets.mjs a snippet's context.
writeFileSync(
  join(pkg, "README.md"),
  readFileSync(join(root, "docs", "PACKAGE.md"), "utf8").replaceAll("{{version}}", version).replace(/^<!-- tsc: .* -->\n/gm, ""),
);
if (existsSync(join(root, "LICENSE"))) copyFileSync(join(root, "LICENSE"), join(pkg, "LICENSE"));
console.log(`pkg/: kubeapps-pager ${version} (pager, codec and collation modules; web, bundler, nodejs)`);
