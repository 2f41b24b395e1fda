// Bundles bin/relnote.js and src/ into dist/relnote.js (one file, for the npm tarball and the Homebrew formula).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const modules = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith(".js")) modules.push(path);
  }
};
walk("src");
mkdirSync("dist", { recursive: true });
const banner = `// relnote ${JSON.parse(readFileSync("package.json", "utf8")).version}: built from ${modules.length} modules\n`;
writeFileSync("dist/relnote.js", banner + modules.map((path) => `// ${path}\n${readFileSync(path, "utf8")}`).join("\n"));
console.log(`Built dist/relnote.js from ${modules.length} modules.`);
