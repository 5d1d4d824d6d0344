// `vite build` of the React app; react.test.mjs passes REACT_DIR / REACT_DOM_DIR / ROOT_MODULES.
export default {
  logLevel: "warn",
  resolve: {
    alias: [
      { find: /^react-dom(\/.*)?$/, replacement: `${process.env.REACT_DOM_DIR}$1` },
      { find: /^react(\/.*)?$/, replacement: `${process.env.REACT_DIR}$1` },
      { find: /^@tanstack\/react-query$/, replacement: `${process.env.ROOT_MODULES}/@tanstack/react-query` },
    ],
  },
  build: { minify: false },
};
