// @ts-check
/*
 * `npm start` (D12): runs the built server, building first when there is no build or when a
 * source file changed since the last one, so a newcomer's first start and a start after
 * `git pull` both run current code. Plain JavaScript because it must run before any build.
 */
import { spawn, spawnSync } from 'node:child_process';
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

const main = outputs[0] ?? '';

/*
 * glibc gives each thread that allocates its own malloc arena, and libvips (sharp) decodes on
 * several threads: after a few uploads the server held ~460 MB it no longer used (issue 8,
 * goal 6). Two arenas keep it near 300 MB for the same work. glibc reads MALLOC_ARENA_MAX only
 * when a process starts, so the server runs as a child with it set, unless the environment
 * already chose. Ctrl-C reaches both processes (same process group); a SIGTERM or SIGHUP sent
 * to this one is passed on, and this one exits as the server does.
 */
if (process.platform === 'linux' && process.env.MALLOC_ARENA_MAX === undefined) {
  const server = spawn(process.execPath, [...process.execArgv, main], {
    stdio: 'inherit',
    env: { ...process.env, MALLOC_ARENA_MAX: '2' },
  });
  process.on('SIGINT', () => undefined);
  for (const signal of /** @type {const} */ (['SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => server.kill(signal));
  }
  server.on('exit', (code, signal) => {
    process.exit(code ?? (signal === null ? 0 : 1));
  });
} else {
  await import(pathToFileURL(main).href);
}
