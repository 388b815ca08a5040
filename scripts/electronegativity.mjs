#!/usr/bin/env node
// `npm run audit:electron`: Doyensec's electronegativity over the app's sources (main, preload,
// renderer and package.json, copied to a temporary folder so node_modules is not scanned). The
// release check that needs the internet is skipped; the Electron version is the installed one.
// Writes electronegativity.csv and prints every finding; exits 1 on one above LOW that the README
// does not explain (section "Electron security", by check name).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'reelscout-eneg-'));
const out = path.join(root, 'test-results', 'electronegativity.csv');
try {
  for (const d of ['src-main', 'src-preload', 'src-renderer', 'package.json']) fs.cpSync(path.join(root, d), path.join(stage, d), { recursive: true });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const electron = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const bin = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electronegativity.cmd' : 'electronegativity');
  execFileSync(bin, ['-i', stage, '-e', electron, '-x', 'AvailableSecurityFixesGlobalCheck', '-r', '-v', 'false', '-o', out], { stdio: 'pipe' });
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
const rows = fs
  .readFileSync(out, 'utf8')
  .split('\n')
  .slice(1)
  .filter((l) => /^[A-Z_]+,"/.test(l))
  .map((l) => {
    const [issue, severity, confidence, file, location] = l.split(',').map((c) => c.replace(/^"|"$/g, ''));
    return { issue, severity, confidence, file: file.replace(/^reelscout-eneg-[^/]+\//, ''), location };
  });
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('### Electron security'));
let unexplained = 0;
for (const r of rows) {
  const explained = r.severity === 'LOW' || r.severity === 'INFORMATIONAL' || section.includes(r.issue);
  if (!explained) unexplained++;
  console.log(`${explained ? 'ok  ' : 'FAIL'} ${r.severity.padEnd(6)} ${r.issue} ${r.file}:${r.location}`);
}
console.log(JSON.stringify({ findings: rows.length, aboveLow: rows.filter((r) => !['LOW', 'INFORMATIONAL'].includes(r.severity)).length, unexplained }));
process.exit(unexplained ? 1 : 0);
