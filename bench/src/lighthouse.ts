import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { buildWeb, goalPages, startDemoSite } from './demo-site.js';
import { ensureServerBuild } from './load.js';
import { callerPath } from './options.js';

/*
 * `npm run bench:lighthouse -- [--runs 3] [--demo-images 60] [--save <dir>] [--pages home,image]
 *   [--presets mobile,desktop] [--web <dir>]` (`--pages` may also name `profile`: a demo user's
 *   public profile)
 *
 * Issue 8, goal 8: Lighthouse (the npm package, driving Debian's Chromium) on the home page and
 * an image page of the real server with its demo content, with the mobile preset (simulated
 * slow 4G and a 4× slower CPU) and the desktop preset. Prints the performance, accessibility
 * and best-practices scores, LCP, TBT and CLS (the median of `--runs` runs per page and preset),
 * and the JavaScript a first visit loads, as sent and compressed with brotli, and whether any
 * back-office chunk (Data Grid, Charts) was among it. Not part of `npm test`.
 */

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    /** Which of the pages (home, image, profile) and presets (mobile, desktop) to measure. */
    pages: { type: 'string', default: 'home,image' },
    presets: { type: 'string', default: 'mobile,desktop' },
    /** A web app built before (`npx vite build --outDir <dir>`) instead of the working tree's. */
    web: { type: 'string' },
    'demo-images': { type: 'string', default: '60' },
    /** A folder for the full Lighthouse reports (JSON), one per page, preset and run. */
    save: { type: 'string' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});
const runs = Number(values.runs);
const say = (text: string) => process.stdout.write(`${text}\n`);

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scripts: Array<{ url: string; sentBytes: number }>;
}

function figures(lhr: Result): Figures {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests = (lhr.audits['network-requests']?.details as
    | { items: Array<{ url: string; resourceType?: string; transferSize?: number }> }
    | undefined) ?? { items: [] };
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    scripts: requests.items
      .filter((item) => item.resourceType === 'Script')
      .map((item) => ({ url: item.url, sentBytes: item.transferSize ?? 0 })),
  };
}

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function brotliSize(url: string): Promise<number> {
  const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
  return zlib.brotliCompressSync(bytes, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;
}

async function main(): Promise<void> {
  ensureServerBuild();
  const webDir = values.web === undefined ? buildWeb() : callerPath(values.web);
  const server = await startDemoSite(webDir, values['demo-images']);
  const chrome = await chromeLauncher.launch({
    chromePath: values.chromium,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
    ],
  });
  try {
    const pages = (await goalPages(server.origin)).filter((page) =>
      values.pages.split(',').includes(page.name),
    );
    const presets = (['mobile', 'desktop'] as const).filter((preset) =>
      values.presets.split(',').includes(preset),
    );
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    };
    say(
      `\nMachine: ${String(os.availableParallelism())} cores, Node ${process.version}; ` +
        `median of ${String(runs)} runs per page and preset\n`,
    );
    say('page   preset   perf  a11y  best  LCP ms  TBT ms  CLS    JS sent  JS brotli  admin code');
    for (const page of pages) {
      for (const preset of presets) {
        const all: Figures[] = [];
        // A run Lighthouse could not measure (NO_NAVSTART and the like, seen on a busy machine)
        // has no figures: it is run again, up to as many extra times as runs asked for.
        for (let run = 0, failed = 0; run < runs; run += 1) {
          const result = await lighthouse(
            page.url,
            flags,
            preset === 'desktop' ? desktopConfig : undefined,
          );
          if (result === undefined) throw new Error(`no Lighthouse result for ${page.url}`);
          if (result.lhr.runtimeError !== undefined && failed < runs) {
            failed += 1;
            say(`(${page.name} ${preset}: ${result.lhr.runtimeError.code}, run again)`);
            run -= 1;
            continue;
          }
          if (values.save !== undefined) {
            fs.mkdirSync(values.save, { recursive: true });
            const file = `${page.name}-${preset}-${String(run + 1)}.json`;
            fs.writeFileSync(path.join(values.save, file), JSON.stringify(result.lhr));
          }
          all.push(figures(result.lhr));
        }
        const scripts = all[0]?.scripts ?? [];
        const sent = scripts.reduce((sum, script) => sum + script.sentBytes, 0);
        let brotli = 0;
        for (const script of scripts) brotli += await brotliSize(script.url);
        const admin = scripts.some((script) => /Admin|DataGrid|charts/i.test(script.url));
        say(
          [
            page.name.padEnd(6),
            preset.padEnd(8),
            String(median(all.map((f) => f.performance))).padStart(4),
            String(median(all.map((f) => f.accessibility))).padStart(5),
            String(median(all.map((f) => f.bestPractices))).padStart(5),
            median(all.map((f) => f.lcpMs))
              .toFixed(0)
              .padStart(7),
            median(all.map((f) => f.tbtMs))
              .toFixed(0)
              .padStart(7),
            median(all.map((f) => f.cls))
              .toFixed(3)
              .padStart(6),
            `${(sent / 1024).toFixed(0)} KB`.padStart(9),
            `${(brotli / 1024).toFixed(0)} KB`.padStart(10),
            admin ? '  LOADED' : '  none',
          ].join(' '),
        );
      }
    }
  } finally {
    chrome.kill();
    server.stop();
    if (values.web === undefined) fs.rmSync(webDir, { recursive: true, force: true });
  }
}

await main();
