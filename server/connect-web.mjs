// GET /demo/connect-web.js: @connectrpc/connect-web v1 and the generated service descriptors
// (tests/proto/gen) bundled into one ES module for the browser, as a dashboard's bundler would make
// them, so that the no-bundler demo page (www/dashboard.html) talks to the plugins over Connect
// and gRPC-web. Built once, on first request, with esbuild (a devDependency: `npm start` runs after
// setup's `npm ci`).
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ENTRY = `
export { createPromiseClient, ConnectError, Code } from "@connectrpc/connect";
export { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
export { HelmPackagesService } from "./tests/proto/gen/helm_connect.js";
export { FluxV2PackagesService } from "./tests/proto/gen/fluxv2_connect.js";
export { KappControllerPackagesService } from "./tests/proto/gen/kapp_controller_connect.js";
`;

let bundle;

/** The bundle's text (a promise, built once). */
export function connectWebBundle() {
  bundle ??= import("esbuild").then(async ({ build }) => {
    const out = await build({
      stdin: { contents: ENTRY, resolveDir: ROOT, loader: "js" },
      bundle: true, format: "esm", minify: true, write: false, platform: "browser", target: "es2022", logLevel: "silent",
    });
    return out.outputFiles[0].text;
  });
  bundle.catch(() => (bundle = undefined));
  return bundle;
}
