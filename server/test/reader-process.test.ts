import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOcrEngine } from '../src/jobs/image-analysis/ocr.js';
import { readerOf, type PhotoReader } from '../src/jobs/image-analysis/reader.js';
import {
  createReaderProcess,
  type ReaderProcess,
  type ReaderProcessOptions,
} from '../src/jobs/image-analysis/reader-process.js';

/*
 * The server reads photos in a child process at the lowest CPU priority (issue 8, goal 7).
 * These tests start real children (the OCR networks and sharp included) and check that they read as
 * the in-process reader does, run niced, survive bad input, and are replaced when they die.
 * No database is involved, so the file runs the same on both engines.
 */

const require = createRequire(import.meta.url);
const oswald = require.resolve('@expo-google-fonts/oswald/400Regular/Oswald_400Regular.ttf');

let photo: Buffer;
const started: PhotoReader[] = [];

function reader(options: ReaderProcessOptions = {}): ReaderProcess {
  const created = createReaderProcess(options);
  started.push(created);
  return created;
}

async function writing(text: string): Promise<Buffer> {
  const letters = await sharp({
    text: {
      text: `<span foreground="#202020">${text}</span>`,
      font: 'Oswald 80',
      fontfile: oswald,
      rgba: true,
    },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width: 1200, height: 600, channels: 3, background: '#ebe3d3' } })
    .composite([{ input: letters, gravity: 'center' }])
    .webp({ quality: 90 })
    .toBuffer();
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  photo = await writing('AMORE ETERNO');
});

afterAll(async () => {
  await Promise.all(started.map((each) => each.terminate()));
});

describe('reading photos in a child process', () => {
  it('reads what the in-process reader reads, at the lowest priority', async () => {
    const inProcess = readerOf(createOcrEngine());
    started.push(inProcess);
    const child = reader();
    const [expected, actual] = await Promise.all([inProcess.read(photo), child.read(photo)]);
    expect(actual).toEqual(expected);
    expect(actual.text).toContain('AMORE');
    expect(actual.phash).toMatch(/^[0-9a-f]{16}$/);

    const pid = child.pid();
    expect(pid).toBeTypeOf('number');
    if (process.platform === 'linux') {
      // Policy and nice value are per thread on Linux: every thread of the child must carry
      // both (field 41 of /proc/<pid>/task/<tid>/stat is the policy; 5 is SCHED_IDLE).
      const threads = fs.readdirSync(`/proc/${String(pid)}/task`);
      expect(threads.length).toBeGreaterThan(1);
      for (const thread of threads) {
        expect(os.getPriority(Number(thread))).toBe(19);
        const stat = fs.readFileSync(`/proc/${String(pid)}/task/${thread}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // util-linux's chrt is on every Debian-like system; elsewhere only the nice value.
        if (fs.existsSync('/usr/bin/chrt') || fs.existsSync('/bin/chrt')) {
          expect(fields[41 - 3]).toBe('5');
        }
      }
    }
    expect(os.getPriority()).not.toBe(19);
  });

  it.skipIf(process.platform !== 'linux')(
    'stops the reading while the server is busy and lets it go on once it is quiet',
    async () => {
      let state: 'busy' | 'quiet' = 'busy';
      const child = reader({ load: { sample: () => state }, pauseCheckMs: 20 });
      let done = false;
      const reading = child.read(photo).finally(() => {
        done = true;
      });
      // Field 3 of /proc/<pid>/stat: T while stopped by a signal.
      const status = () => {
        const stat = fs.readFileSync(`/proc/${String(child.pid())}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      };
      await until(() => child.pid() !== undefined && status() === 'T');
      const cpu = () => {
        const stat = fs.readFileSync(`/proc/${String(child.pid())}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[11]) + Number(fields[12]);
      };
      const before = cpu();
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Stopped, it uses no CPU and answers nothing.
      expect(cpu()).toBe(before);
      expect(done).toBe(false);
      state = 'quiet';
      expect((await reading).text).toContain('AMORE');
      expect(status()).not.toBe('T');
    },
  );

  it('judges the load from the moment a photo is handed over, not from the last photo', async () => {
    // Each sample measures the time since the one before: an old one would have the first check
    // average the server's load over minutes of quiet, and let a starting child run while busy.
    const sampled: number[] = [];
    const child = reader({
      load: {
        sample: () => {
          sampled.push(performance.now());
          return 'same';
        },
      },
      pauseCheckMs: 50,
    });
    await child.read(photo);
    await new Promise((resolve) => setTimeout(resolve, 300));
    sampled.length = 0;
    const handedOver = performance.now();
    await child.read(photo);
    expect(sampled.length).toBeGreaterThan(0);
    expect((sampled[0] ?? Infinity) - handedOver).toBeLessThan(25);
  });

  it('rejects bytes that are not an image and goes on reading with the same process', async () => {
    const child = reader();
    await expect(child.read(Buffer.from('not an image at all'))).rejects.toThrow(
      /unsupported image format/,
    );
    const pid = child.pid();
    expect((await child.read(photo)).text).toContain('AMORE');
    expect(child.pid()).toBe(pid);
  });

  it('fails the photo in hand when the process dies, and starts a new one for the next', async () => {
    const child = reader();
    await child.read(photo);
    const first = child.pid() ?? 0;
    const reading = child.read(photo);
    process.kill(first, 'SIGKILL');
    await expect(reading).rejects.toThrow(/the reading process ended \(SIGKILL\)/);
    expect((await child.read(photo)).text).toContain('AMORE');
    expect(child.pid()).not.toBe(first);
  });

  it('ends a reading that takes more CPU time than its budget', async () => {
    const child = reader({ cpuBudgetMs: 1 });
    await expect(child.read(photo)).rejects.toThrow(/reading took over 1 ms of CPU/);
  });

  it('ends a reading that takes longer than the wall-clock limit', async () => {
    const child = reader({ timeoutMs: 50 });
    await expect(child.read(photo)).rejects.toThrow(/longer than 50 ms/);
  });

  it('reads photos sent together one after another, each getting its own answer', async () => {
    const child = reader();
    const other = await writing('CIAO MAMMA');
    const [a, b, c] = await Promise.all([child.read(photo), child.read(other), child.read(photo)]);
    expect(a.text).toContain('AMORE');
    expect(b.text).toContain('MAMMA');
    expect(c).toEqual(a);
  });

  it('ends an idle process, and terminate ends a running one', async () => {
    const idle = reader({ idleMs: 100 });
    await idle.read(photo);
    const pid = idle.pid() ?? 0;
    await until(() => idle.pid() === undefined && !isRunning(pid));

    const busy = reader();
    await busy.read(photo);
    const busyPid = busy.pid() ?? 0;
    await busy.terminate();
    expect(busy.pid()).toBeUndefined();
    await until(() => !isRunning(busyPid));
  });
});
