// Package cards in the style of Kubeapps' catalog. Every string from the backend is rendered as text;
// the only URL that reaches the DOM is an icon that passed safeIconUrl().
import { h } from "./dom.js";

/** Kubeapps plugin → badge label and class (unknown plugins show their own name). */
const PLUGINS = {
  "helm.packages": { label: "Helm", cls: "helm" },
  "fluxv2.packages": { label: "Flux", cls: "flux" },
  "kapp_controller.packages": { label: "Carvel", cls: "carvel" },
};

/** A short label for a plugin name: `Helm`, `Flux`, `Carvel`, else the name itself. */
export const pluginLabel = (plugin) => PLUGINS[plugin]?.label ?? plugin;

const str = (v) => (typeof v === "string" ? v : "");

/**
 * The fields a card shows, read defensively from an AvailablePackageSummary (grpc-gateway JSON):
 * anything missing or of the wrong type reads as "" (or [] for categories).
 */
export function summaryFields(item) {
  const ref = item && typeof item === "object" ? item.availablePackageRef ?? {} : {};
  const context = ref.context ?? {};
  const latest = item?.latestVersion ?? {};
  return {
    plugin: str(ref.plugin?.name),
    cluster: str(context.cluster),
    namespace: str(context.namespace),
    identifier: str(ref.identifier),
    name: str(item?.name),
    displayName: str(item?.displayName),
    shortDescription: str(item?.shortDescription),
    categories: Array.isArray(item?.categories) ? item.categories.filter((c) => typeof c === "string" && c !== "") : [],
    pkgVersion: str(latest.pkgVersion),
    appVersion: str(latest.appVersion),
    iconUrl: str(item?.iconUrl),
  };
}

/** `plugin/cluster/namespace/identifier`: a package's identity, as /demo/truth spells it. */
export const identityOf = (f) => `${f.plugin}/${f.cluster}/${f.namespace}/${f.identifier}`;

/** The repository of an identifier: its part before the first `/` (the pager's repository filter). */
export const repoOf = (identifier) => (identifier.includes("/") ? identifier.slice(0, identifier.indexOf("/")) : "");

/**
 * safeIconUrl returns the URL to put in `<img src>`, or null for a placeholder: only `data:image/…`
 * URLs and URLs that resolve (against the page) to http: or https:. `javascript:`, `data:text/html`,
 * blob:, file: and unparsable values give null.
 */
export function safeIconUrl(raw) {
  if (typeof raw !== "string") return null;
  const url = raw.trim();
  if (url === "") return null;
  if (/^data:image\//i.test(url)) return url;
  let parsed;
  try {
    parsed = new URL(url, document.baseURI);
  } catch {
    return null;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
}

/** A hue from a string (FNV-1a), for placeholder icons. */
function hueOf(s) {
  let x = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return x % 360;
}

/** A placeholder icon: the title's first letter on a colour of its own. */
function placeholder(title) {
  const first = [...title.trim()][0] ?? "?";
  const el = h("span", { class: "icon placeholder", "aria-hidden": "true", dataset: { testid: "icon-placeholder" } }, first.toUpperCase());
  el.style.setProperty("--hue", String(hueOf(title)));
  return el;
}

/** The icon: an `<img>` of a safe URL (a placeholder if it fails to load), else a placeholder. */
function icon(f, title) {
  const src = safeIconUrl(f.iconUrl);
  if (!src) return placeholder(title);
  const img = h("img", { class: "icon", alt: "", width: 44, height: 44, loading: "lazy", decoding: "async", referrerpolicy: "no-referrer" });
  img.addEventListener("error", () => img.replaceWith(placeholder(title)), { once: true });
  img.src = src;
  return img;
}

let serial = 0;

/**
 * packageCard renders one summary as `<li><article data-testid=… data-identity=…>`: icon, display
 * name, repository and namespace, plugin badge, short description, category chips, latest version.
 */
export function packageCard(item, { testid = "package-card" } = {}) {
  const f = summaryFields(item);
  const title = f.displayName || f.name || f.identifier || "(no name)";
  const plugin = PLUGINS[f.plugin];
  const headingId = `pkg-${++serial}`;
  const repo = repoOf(f.identifier);
  const where = [repo, f.namespace].filter(Boolean).join(" · ");
  const version = f.pkgVersion ? f.pkgVersion : "no version";
  const card = h("article", { class: "card", "aria-labelledby": headingId, dataset: { testid, identity: identityOf(f) } },
    h("div", { class: "card-top" },
      icon(f, title),
      h("div", { class: "card-title" },
        h("h3", { id: headingId, title, dataset: { testid: "card-title" } }, title),
        h("div", { class: "where", title: f.identifier }, where))),
    h("p", { class: "desc", dataset: { testid: "card-description" } }, f.shortDescription),
    h("div", { class: "card-foot" },
      h("ul", { class: "chips", "aria-label": "Categories" }, f.categories.map((c) => h("li", { class: "chip", title: c }, c))),
      h("span", {
        class: "version",
        title: f.appVersion ? `Latest version ${f.pkgVersion}, app version ${f.appVersion}` : "Latest version",
        dataset: { testid: "card-version" },
      }, version),
      h("span", { class: `plugin ${plugin?.cls ?? ""}`, title: f.plugin, dataset: { testid: "card-plugin" } }, plugin?.label ?? (f.plugin || "?"))));
  return h("li", {}, card);
}
