// A minimal Headlamp host for the plugin's browser test (tests/e2e/headlamp-plugin.test.mjs),
// bundled by esbuild from examples/headlamp-plugin/node_modules (what @kinvolk/headlamp-plugin
// installs: Headlamp's own React 18, MUI 5 and components).
//
// Real: React, ReactDOM, react/jsx-runtime, @mui/material (the very objects Headlamp shares as
// pluginLib.React, .ReactDOM, .ReactJSX, .MuiMaterial), Headlamp's SectionBox and Loader
// (lib/components/common), Headlamp's light theme (createMuiTheme(lightTheme): SectionBox reads
// Headlamp's own palette entries), and Headlamp's runPlugin (lib/plugin/runPlugin.js), which runs
// main.js as Headlamp does: its text through `new Function`, not as a <script> or a module.
// Fake, and why: the registry (registerRoute, registerSidebarEntry, registerPluginSettings record
// what they get; Headlamp's own feeds its Redux store and router, which would mean booting the
// whole Headlamp frontend), ConfigStore (a map in memory with the same get/set/update/useConfig;
// Headlamp's keeps it in that Redux store), the i18n instance (none: react-i18next's useTranslation then returns the keys) and the rest of
// pluginLib (absent: the plugin uses none of it, and a use would fail loudly).
import * as MuiMaterial from '@mui/material';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { lightTheme } from '@kinvolk/headlamp-plugin/lib/components/App/defaultAppThemes.js';
import Loader from '@kinvolk/headlamp-plugin/lib/components/common/Loader.js';
import SectionBox from '@kinvolk/headlamp-plugin/lib/components/common/SectionBox.js';
import { createMuiTheme } from '@kinvolk/headlamp-plugin/lib/lib/themes.js';
import { runPlugin } from '@kinvolk/headlamp-plugin/lib/plugin/runPlugin.js';
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import { createRoot } from 'react-dom/client';
import * as ReactJSX from 'react/jsx-runtime';

const registry = { routes: [], sidebar: [], settings: [], errors: [] };
const configs = new Map(); // plugin config key → value

class ConfigStore {
  constructor(key) {
    this.key = key;
  }
  get() {
    return configs.get(this.key)?.value;
  }
  set(value) {
    const listeners = configs.get(this.key)?.listeners ?? new Set();
    configs.set(this.key, { value, listeners });
    for (const l of listeners) l();
  }
  update(partial) {
    this.set({ ...(this.get() ?? {}), ...partial });
  }
  useConfig() {
    const subscribe = (l) => {
      if (!configs.has(this.key)) configs.set(this.key, { value: undefined, listeners: new Set() });
      configs.get(this.key).listeners.add(l);
      return () => configs.get(this.key).listeners.delete(l);
    };
    return () => React.useSyncExternalStore(subscribe, () => this.get());
  }
}

window.pluginLib = {
  React,
  ReactJSX,
  ReactDOM,
  MuiMaterial,
  CommonComponents: { SectionBox, Loader },
  ConfigStore,
  registerRoute: (route) => registry.routes.push(route),
  registerSidebarEntry: (entry) => registry.sidebar.push(entry),
  registerPluginSettings: (name, component, displaySaveButton) => registry.settings.push({ name, component, displaySaveButton }),
};
window.harness = registry;

/** Loads a plugin's main.js as Headlamp does, with `config` preset in its ConfigStore. */
async function loadPlugin(name, url, config) {
  if (config) configs.set(name, { value: config, listeners: new Set() });
  const source = await (await fetch(url)).text();
  runPlugin(
    `${source}\n//# sourceURL=//plugins/${name}/dist/main.js`,
    name,
    '0.1.0',
    (e) => registry.errors.push(String(e?.stack ?? e)),
    Function,
    [],
    []
  );
}

/** Mounts the component of the route registered at `path` in StrictMode. */
function mountRoute(path) {
  const route = registry.routes.find((r) => r.path === path);
  if (!route) throw new Error(`no route registered at ${path}: ${registry.routes.map((r) => r.path)}`);
  const Component = route.component;
  createRoot(document.getElementById('main')).render(
    <React.StrictMode>
      <ThemeProvider theme={createMuiTheme(lightTheme)}>
        <CssBaseline />
        <Component />
      </ThemeProvider>
    </React.StrictMode>
  );
}

const params = new URLSearchParams(location.search);
const plugin = params.get('plugin');
loadPlugin(plugin, `plugins/${plugin}/main.js`, params.has('config') ? JSON.parse(params.get('config')) : undefined)
  .then(() => {
    if (registry.errors.length) throw new Error(registry.errors.join('\n'));
    mountRoute(params.get('route'));
    document.body.dataset.ready = '1';
  })
  .catch((e) => {
    document.body.dataset.ready = 'error';
    document.body.dataset.error = String(e?.stack ?? e);
    console.error(e);
  });
