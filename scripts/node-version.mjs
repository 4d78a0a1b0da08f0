// The project's commands run on the Node.js line package.json asks for (`engines.node`). npm
// itself only warns about engines, so each command says it plainly, and how to get Node 24,
// before an older Node fails somewhere less clear.
import { readFileSync } from 'node:fs';

const wanted = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines
  .node;
const major = Number(
  String(wanted)
    .replace(/^>=\s*/, '')
    .split('.')[0],
);

/** Exits with a message when the running Node.js is older than package.json's engines. */
export function requireSupportedNode() {
  const running = Number(process.versions.node.split('.')[0]);
  if (running >= major) return;
  // The Node.js binary of this platform, as the npm registry publishes it.
  const binary = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  process.stderr.write(
    `This project needs Node.js ${major} or newer (package.json engines: ${wanted}); ` +
      `this is Node.js ${process.versions.node}.\n` +
      `Get it from the npm registry without touching the system Node:\n` +
      `  npm install --prefix ~/.node${major} ${binary}@${major}\n` +
      `  export PATH=~/.node${major}/node_modules/.bin:$PATH\n` +
      `or use any other Node.js ${major} installation.\n`,
  );
  process.exit(1);
}
