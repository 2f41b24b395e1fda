// Bundles src/index.js into dist/tally.js (ESM, Node 20) with esbuild. `pnpm build`.
import { build } from "esbuild";

const result = await build({
  entryPoints: ["src/index.js"],
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "node20",
  outfile: "dist/tally.js",
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((total, output) => total + output.bytes, 0);
console.log(`dist/tally.js  ${(bytes / 1024).toFixed(1)}kb`);
