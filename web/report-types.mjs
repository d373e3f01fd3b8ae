// The report's TypeScript types (src/report-types.ts), generated from docs/report-schema.json, the report's one
// schema, by json-schema-to-typescript. The file is committed so that `tsc` and esbuild need no generation step;
// typecheck.mjs (npm run typecheck, ctest web.Typecheck) fails when it is not what the schema generates now.
//
//   node report-types.mjs            rewrite src/report-types.ts
//   node report-types.mjs --check    exit 1 when src/report-types.ts is stale
import { compile } from 'json-schema-to-typescript';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const schemaFile = join(here, '..', 'docs', 'report-schema.json');
export const typesFile = join(here, 'src', 'report-types.ts');

const banner = `// GENERATED from docs/report-schema.json by web/report-types.mjs (json-schema-to-typescript): do not edit.
// After changing the schema: cd web && node report-types.mjs (npm run typecheck fails until then).`;

// The text src/report-types.ts must hold. Objects the schema leaves open get no index signature
// (additionalProperties: false), so a misspelt field is a type error rather than `unknown`.
export async function reportTypes(schema = JSON.parse(readFileSync(schemaFile, 'utf8'))) {
  return compile(schema, 'Report', {
    bannerComment: banner,
    additionalProperties: false,
    unknownAny: true,
    style: { printWidth: 120, singleQuote: true },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await reportTypes();
  if (process.argv.includes('--check')) {
    if (readFileSync(typesFile, 'utf8') !== text) {
      console.error(`${typesFile} is stale: docs/report-schema.json changed; run: cd web && node report-types.mjs`);
      process.exit(1);
    }
  } else {
    writeFileSync(typesFile, text);
    console.log(`web: wrote ${typesFile}`);
  }
}
