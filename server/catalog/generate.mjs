// The embedded demo catalog: generated from a seed, the same seed giving the same records.
import { CLUSTER } from "../store.mjs";
import { mulberry32, pick, randInt, shuffled, hash32 } from "../rng.mjs";
import {
  BASES, BITNAMI, CATEGORIES, CATEGORY_HINTS, DOMAINS, FIXED_REPOS, FLUX_ONLY, HOME, PHRASES,
  PROVIDERS, SUFFIXES, UNICODE,
} from "./vocabulary.mjs";

/** The name of the one hostile package (`--hostile`). */
export const HOSTILE_NAME = "<img src=x onerror=alert(1)>";

const HELM = "helm.packages";
const FLUX = "fluxv2.packages";
const KAPP = "kapp_controller.packages";

/** The relative URL of the server's generated icon for a name. */
export function iconPath(name) {
  return `/demo/icon/${encodeURIComponent(name)}.svg`;
}

function categoryFor(name, rand) {
  const lower = name.toLowerCase();
  for (const [hint, cat] of CATEGORY_HINTS) if (lower.includes(hint)) return cat;
  return pick(rand, CATEGORIES);
}

function titleOf(name) {
  const base = name.split(".")[0];
  return base.split("-").filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}

function version(rand) {
  return `${randInt(rand, 20)}.${randInt(rand, 25)}.${randInt(rand, 12)}`;
}

function appVersion(rand) {
  const v = `${1 + randInt(rand, 9)}.${randInt(rand, 30)}.${randInt(rand, 10)}`;
  return rand() < 0.15 ? `v${v}` : v;
}

function description(name, category, rand) {
  return `${titleOf(name)} ${pick(rand, PHRASES[category] ?? PHRASES.Infrastructure)}`;
}

/** Maintainer names of the generated charts. */
const MAINTAINERS = ["Bitnami", "VMware", "Grafana Labs", "Jetstack", "Elastic", "Percona", "Zalando"];

/** A Helm-style record (helm or fluxv2): identifier `<repo>/<name>`, displayName = name. */
export function helmRecord(plugin, namespace, repo, name, rand) {
  const category = categoryFor(name, rand);
  return {
    plugin, cluster: CLUSTER, namespace, repo, name,
    identifier: `${repo}/${name}`,
    displayName: name,
    shortDescription: description(name, category, rand),
    categories: [category],
    iconUrl: iconPath(name),
    latestVersion: { pkgVersion: version(rand), appVersion: appVersion(rand) },
    // Fields the plugins' search reads beyond the summary (server/search.mjs), derived from the
    // name (no draw from `rand`: the catalog stays the same).
    keywords: [category.toLowerCase(), ...name.split("-").filter((w) => w.length > 2)],
    sources: [`https://github.com/${MAINTAINERS[hash32(name) % MAINTAINERS.length].toLowerCase().replace(/ /g, "-")}/${name}`],
    maintainers: [{ name: MAINTAINERS[hash32(`${name}/m`) % MAINTAINERS.length] }],
  };
}

