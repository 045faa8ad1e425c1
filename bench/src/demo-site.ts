import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './load.js';

/*
 * The site the browser benchmarks measure (bench:lighthouse, bench:tasks): the web app built
 * into a folder of its own and the real server with its demo content, on loopback.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The web app of the working tree, built into a fresh folder (never the web/dist another
 * process may use). `minify: false` keeps the functions' names for CPU profiles.
 */
export function buildWeb(options: { minify?: boolean } = {}): string {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muri-bench-web-'));
  process.stdout.write('Building the web app…\n');
  execFileSync(
    'npx',
    [
      'vite',
      'build',
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
      ...(options.minify === false ? ['--minify', 'false'] : []),
    ],
    { cwd: path.join(root, 'web'), stdio: 'inherit' },
  );
  return outDir;
}

export interface DemoSite {
  origin: string;
  stop: () => void;
}

/**
 * The built server (server/dist) serving `webDir`, with `demoImages` demo pictures in a fresh
 * data folder. The demo content comes from one seed, so two sites started alike show the same
 * gallery.
 */
export async function startDemoSite(webDir: string, demoImages: string): Promise<DemoSite> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muri-bench-data-'));
  const child = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST_DIR: webDir,
      DEMO_CONTENT: '1',
      DEMO_IMAGES: demoImages,
      // The text on the walls is read by background jobs; pages are measured without them.
      JOBS_IN_SERVER: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${String(port)}`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${String(child.exitCode)})`);
    try {
      if ((await fetch(`${origin}/api/images?limit=1`)).ok) break;
    } catch {
      // Still seeding the demo content.
    }
    if (Date.now() > deadline) throw new Error('the demo server did not start');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    origin,
    stop: () => {
      child.kill('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The pages goal 8 measures, home and the newest approved picture's page, and one more to ask
 * for (`--pages profile`): its uploader's public profile, the public page with the most
 * first-load JavaScript of its own (docs/PERFORMANCE.md, "First-load JavaScript of every public
 * page").
 */
export async function goalPages(origin: string): Promise<Array<{ name: string; url: string }>> {
  const first = (await (await fetch(`${origin}/api/images?limit=1`)).json()) as {
    images: Array<{ id_image: number; id_utente: number }>;
  };
  const image = first.images[0];
  return [
    { name: 'home', url: `${origin}/` },
    { name: 'image', url: `${origin}/image/${String(image?.id_image)}` },
    { name: 'profile', url: `${origin}/user/${String(image?.id_utente)}` },
  ];
}
