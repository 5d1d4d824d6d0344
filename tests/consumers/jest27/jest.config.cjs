// The Jest config react-scripts 5 builds (scripts/utils/createJestConfig.js), the parts that matter
// here: jsdom, CRA's Babel transform (babel-jest + babel-preset-react-app, no babelrc), node_modules
// left untransformed (the package is loaded as it ships: its CommonJS build, by `main`; Jest 27
// ignores `exports`), resetMocks. The tools come from the repository (TOOLS, set by the test).
const path = require("path");
const tools = process.env.TOOLS;
module.exports = {
  rootDir: __dirname,
  roots: ["<rootDir>/src"],
  testEnvironment: "jsdom",
  // A HashRouter app's URL, as the Kubeapps dashboard's.
  testURL: "http://localhost/#/c/default/ns/kubeapps/catalog?Search=sql",
  transform: {
    "^.+\\.(js|jsx|mjs|cjs|ts|tsx)$": [
      path.join(tools, "babel-jest"),
      { presets: [[path.join(tools, "babel-preset-react-app"), { runtime: "automatic" }]], babelrc: false, configFile: false },
    ],
  },
  transformIgnorePatterns: ["[/\\\\]node_modules[/\\\\].+\\.(js|jsx|mjs|cjs|ts|tsx)$"],
  moduleFileExtensions: ["web.js", "js", "web.ts", "ts", "web.tsx", "tsx", "json", "web.jsx", "jsx", "node", "mjs"],
  testMatch: ["<rootDir>/src/**/*.spec.js"],
  resetMocks: true,
  // A hang guard, not a timing check: Jest's default 5 s was exceeded once on a loaded 2-core
  // machine paging the whole catalog in jsdom.
  testTimeout: 60000,
};
