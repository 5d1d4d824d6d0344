// webpack 5 as Create React App 5 (react-scripts 5.0.1, config/webpack.config.js) configures it for
// `npm run build` (NODE_ENV=production) and `npm start` (development), reduced to what bears on a
// dependency: browserslist target, strict export presence, the `oneOf` rules whose last entry sends
// every other file (a .wasm too) to `asset/resource`, terser, source maps. No
// `experiments.asyncWebAssembly`, no wasm loader.
// Left out, as they do not touch a dependency's module graph: babel-loader (this app has no JSX),
// css/svg/image loaders, HtmlWebpackPlugin (public/index.html names the bundle instead, hence
// the fixed `[name].js` file names), workbox, eslint, ModuleScopePlugin.
const path = require("path");

const production = process.env.NODE_ENV === "production";

module.exports = {
  target: ["browserslist"],
  stats: "errors-warnings",
  mode: production ? "production" : "development",
  bail: production,
  devtool: production ? "source-map" : "cheap-module-source-map",
  entry: path.resolve(__dirname, "src/index.js"),
  output: {
    path: path.resolve(__dirname, production ? "build" : "build-dev"),
    pathinfo: !production,
    filename: "static/js/[name].js",
    chunkFilename: "static/js/[name].[contenthash:8].chunk.js",
    assetModuleFilename: "static/media/[name].[hash][ext]",
    publicPath: "/",
  },
  infrastructureLogging: { level: "none" },
  optimization: { minimize: production },
  resolve: {
    modules: ["node_modules", path.resolve(__dirname, "node_modules")],
    extensions: ["web.mjs", "mjs", "web.js", "js", "json", "web.jsx", "jsx"].map((ext) => `.${ext}`),
  },
  module: {
    strictExportPresence: true,
    rules: [
      {
        oneOf: [
          { test: [/\.avif$/], type: "asset", mimetype: "image/avif", parser: { dataUrlCondition: { maxSize: 10000 } } },
          { test: [/\.bmp$/, /\.gif$/, /\.jpe?g$/, /\.png$/], type: "asset", parser: { dataUrlCondition: { maxSize: 10000 } } },
          // CRA: babel-loader for src/ and for dependencies' .js/.mjs would come here.
          { exclude: [/^$/, /\.(js|mjs|jsx|ts|tsx)$/, /\.html$/, /\.json$/], type: "asset/resource" },
        ],
      },
    ],
  },
  performance: false,
};
