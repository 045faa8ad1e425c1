// @ts-check
/*
 * `npm start` (D12): runs the built server, building first when there is no build or when a
 * source file changed since the last one, so a newcomer's first start and a start after
 * `git pull` both run current code. Plain JavaScript because it must run before any build.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outputs = [path.join(root, 'server/dist/main.js'), path.join(root, 'web/dist/index.html')];
const sources = ['server/src', 'web/src', 'web/public', 'web/index.html', 'package-lock.json'];

/** @param {string} target @returns {number} the newest modification time below target */
function newestMtime(target) {
  const full = path.join(root, target);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(full)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

const built = outputs.every((file) => fs.existsSync(file));
const builtAt = built ? Math.min(...outputs.map((file) => fs.statSync(file).mtimeMs)) : 0;
const changedAt = Math.max(...sources.map(newestMtime));

if (!built || changedAt > builtAt) {
  process.stdout.write(built ? 'Sources changed: rebuilding…\n' : 'First start: building…\n');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import(pathToFileURL(outputs[0] ?? '').href);
