// The ambient types headlamp-plugin's toolchain provides to a plugin (vite/client's asset imports among them).
/// <reference types="@kinvolk/headlamp-plugin" />
