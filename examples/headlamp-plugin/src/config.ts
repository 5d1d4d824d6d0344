// The plugin's settings, kept by Headlamp (ConfigStore: its Redux store, persisted per plugin) and
// edited in Settings → Plugins → kubeapps-pager-headlamp-plugin (Settings.tsx).
import { ConfigStore } from '@kinvolk/headlamp-plugin/lib';
import type { SourceOptions } from 'kubeapps-pager';

export const PLUGIN_NAME = 'kubeapps-pager-headlamp-plugin';

/**
 * The URL search parameter each list keeps its position in (`<index>.<token>`, usePager's
 * `url.param`): one name per route, none of Headlamp's own (its tables keep theirs under a
 * table-name prefix).
 */
export const PACKAGES_PAGE_PARAM = 'kubeapps-page';
export const PODS_PAGE_PARAM = 'pods-page';

/** The three Kubeapps packages plugins. */
export const KUBEAPPS_PLUGINS = [
  'helm.packages',
  'fluxv2.packages',
  'kapp_controller.packages',
] as const;

export interface KubeappsPagerConfig {
  /**
   * Where kubeapps-apis' REST gateway answers `/apis/…` (`kubeappsFetcher`'s `baseUrl`): a path on
   * Headlamp's origin (a reverse proxy to Kubeapps) or an absolute URL of a Kubeapps that sends
   * CORS headers for Headlamp's origin. Default `/apis`.
   */
  baseUrl: string;
  /** The Kubeapps cluster whose packages are listed (Kubeapps' `context.cluster`). Default `default`. */
  cluster: string;
  /** The namespaces listed, comma separated (Kubeapps' global repositories live in `kubeapps`). */
  namespaces: string;
  /** The packages plugins asked, a subset of KUBEAPPS_PLUGINS. Default: all three. */
  plugins: string[];
  /** Items per page (the pager's `pageSize`, 1 to 1,000). Default 50. */
  pageSize: number;
  /**
   * Where Headlamp's backend answers `/clusters/<name>/…` (its proxy to each cluster's
   * apiserver), for the pods route: `''` (default) is the page's own origin, as Headlamp served
   * in a browser; its desktop app's backend is `http://localhost:4466`, and a Headlamp served
   * under a base URL needs that path (`/headlamp`).
   */
  headlampBackendUrl: string;
}

export const DEFAULT_CONFIG: KubeappsPagerConfig = {
  baseUrl: '/apis',
  cluster: 'default',
  namespaces: 'kubeapps',
  plugins: [...KUBEAPPS_PLUGINS],
  pageSize: 50,
  headlampBackendUrl: '',
};

export const configStore = new ConfigStore<Partial<KubeappsPagerConfig>>(PLUGIN_NAME);
const useStoredConfig = configStore.useConfig();

/** The settings with defaults filled in; re-renders when they change. */
export function useKubeappsConfig(): KubeappsPagerConfig {
  const stored = useStoredConfig();
  return { ...DEFAULT_CONFIG, ...stored };
}

/** One source per plugin and namespace; how each pages follows from its plugin (kubeapps-pager's defaults). */
export function sourcesOf(config: KubeappsPagerConfig): SourceOptions[] {
  const namespaces = config.namespaces
    .split(',')
    .map(n => n.trim())
    .filter(Boolean);
  return config.plugins.flatMap(plugin =>
    namespaces.map(namespace => ({ plugin, cluster: config.cluster, namespace }))
  );
}
