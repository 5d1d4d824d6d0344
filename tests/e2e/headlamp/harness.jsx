// A Headlamp host for the plugin's browser test (tests/e2e/headlamp-plugin.test.mjs), bundled by
// esbuild from examples/headlamp-plugin/node_modules: the frontend library that
// @kinvolk/headlamp-plugin ships is Headlamp's own (its `lib/` is Headlamp's frontend, compiled).
//
// Real: `window.pluginLib` as Headlamp builds it (lib/plugin/index.js: React 18, ReactDOM, MUI,
// CommonComponents, the registry, ConfigStore, …), Headlamp's Redux store that the registry
// feeds (registerRoute → state.routes, registerSidebarEntry → state.sidebar, ConfigStore →
// state.pluginConfigs), Headlamp's light theme (createMuiTheme(lightTheme)), its i18n setup, and
// Headlamp's runPlugin (lib/plugin/runPlugin.js), which runs main.js as Headlamp does: its text
// through `new Function`, not as a <script> or a module.
// Not Headlamp's: the page around the route. Headlamp's App (its sidebar, app bar, cluster
// chooser and router, which need a Headlamp backend and a cluster) is not booted; the route's
// component is mounted as Headlamp's router mounts it, inside the store's Provider, a router and
// the theme. Plugins are not discovered from a backend either: the test names the one to run;
// nor are clusters: the test names them (`clusters`), put into the store as Headlamp's /config does.
import '@kinvolk/headlamp-plugin/lib/plugin/index.js';
import { lightTheme } from '@kinvolk/headlamp-plugin/lib/components/App/defaultAppThemes.js';
import { createMuiTheme } from '@kinvolk/headlamp-plugin/lib/lib/themes.js';
import { ConfigStore } from '@kinvolk/headlamp-plugin/lib/plugin/configStore.js';
import { setPluginSettings } from '@kinvolk/headlamp-plugin/lib/plugin/pluginsSlice.js';
import { setConfig } from '@kinvolk/headlamp-plugin/lib/redux/configSlice.js';
import { runPlugin } from '@kinvolk/headlamp-plugin/lib/plugin/runPlugin.js';
import store from '@kinvolk/headlamp-plugin/lib/redux/stores/store.js';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import * as React from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';

const errors = [];

/** What the plugin registered, read from Headlamp's store. */
function registrations() {
  const state = store.getState();
  return {
    routes: Object.values(state.routes.routes),
    sidebar: Object.values(state.sidebar.entries),
    settings: state.plugins.pluginSettings.filter((p) => p.settingsComponent).map((p) => p.name),
    config: state.pluginConfigs,
    errors,
  };
}
window.harness = { registrations };

/**
 * Loads a plugin's main.js as Headlamp does, with `config` preset in its ConfigStore. Headlamp
 * first lists the plugins it found (a plugin's registerPluginSettings attaches to its entry).
 */
async function loadPlugin(name, url, config) {
  store.dispatch(setPluginSettings([{ name, isEnabled: true }]));
  if (config) new ConfigStore(name).set(config);
  const source = await (await fetch(url)).text();
  runPlugin(
    `${source}\n//# sourceURL=//plugins/${name}/dist/main.js`,
    name,
    '0.1.0',
    (e) => errors.push(String(e?.stack ?? e)),
    Function,
    [],
    []
  );
}

/** Headlamp's providers around a plugin's component: its store, a router, its light theme. */
function Headlamp({ path, children }) {
  return (
    <React.StrictMode>
      <Provider store={store}>
        <MemoryRouter initialEntries={[path]}>
          <ThemeProvider theme={createMuiTheme(lightTheme)}>
            <CssBaseline />
            {children}
          </ThemeProvider>
        </MemoryRouter>
      </Provider>
    </React.StrictMode>
  );
}

/**
 * Mounts the component of the route registered at `path` into #main, in StrictMode, and the
 * plugin's settings component (Settings → Plugins → the plugin, in Headlamp) into #settings.
 */
function mount(name, path) {
  const route = store.getState().routes.routes[path];
  if (!route) throw new Error(`no route registered at ${path}: ${Object.keys(store.getState().routes.routes)}`);
  const Component = route.component;
  createRoot(document.getElementById('main')).render(
    <Headlamp path={path}>
      <Component />
    </Headlamp>
  );
  const Settings = store.getState().plugins.pluginSettings.find((p) => p.name === name)?.settingsComponent;
  if (Settings) {
    createRoot(document.getElementById('settings')).render(
      <Headlamp path="/settings/plugins">
        <Settings />
      </Headlamp>
    );
  }
}

const params = new URLSearchParams(location.search);
const plugin = params.get('plugin');
// The clusters Headlamp knows (its backend's /config answers them; here the test names them), as
// Headlamp's store holds them: state.config.clusters, name → Cluster.
if (params.has('clusters')) {
  const names = JSON.parse(params.get('clusters'));
  store.dispatch(setConfig({ clusters: Object.fromEntries(names.map((name) => [name, { name, auth_type: '' }])) }));
}
loadPlugin(plugin, `plugins/${plugin}/main.js`, params.has('config') ? JSON.parse(params.get('config')) : undefined)
  .then(() => {
    if (errors.length) throw new Error(errors.join('\n'));
    mount(plugin, params.get('route'));
    document.body.dataset.ready = '1';
  })
  .catch((e) => {
    document.body.dataset.ready = 'error';
    document.body.dataset.error = String(e?.stack ?? e);
    console.error(e);
  });
