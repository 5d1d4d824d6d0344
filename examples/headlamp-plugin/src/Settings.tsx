// Settings → Plugins → kubeapps-pager-headlamp-plugin: where the plugin finds Kubeapps.
import TextField from '@mui/material/TextField';
import { configStore, DEFAULT_CONFIG, type KubeappsPagerConfig, useKubeappsConfig } from './config';

/** The settings edited as text, each a field of KubeappsPagerConfig. */
const FIELDS: {
  key: 'baseUrl' | 'cluster' | 'namespaces' | 'headlampBackendUrl';
  label: string;
  helperText?: string;
}[] = [
  {
    key: 'baseUrl',
    label: 'kubeapps-apis base URL',
    helperText: `Where Kubeapps answers /apis/… (default ${DEFAULT_CONFIG.baseUrl})`,
  },
  { key: 'cluster', label: 'Cluster' },
  { key: 'namespaces', label: 'Namespaces (comma separated)' },
  {
    key: 'headlampBackendUrl',
    label: 'Headlamp backend URL (pods across clusters)',
    helperText: "Where /clusters/<name>/… answers: empty for this page's origin",
  },
];

export function Settings() {
  const config: KubeappsPagerConfig = useKubeappsConfig();
  return (
    <>
      {FIELDS.map(({ key, label, helperText }) => (
        <TextField
          key={key}
          fullWidth
          margin="dense"
          label={label}
          helperText={helperText}
          value={config[key]}
          onChange={e => configStore.update({ [key]: e.target.value })}
        />
      ))}
    </>
  );
}
