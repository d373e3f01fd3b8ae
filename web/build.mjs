// Builds the dashboard into OUT (default ../build/share/hipforge/web): assets/app.js (esbuild bundle of src/main.tsx),
// index.html, style.css and the rule docs (docs/rules/*.md -> rules/). Works offline once `npm ci` ran.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, '..', 'build', 'share', 'hipforge', 'web'));
mkdirSync(join(out, 'assets'), { recursive: true });
mkdirSync(join(out, 'rules'), { recursive: true });

await build({
  entryPoints: [join(here, 'src', 'main.tsx')],
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  target: ['es2020'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outfile: join(out, 'assets', 'app.js'),
  logLevel: 'warning',
});
copyFileSync(join(here, 'src', 'style.css'), join(out, 'assets', 'style.css'));
// Content hashes in the URLs: index.html is revalidated, the assets can be cached.
const version = (file) => createHash('sha256').update(readFileSync(join(out, 'assets', file))).digest('hex').slice(0, 12);
const html = readFileSync(join(here, 'src', 'index.html'), 'utf8')
  .replace('assets/app.js', `assets/app.js?v=${version('app.js')}`)
  .replace('assets/style.css', `assets/style.css?v=${version('style.css')}`);
writeFileSync(join(out, 'index.html'), html);
const rules = join(here, '..', 'docs', 'rules');
for (const name of readdirSync(rules)) if (name.endsWith('.md')) copyFileSync(join(rules, name), join(out, 'rules', name));
console.log(`web: built into ${out}`);
