// kubeapps-pager-headlamp-plugin: two sidebar entries and routes, Kubeapps' packages
// (PackageList.tsx) and the pods of every cluster Headlamp knows (PodList.tsx), both paged by
// kubeapps-pager, and the plugin's settings (Settings.tsx).
import {
  registerPluginSettings,
  registerRoute,
  registerSidebarEntry,
} from '@kinvolk/headlamp-plugin/lib';
import { PLUGIN_NAME } from './config';
import { PackageList } from './PackageList';
import { PodList } from './PodList';
import { Settings } from './Settings';

/** The route's path under a cluster (`/c/<cluster>/kubeapps-packages`) and the sidebar entry's name. */
export const ROUTE_NAME = 'kubeapps-packages';

registerSidebarEntry({
  parent: null,
  name: ROUTE_NAME,
  label: 'Kubeapps packages',
  url: `/${ROUTE_NAME}`,
  icon: 'mdi:package-variant-closed',
});

registerRoute({
  path: `/${ROUTE_NAME}`,
  sidebar: ROUTE_NAME,
  name: 'Kubeapps packages',
  exact: true,
  component: () => <PackageList />,
});

/** The pods route: all of Headlamp's clusters at once, so not under one cluster's URL. */
export const PODS_ROUTE_NAME = 'pods-across-clusters';

registerSidebarEntry({
  parent: null,
  name: PODS_ROUTE_NAME,
  label: 'Pods across clusters',
  url: `/${PODS_ROUTE_NAME}`,
  useClusterURL: false,
  icon: 'mdi:cube-outline',
});

registerRoute({
  path: `/${PODS_ROUTE_NAME}`,
  sidebar: PODS_ROUTE_NAME,
  name: 'Pods across clusters',
  exact: true,
  useClusterURL: false,
  component: () => <PodList />,
});

registerPluginSettings(PLUGIN_NAME, Settings, false);
