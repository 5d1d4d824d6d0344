// Settings → Plugins → kubeapps-pager-headlamp-plugin: where the plugin finds Kubeapps.
import TextField from '@mui/material/TextField';
import { configStore, DEFAULT_CONFIG, useKubeappsConfig } from './config';

export function Settings() {
  const config = useKubeappsConfig();
  return (
    <>
      <TextField
        fullWidth
        margin="dense"
        label="kubeapps-apis base URL"
        helperText={`Where Kubeapps answers /apis/… (default ${DEFAULT_CONFIG.baseUrl})`}
        value={config.baseUrl}
        onChange={e => configStore.update({ baseUrl: e.target.value })}
      />
      <TextField
        fullWidth
        margin="dense"
        label="Cluster"
        value={config.cluster}
        onChange={e => configStore.update({ cluster: e.target.value })}
      />
      <TextField
        fullWidth
        margin="dense"
        label="Namespaces (comma separated)"
        value={config.namespaces}
        onChange={e => configStore.update({ namespaces: e.target.value })}
      />
      <TextField
        fullWidth
        margin="dense"
        label="Headlamp backend URL (pods across clusters)"
        helperText="Where /clusters/<name>/… answers: empty for this page's origin"
        value={config.headlampBackendUrl}
        onChange={e => configStore.update({ headlampBackendUrl: e.target.value })}
      />
    </>
  );
}
