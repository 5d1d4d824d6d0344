// kubeapps-pager-headlamp-plugin: a sidebar entry and a route listing Kubeapps' packages through
// kubeapps-pager (PackageList.tsx), and the plugin's settings (Settings.tsx).
import {
  registerPluginSettings,
  registerRoute,
  registerSidebarEntry,
} from '@kinvolk/headlamp-plugin/lib';
import { PLUGIN_NAME } from './config';
import { PackageList } from './PackageList';
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

registerPluginSettings(PLUGIN_NAME, Settings, false);
