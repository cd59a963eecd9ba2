#!/usr/bin/env node
// Refuses the use of anything its declaration marks @deprecated, in the repository's
// TypeScript projects (with their type errors, as `tsc -p <project> --noEmit` gives them).
//
// TypeScript notes each use of a deprecated declaration while it checks a file (an editor
// shows it struck through); this reads those notes after a full check. ESLint's
// no-deprecated rule found the same uses by asking the checker again for every identifier,
// call and JSX attribute, in a lint that must stay short. A full check is not incremental,
// so this is a step of its own (`npm run deprecated`, and in `npm test`), and
// `npm run typecheck` stays tsc's incremental check.
//
// Usage: node scripts/deprecated.mjs [tsconfig.json…] (default: both projects of the
// repository). Exit code 1 when any project has an error.
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const projects = process.argv.slice(2);
if (projects.length === 0) projects.push('tsconfig.node.json', 'tsconfig.web.json');

const formatHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => ts.sys.newLine,
};

/** The project's errors, then each use of a deprecated declaration in its own files. */
function check(project) {
  const configPath = resolve(project);
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`${project}: not a TypeScript project file`);
  const own = new Set(config.fileNames.map((name) => resolve(name)));
  const host = {
    getCompilationSettings: () => config.options,
    getProjectReferences: () => config.projectReferences,
    getScriptFileNames: () => config.fileNames,
    // Every file is read once, for one check: no file changes between two requests.
    getScriptVersion: () => '0',
    getScriptSnapshot: (name) => {
      const text = ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => dirname(configPath),
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const program = service.getProgram();
  if (!program) throw new Error(`${project}: TypeScript made no program of it`);
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
  for (const file of program.getSourceFiles()) {
    if (!own.has(resolve(file.fileName)) || file.isDeclarationFile) continue;
    for (const note of service.getSuggestionDiagnostics(file.fileName)) {
      if (note.reportsDeprecated)
        diagnostics.push({ ...note, category: ts.DiagnosticCategory.Error });
    }
  }
  return diagnostics;
}

let failed = false;
for (const project of projects) {
  const started = Date.now();
  const diagnostics = check(project);
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (diagnostics.length > 0) {
    const format = process.stdout.isTTY
      ? ts.formatDiagnosticsWithColorAndContext
      : ts.formatDiagnostics;
    process.stdout.write(format(diagnostics, formatHost));
  }
  failed ||= errors.length > 0;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `${relative(root, resolve(project))}: ${String(errors.length)} error(s), ${seconds} s`,
  );
}
process.exitCode = failed ? 1 : 0;
