// Bundles src/ into dist/linden-tracker-client.js (ESM) for the CDN build; the npm package ships src/ as is.
import { build } from "esbuild";

const result = await build({
  entryPoints: ["src/index.js"],
  bundle: true,
  format: "esm",
  platform: "neutral",
  outfile: "dist/linden-tracker-client.js",
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs)[0].bytes;
console.log(`Built dist/linden-tracker-client.js (ESM, ${(bytes / 1024).toFixed(1)} kB)`);
