// webpack 5 as tests/consumers/webpack/ (Create React App 5's defaults, reduced), for the React
// app. react.test.mjs passes REACT_DIR / REACT_DOM_DIR (the repo's react18 or react) and ROOT_MODULES.
const path = require("path");

module.exports = {
  target: ["web", "es2022"],
  stats: "errors-warnings",
  mode: process.env.NODE_ENV === "production" ? "production" : "development",
  bail: true,
  devtool: false,
  entry: path.resolve(__dirname, "src/index.js"),
  output: {
    path: path.resolve(__dirname, "build"),
    filename: "static/js/[name].js",
    chunkFilename: "static/js/[name].[contenthash:8].chunk.js",
    assetModuleFilename: "static/media/[name].[hash][ext]",
    publicPath: "/",
  },
  infrastructureLogging: { level: "none" },
  resolve: {
    modules: ["node_modules", path.resolve(__dirname, "node_modules"), process.env.ROOT_MODULES],
    alias: { "react-dom": process.env.REACT_DOM_DIR, react: process.env.REACT_DIR },
  },
  module: {
    strictExportPresence: true,
    rules: [{ oneOf: [{ exclude: [/^$/, /\.(js|mjs|jsx|cjs)$/, /\.html$/, /\.json$/], type: "asset/resource" }] }],
  },
  performance: false,
};
