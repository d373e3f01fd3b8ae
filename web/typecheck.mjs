// npm run typecheck, ctest web.Typecheck: src/report-types.ts is what docs/report-schema.json generates now, no
// source says `any` (the API's answers are typed in src/api-types.ts: use those, or unknown), and tsc (strict,
// tsconfig.json) reports nothing.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { reportTypes, typesFile } from './report-types.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const problems = [];

if (readFileSync(typesFile, 'utf8') !== await reportTypes()) {
  problems.push('src/report-types.ts is stale: docs/report-schema.json changed; run: cd web && node report-types.mjs');
}

const config = ts.getParsedCommandLineOfConfigFile(join(here, 'tsconfig.json'), {}, {
  ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => problems.push(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
});
const program = ts.createProgram(config.fileNames, config.options);
const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length > 0) {
  problems.push(ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f, getCurrentDirectory: () => here, getNewLine: () => '\n' }).trimEnd());
}

for (const file of program.getSourceFiles()) {
  if (!config.fileNames.includes(file.fileName)) continue;  // the libraries' declarations
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) {
      const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
      problems.push(`${relative(here, file.fileName)}:${line + 1}:${character + 1}: \`any\`: use a type from api-types.ts or unknown`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`web: typecheck ok (${config.fileNames.length} files, strict, no any, report types current)`);
