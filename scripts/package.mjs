// Turns wasm-bindgen's three outputs in pkg/ into one npm package: entry points that add
// PagerError, a CommonJS copy of the error snippet for the nodejs build, per-target
// package.json files, and the package's own package.json and README.
import { readFileSync, writeFileSync, readdirSync, existsSync, copyFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const pkg = join(root, "pkg");
const crate = "kubeapps_pager";
const version = /^version = "([^"]+)"/m.exec(readFileSync(join(root, "Cargo.toml"), "utf8"))[1];

/** The path of src/wasm/errors.js as wasm-bindgen copied it into a target's snippets/. */
function errorSnippet(target) {
  const dir = join(pkg, target, "snippets");
  const crates = readdirSync(dir).filter((d) => d.startsWith("kubeapps-pager-"));
  if (crates.length !== 1) throw new Error(`expected one snippet folder in ${dir}, found ${crates}`);
  const file = join(dir, crates[0], "src", "wasm", "errors.js");
  if (!existsSync(file)) throw new Error(`missing ${file}`);
  return "./" + relative(join(pkg, target), file);
}


function writeJson(file, value) {
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

// ESM targets: re-export the glue and PagerError from the same snippet module the glue uses,
// so `instanceof PagerError` holds for every thrown error.
for (const target of ["web", "bundler"]) {
  const snippet = errorSnippet(target);
  const lines = [
    `export * from "./${crate}.js";`,
    target === "web" ? `export { default } from "./${crate}.js";` : null,
    `export { PagerError } from "${snippet}";`,
  ].filter(Boolean);
  writeFileSync(join(pkg, target, "index.js"), lines.join("\n") + "\n");
  writeFileSync(
    join(pkg, target, "index.d.ts"),
    [`export * from "./${crate}.js";`, target === "web" ? `export { default } from "./${crate}.js";` : null]
      .filter(Boolean)
      .join("\n") + "\n",
  );
  writeJson(join(pkg, target, "package.json"), { type: "module", sideEffects: target === "bundler" });
}

// nodejs target: the glue is CommonJS and `require`s the snippets, so they must be CommonJS too.
// Each snippet ends with one `export { a, b };` line (a rule of src/wasm/*.js); it becomes module.exports.
{
  const snippetRoot = dirname(join(pkg, "nodejs", errorSnippet("nodejs")));
  for (const name of readdirSync(snippetRoot).filter((f) => f.endsWith(".js"))) {
    const file = join(snippetRoot, name);
    const source = readFileSync(file, "utf8");
    const exportLine = /^export \{ ([\w, ]+) \};$/m;
    if ((source.match(new RegExp(exportLine, "gm")) ?? []).length !== 1) throw new Error(`${file}: needs exactly one export line`);
    // Like the glue below: Node's own TextEncoder, which Jest's jsdom environment lacks as a global.
    const bind = /\bTextEncoder\b/.test(source) ? 'const { TextEncoder } = require("util");\n' : "";
    writeFileSync(file, bind + source.replace(exportLine, "module.exports = { $1 };"));
  }
  writeJson(join(pkg, "nodejs", "package.json"), { type: "commonjs" });

  // The glue reads the global TextEncoder/TextDecoder, which Jest's jsdom environment (the default of
  // CRA's `react-scripts test`; Jest loads this build there too) does not have. Node's own, from
  // `util`, work in every environment, so bind those unless the glue already does.
  const gluePath = join(pkg, "nodejs", `${crate}.js`);
  const glueSource = readFileSync(gluePath, "utf8");
  if (!/\b(?:const|let|var)\s*\{[^}]*\bText(?:En|De)coder\b[^}]*\}\s*=\s*require\(/.test(glueSource)) {
    const [first, ...rest] = glueSource.split("\n");
    const bind = 'const { TextEncoder, TextDecoder } = require("util");';
    // Keep wasm-bindgen's `/* @ts-self-types */` pragma the first line.
    const lines = first.startsWith("/* @ts-self-types") ? [first, bind, ...rest] : [bind, first, ...rest];
    writeFileSync(gluePath, lines.join("\n"));
  }

  // Named `exports.x =` lines (not a spread) so that Node's ESM loader sees every name.
  const glue = createRequire(import.meta.url)(join(pkg, "nodejs", `${crate}.js`));
  const names = Object.keys(glue).filter((n) => !n.startsWith("__"));
  const body = [
    '"use strict";',
    `const glue = require("./${crate}.js");`,
    ...names.map((n) => `exports.${n} = glue.${n};`),
    `exports.PagerError = require("${errorSnippet("nodejs")}").PagerError;`,
    "/** The nodejs build is ready on require; `init()` exists so that code shared with the web build runs unchanged. */",
    "exports.default = exports.init = function init() { return Promise.resolve(); };",
  ];
  writeFileSync(join(pkg, "nodejs", "index.js"), body.join("\n") + "\n");
  // ESM face of the same CommonJS module (one instance, one PagerError class), with a real default `init`.
  const esm = [
    'import cjs from "./index.js";',
    `export const { ${[...names, "PagerError", "init"].join(", ")} } = cjs;`,
    "export default cjs.init;",
  ];
  writeFileSync(join(pkg, "nodejs", "index.mjs"), esm.join("\n") + "\n");
  writeFileSync(
    join(pkg, "nodejs", "index.d.ts"),
    [
      `export * from "./${crate}.js";`,
      "/** No-op in Node (the module is ready on load); present so code shared with the web build runs unchanged. */",
      "export declare function init(): Promise<void>;",
      "export default init;",
    ].join("\n") + "\n",
  );
}

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
    ".": {
      types: "./web/index.d.ts",
      node: {
        types: "./nodejs/index.d.ts",
        import: "./nodejs/index.mjs",
        default: "./nodejs/index.js",
      },
      browser: "./web/index.js",
      import: "./web/index.js",
      require: { types: "./nodejs/index.d.ts", default: "./nodejs/index.js" },
      default: "./web/index.js",
    },
    "./web": { types: "./web/index.d.ts", default: "./web/index.js" },
    "./bundler": { types: "./bundler/index.d.ts", default: "./bundler/index.js" },
    "./nodejs": { types: "./nodejs/index.d.ts", import: "./nodejs/index.mjs", default: "./nodejs/index.js" },
    "./package.json": "./package.json",
  },
  files: ["web/", "bundler/", "nodejs/", "README.md", "LICENSE"],
  sideEffects: ["./bundler/*.js", "./nodejs/*.js"],
  keywords: ["kubernetes", "kubeapps", "pagination", "page-token", "wasm"],
  engines: { node: ">=18" },
});
copyFileSync(join(root, "README.md"), join(pkg, "README.md"));
if (existsSync(join(root, "LICENSE"))) copyFileSync(join(root, "LICENSE"), join(pkg, "LICENSE"));
console.log(`pkg/: kubeapps-pager ${version} (web, bundler, nodejs)`);