// A tiny SVG for Carvel's iconSVGBase64 (a coloured disc with the initial).
function carvelIcon(name) {
  const hue = hash32(name) % 360;
  const letter = (name.codePointAt(0) ? String.fromCodePoint(name.codePointAt(0)) : "?").toUpperCase()
    .replace(/[<>&"']/g, "?");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="hsl(${hue},55%,45%)"/><text x="16" y="21" font-size="14" text-anchor="middle" fill="#fff" font-family="sans-serif">${letter}</text></svg>`;
  return Buffer.from(svg, "utf8").toString("base64");
}

/**
 * A Carvel record (kapp_controller): name = the PackageMetadata name, identifier
 * `<repo>/<name>` (Kubeapps' buildPackageIdentifier), pkgVersion = appVersion.
 */
export function carvelRecord(namespace, repo, base, domain, rand, { withIcon = true } = {}) {
  const name = `${base}.${domain}`;
  const category = categoryFor(base, rand);
  const cats = rand() < 0.3 ? [category, pick(rand, CATEGORIES)].filter((c, i, a) => a.indexOf(c) === i) : [category];
  const v = version(rand);
  const display = rand() < 0.5 ? titleOf(base) : base;
  const iconSVGBase64 = withIcon ? carvelIcon(display) : undefined;
  const rec = {
    plugin: KAPP, cluster: CLUSTER, namespace, repo, name,
    identifier: `${repo}/${name}`,
    displayName: display,
    shortDescription: description(base, category, rand),
    longDescription: `${description(base, category, rand)} Packaged for kapp-controller.`,
    providerName: pick(rand, PROVIDERS),
    categories: cats,
    iconSVGBase64,
    iconUrl: iconSVGBase64 ? `data:image/svg+xml;base64,${iconSVGBase64}` : undefined,
    latestVersion: { pkgVersion: v, appVersion: v },
  };
  if (!iconSVGBase64) {
    delete rec.iconSVGBase64;
    delete rec.iconUrl;
  }
  return rec;
}

function synthNames(rand, count, taken) {
  const out = [];
  for (let guard = 0; out.length < count && guard < count * 50; guard++) {
    const n = pick(rand, BASES) + pick(rand, SUFFIXES);
    if (!taken.has(n)) {
      taken.add(n);
      out.push(n);
    }
  }
  return out;
}

/** The hostile record: markup in every text field and a `javascript:` icon URL. */
export function hostileRecord() {
  return {
    plugin: HELM, cluster: CLUSTER, namespace: "kubeapps", repo: "hostile", name: HOSTILE_NAME,
    identifier: `hostile/${HOSTILE_NAME}`,
    displayName: HOSTILE_NAME,
    shortDescription: "\"><script>alert(2)</script> served as data, never as markup",
    categories: ["<b>Security</b>"],
    iconUrl: "javascript:alert(3)",
    latestVersion: { pkgVersion: "1.0.0", appVersion: "<i>1</i>" },
  };
}

/**
 * generateCatalog returns `{records, info}`: over 1,000 packages over the three
 * plugins, deterministic in `seed`. Namespaces: `kubeapps` (global repositories) and
 * `team-a`, `team-b` (namespaced ones). Within one plugin and namespace names are unique
 * (they are Kubernetes object names); across plugins and namespaces the same identifier
 * and the same name recur on purpose. `hostile` adds the hostile package.
 */
export function generateCatalog({ seed = 1, hostile = false } = {}) {
  const rand = mulberry32(seed);
  const records = [];
  const add = (r) => records.push(r);

  // helm, kubeapps: real repositories, a synthesized community repo, Unicode names.
  const kubeappsHelm = new Set();
  const helmRepo = (repo, names) => {
    for (const name of names) {
      if (kubeappsHelm.has(name)) continue; // same chart in two global repos: keep the first
      kubeappsHelm.add(name);
      add(helmRecord(HELM, "kubeapps", repo, name, rand));
    }
  };
  helmRepo("bitnami", BITNAMI);
  for (const [repo, names] of Object.entries(FIXED_REPOS)) helmRepo(repo, names);
  helmRepo("k8s-at-home", HOME);
  helmRepo("community-charts", synthNames(rand, 300, new Set(kubeappsHelm)));
  helmRepo("i18n-charts", UNICODE);
  if (hostile) add(hostileRecord());

  // helm, team-a: a namespaced mirror of part of bitnami (same identifiers, other namespace).
  for (const name of shuffled(rand, BITNAMI).slice(0, 45)) add(helmRecord(HELM, "team-a", "bitnami", name, rand));
  // helm, team-b: an internal repo whose names tie with global charts.
  const teamB = shuffled(rand, [...BITNAMI.slice(0, 40), ...HOME.slice(0, 15)]).slice(0, 40);
  for (const name of teamB) add(helmRecord(HELM, "team-b", "acme-internal", name, rand));

  // fluxv2: part of the helm catalog again (same identifiers, other plugin) plus its own repo.
  const fluxKubeapps = new Set();
  const fluxAdd = (ns, repo, name, taken) => {
    if (taken.has(name)) return;
    taken.add(name);
    add(helmRecord(FLUX, ns, repo, name, rand));
  };
  for (const name of shuffled(rand, BITNAMI).slice(0, 70)) fluxAdd("kubeapps", "bitnami", name, fluxKubeapps);
  for (const name of FIXED_REPOS.jetstack) fluxAdd("kubeapps", "jetstack", name, fluxKubeapps);
  for (const name of FIXED_REPOS.grafana) fluxAdd("kubeapps", "grafana", name, fluxKubeapps);
  for (const name of FLUX_ONLY) fluxAdd("kubeapps", "fluxcd-community", name, fluxKubeapps);
  for (const name of synthNames(rand, 110, new Set(fluxKubeapps))) fluxAdd("kubeapps", "fluxcd-community", name, fluxKubeapps);
  const fluxTeamA = new Set();
  for (const name of shuffled(rand, HOME).slice(0, 30)) fluxAdd("team-a", "k8s-at-home", name, fluxTeamA);

  // kapp_controller: Carvel packages over several domains (displayNames tie across domains).
  const kappKubeapps = new Set();
  const kappBases = shuffled(rand, [...new Set([...BASES, ...BITNAMI.slice(0, 60), ...FIXED_REPOS.jetstack])]);
  for (const base of kappBases) {
    const domains = shuffled(rand, DOMAINS).slice(0, 1 + (rand() < 0.35 ? 1 : 0));
    for (const domain of domains) {
      const name = `${base}.${domain}`;
      if (kappKubeapps.has(name)) continue;
      kappKubeapps.add(name);
      const repo = domain.startsWith("community") ? "tce-repo" : domain.split(".")[0] + "-repo";
      add(carvelRecord("kubeapps", repo, base, domain, rand, { withIcon: rand() < 0.6 }));
    }
  }
  for (const base of shuffled(rand, BASES).slice(0, 30)) {
    add(carvelRecord("team-a", "team-repo", base, "team-a.acme.io", rand, { withIcon: false }));
  }

  return { records, info: { source: "generated", seed, hostile } };
}

/**
 * newRecordFor makes a fresh record for `plugin` in `namespace` whose name is not in
 * `taken` (a Set of names), for churn inserts.
 */
export function newRecordFor(plugin, namespace, rand, taken) {
  for (let i = 0; ; i++) {
    const base = pick(rand, [...BASES, ...HOME]);
    const suffix = i < 20 ? pick(rand, SUFFIXES) : `-${i}`;
    if (plugin === KAPP) {
      const domain = pick(rand, DOMAINS);
      if (taken.has(`${base}${suffix}.${domain}`)) continue;
      return carvelRecord(namespace, domain.split(".")[0] + "-repo", `${base}${suffix}`, domain, rand, { withIcon: false });
    }
    const name = `${base}${suffix}`;
    if (!taken.has(name)) return helmRecord(plugin, namespace, "churn-charts", name, rand);
  }
}
