import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('graceful shutdown in the app', () => {
  it('lets requests in flight finish and answers later ones with 503 while closing', async () => {
    const t = await buildTestApp();
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    t.app.get('/api/test/slow', async () => {
      await released;
      return { done: true };
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };

    // A keep-alive client sends its next request on the same connection as soon as the slow
    // answer arrives, that is after shutdown began.
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      const first = !received.includes('done');
      received += chunk.toString();
      if (first && received.includes('done')) {
        socket.write('GET /api/users/me HTTP/1.1\r\nHost: localhost\r\n\r\n');
      }
    });
    const ended = new Promise<void>((resolve) =>
      socket.on('close', () => {
        resolve();
      }),
    );
    socket.write('GET /api/test/slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = t.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await ended;
    await closing;

    const responses = received.split(/(?=HTTP\/1\.1 )/);
    expect(responses).toHaveLength(2);
    expect(responses[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(responses[0]).toContain('{"done":true}');
    expect(responses[1]).toMatch(/^HTTP\/1\.1 503/);
    expect(responses[1]).toMatch(/connection: close/i);
    expect(responses[1]).toContain(
      JSON.stringify({ detail: 'Il server si sta riavviando. Riprova tra qualche istante.' }),
    );
  });
});

/** The real entry point, as `npm start` runs it (from sources, through tsx). */
function startServer(env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env['PATH'] ?? '', ...env },
  });
}

function collect(child: ChildProcessWithoutNullStreams) {
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code);
    }),
  );
  return { output, exited };
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the server process', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  async function environment(): Promise<{ dataDir: string; database: TestDatabase }> {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'muri-main-'));
    const database = await createTestDatabase(dataDir);
    cleanups.push(async () => {
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    });
    return { dataDir, database };
  }

  it('stops at start with one line naming a wrong variable', async () => {
    const { dataDir } = await environment();
    const child = startServer({ DATA_DIR: dataDir, PORT: 'tremila' });
    const { output, exited } = collect(child);
    expect(await exited).toBe(1);
    expect(output.stderr.trim()).toBe(
      'Configuration error: PORT: must be a whole number from 0 to 65535, got "tremila"',
    );
  });

  it('stops at start with one line naming the variable when the machine refuses it', async () => {
    const { dataDir } = await environment();
    // A port nobody listens on: before, 'Database migration "unknown" failed' and a stack,
    // with the refused connection hidden in the error's cause.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = collect(
      startServer({
        DATA_DIR: dataDir,
        DEMO_CONTENT: '0',
        DATABASE_URL: `postgres://muri:segreto@127.0.0.1:${String(closedPort)}/muri`,
      }),
    );
    expect(await unreachable.exited).toBe(1);
    expect(unreachable.output.stderr.trim()).toBe(
      'Failed to start: DATABASE_URL: the database cannot be reached ' +
        `(connect ECONNREFUSED 127.0.0.1:${String(closedPort)})`,
    );

    // A data folder that is a file: a stack trace from mkdir before.
    const file = path.join(dataDir, 'un-file');
    await fs.writeFile(file, '');
    const notFolder = collect(startServer({ DATA_DIR: file, DEMO_CONTENT: '0' }));
    expect(await notFolder.exited).toBe(1);
    expect(notFolder.output.stderr.trim()).toBe(
      `Failed to start: DATA_DIR: the data folder cannot be used (EEXIST: file already exists, mkdir '${file}')`,
    );

    // A port already taken.
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const takenPort = (taken.address() as net.AddressInfo).port;
    try {
      const inUse = collect(
        startServer({
          DATA_DIR: path.join(dataDir, 'dati'),
          DEMO_CONTENT: '0',
          HOST: '127.0.0.1',
          PORT: String(takenPort),
        }),
      );
      expect(await inUse.exited).toBe(1);
      expect(inUse.output.stderr.trim()).toBe(
        'Failed to start: PORT: the port is already in use ' +
          `(listen EADDRINUSE: address already in use 127.0.0.1:${String(takenPort)})`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('starts, prints a generated administrator once, serves, and stops cleanly on SIGTERM', async () => {
    const { dataDir, database } = await environment();
    const env = {
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO_CONTENT: '0',
      ...(database.config.kind === 'postgres' ? { DATABASE_URL: database.config.url } : {}),
    };

    const first = startServer(env);
    const run = collect(first);
    await waitFor(() => /Server listening at/.test(run.output.stdout), 'the server to listen');
    const credentials = /username: (\S+)\n\s+password: (\S+)/.exec(run.output.stdout);
    expect(credentials?.[1]).toBe('admin');
    const port = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(run.output.stdout)?.[1];

    const loginResponse = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: credentials?.[1], password: credentials?.[2] }),
    });
    expect(loginResponse.status).toBe(200);

    first.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output.stdout).toMatch(/shutting down/);

    const second = startServer(env);
    const rerun = collect(second);
    await waitFor(() => /Server listening at/.test(rerun.output.stdout), 'the restart');
    expect(rerun.output.stdout).not.toContain('password:');
    second.kill('SIGINT');
    expect(await rerun.exited).toBe(0);

    // An administrator configured with the address the generated one has: one line, no start.
    const third = startServer({
      ...env,
      ADMIN_USERNAME: 'capo',
      ADMIN_PASSWORD: 'una-password-lunga',
      ADMIN_EMAIL: 'admin@localhost.localdomain',
    });
    const refused = collect(third);
    expect(await refused.exited).toBe(1);
    expect(refused.output.stderr.trim()).toBe(
      'Configuration error: ADMIN_EMAIL: is already the address of another account: ' +
        '"admin@localhost.localdomain"',
    );
  });
});
