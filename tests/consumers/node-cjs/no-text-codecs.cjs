// Preloaded (`node --require`) to run main.cjs as Jest's jsdom environment would: no global
// TextEncoder / TextDecoder. The package's Node build must not need them.
delete globalThis.TextEncoder;
delete globalThis.TextDecoder;
