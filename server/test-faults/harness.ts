import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import {
  IMAGE_VARIANTS,
  imageFilePath,
  imagesRoot,
  keptPixelsPath,
} from '../src/modules/images/images.storage.js';
import { TEST_ADMIN, TEST_JWT_SECRET } from '../test/helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database.js';
import { multipart, type Part } from '../test/helpers/images.js';

/*
 * The fault suite drives the built server (`server/dist/main.js`, what `npm start` runs) as a
 * real process: a kill -9 or a SIGTERM only means something to a real process, and only a
 * real process has real sockets, a real event loop and a real file system under it.
 */

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = path.join(serverDir, 'dist', 'main.js');

export { TEST_ADMIN };

/** A data folder and a database of the engine under test, kept across restarts. */
export interface FaultEnvironment {
  dataDir: string;
  database: TestDatabase;
  /** The server's environment; `overrides` win. */
  env(overrides?: Record<string, string>): Record<string, string>;
  /** A connection of the test's own, to look at what the server left behind. */
  open(): DatabaseHandle;
  cleanup(): Promise<void>;
}

export async function createFaultEnvironment(): Promise<FaultEnvironment> {
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'muri-faults-'));
  const database = await createTestDatabase(dataDir);
  return {
    dataDir,
    database,
    env: (overrides = {}) => ({
      PATH: process.env['PATH'] ?? '',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO_CONTENT: '0',
      ADMIN_USERNAME: TEST_ADMIN.username,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      // Tokens stay valid across the restarts of one test.
      JWT_SECRET: TEST_JWT_SECRET,
      // The tests send many requests from one address and one user, on purpose.
      RATE_LIMITS: '0',
      MAX_PENDING_UPLOADS: '1000',
      LOG_LEVEL: 'info',
      ...(database.config.kind === 'postgres' ? { DATABASE_URL: database.config.url } : {}),
      ...overrides,
    }),
    // Without DATABASE_URL the server keeps its SQLite file in DATA_DIR under this name.
    open: () =>
      openDatabase(
        database.config.kind === 'sqlite'
          ? { kind: 'sqlite', file: path.join(dataDir, 'muri-parlanti.sqlite') }
          : database.config,
      ),
    async cleanup() {
      await database.drop();
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote so far (JSON log lines and plain lines). */
  output(): string;
  /** The JSON log lines so far, parsed. */
  logs(): Array<Record<string, unknown>>;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  isRunning(): boolean;
  /** SIGKILL: no handler runs, nothing is flushed, like a power cut of the process. */
  kill9(): Promise<void>;
}

/** Servers started and not yet exited, so a failed test never leaves one running. */
const live = new Set<ServerProcess>();

/** For afterEach: kills whatever a test left running. */
export async function killLeftoverServers(): Promise<void> {
  await Promise.all([...live].map((server) => server.kill9()));
}

export async function startServer(
  env: Record<string, string>,
  options: { timeoutMs?: number; nodeOptions?: string[] } = {},
): Promise<ServerProcess> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!fs.existsSync(ENTRY)) {
    throw new Error('The server is not built: run "npm run build -w server" first');
  }
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), ENTRY], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  let running = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running = false;
      resolve({ code, signal });
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    // A server that never listens is killed, not left behind.
    const fail = (error: Error) => {
      child.kill('SIGKILL');
      reject(error);
    };
    const timer = setTimeout(() => {
      fail(new Error(`the server did not start within ${timeoutMs} ms:\n${text}`));
    }, timeoutMs);
    const look = () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      child.stdout.off('data', look);
      resolve(match[1]);
    };
    child.stdout.on('data', look);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(new Error(`the server exited (${String(code ?? signal)}) before listening:\n${text}`));
    });
  });
  const server: ServerProcess = {
    url,
    child,
    output: () => text,
    logs: () =>
      text
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    exited,
    isRunning: () => running,
    async kill9() {
      if (!running) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  live.add(server);
  void exited.then(() => live.delete(server));
  return server;
}

/** Polls until `check` answers something other than undefined/false, or fails after timeoutMs. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

// HTTP --------------------------------------------------------------------------------------

async function unexpectedAnswer(what: string, response: Response): Promise<Error> {
  const retryAfter = response.headers.get('retry-after');
  return new Error(
    `${what}: ${response.status}${retryAfter === null ? '' : ` (Retry-After ${retryAfter})`} ` +
      (await response.text()),
  );
}

export async function loginAs(url: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200)
    throw new Error(`login: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A new user registered through the API; answers its token. */
export async function registerUser(url: string): Promise<string> {
  const username = `utente${randomBytes(4).toString('hex')}`;
  const response = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username}@example.it`,
      password: 'password-sicura',
      age_confirmed: true,
    }),
  });
  if (response.status !== 201) throw await unexpectedAnswer('register', response);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The multipart form of an upload, as the web app sends it (SPEC §7 fields). */
export function uploadForm(
  bytes: Buffer,
  fields: { title?: string; categoryId?: number; tags?: string[] } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const parts: Part[] = [
    { name: 'file', value: bytes, filename: 'muro.jpg', contentType: 'image/jpeg' },
    { name: 'title', value: fields.title ?? 'Scritta sul muro' },
    { name: 'category_id', value: String(fields.categoryId ?? 1) },
    { name: 'tags', value: JSON.stringify(fields.tags ?? []) },
  ];
  return multipart(parts);
}

export async function upload(
  url: string,
  token: string,
  bytes: Buffer,
  fields: { title?: string; categoryId?: number; tags?: string[] } = {},
): Promise<Response> {
  const form = uploadForm(bytes, fields);
  return fetch(`${url}/api/images/export`, {
    method: 'POST',
    headers: { ...form.headers, authorization: `Bearer ${token}` },
    body: form.payload,
  });
}

// Images and files ---------------------------------------------------------------------------

/**
 * A photo-sized JPEG of soft coloured noise: large enough that decoding, re-encoding and
 * writing take a while (a wider window for a fault to land in), smooth enough that OCR is quick.
 */
export async function photoBytes(width = 1600, height = 1200): Promise<Buffer> {
  const small = randomBytes(Math.ceil(width / 16) * Math.ceil(height / 16) * 3);
  return sharp(small, {
    raw: { width: Math.ceil(width / 16), height: Math.ceil(height / 16), channels: 3 },
  })
    .resize(width, height, { kernel: 'cubic' })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export interface StoredFiles {
  /**
   * Final file names found in each variant's folder; `pixels` holds the images whose decoded
   * pixels wait for their full-size job (images/pixels/<stem>.rgb), by image name.
   */
  byVariant: Record<string, Set<string>>;
  /** Temporary (`.tmp`) files anywhere under images/. */
  temporary: string[];
}

const FOLDERS: Record<string, string> = {
  original: '',
  display: 'display',
  thumb: 'thumbs',
  pixels: 'pixels',
};

/** What is on disk under DATA_DIR/images, by folder. */
export async function storedFiles(dataDir: string): Promise<StoredFiles> {
  const result: StoredFiles = { byVariant: {}, temporary: [] };
  for (const [variant, folder] of Object.entries(FOLDERS)) {
    const names = await fsp.readdir(path.join(imagesRoot(dataDir), folder)).catch(() => []);
    const files = new Set<string>();
    for (const name of names) {
      if (name.endsWith('.tmp')) result.temporary.push(path.join(folder, name));
      else if (variant === 'pixels' && name.endsWith('.rgb'))
        files.add(`${name.slice(0, -'.rgb'.length)}.webp`);
      else if (name.endsWith('.webp')) files.add(name);
    }
    result.byVariant[variant] = files;
  }
  return result;
}

/** Sets the modification time of every file under DATA_DIR/images `ms` into the past. */
export async function ageImageFiles(dataDir: string, ms: number): Promise<void> {
  const when = new Date(Date.now() - ms);
  for (const folder of Object.values(FOLDERS)) {
    const dir = path.join(imagesRoot(dataDir), folder);
    for (const name of await fsp.readdir(dir).catch(() => [])) {
      const file = path.join(dir, name);
      if ((await fsp.stat(file)).isFile()) await fsp.utimes(file, when, when);
    }
  }
}

/**
 * Fails unless the files of an image exist and decode whole (none cut short): the display
 * size and the thumbnail, and the full size, or, while its job has not made it yet (issue 8,
 * goal 6), the decoded pixels it is made from, whole (width × height × 3 bytes) unless
 * `fullSize` is 'made'.
 */
export async function expectWholeImageFiles(
  dataDir: string,
  image: { filename: string; width?: number; height?: number },
  fullSize: 'made' | 'made-or-pending' = 'made-or-pending',
): Promise<void> {
  const { filename } = image;
  const decodes = async (variant: (typeof IMAGE_VARIANTS)[number]) => {
    const file = imageFilePath(dataDir, filename, variant);
    try {
      // Decoding every pixel: a truncated WebP fails here even when its header is intact.
      await sharp(file, { failOn: 'truncated' }).raw().toBuffer();
    } catch (error) {
      throw new Error(`${variant} file of ${filename} is missing or broken: ${String(error)}`, {
        cause: error,
      });
    }
  };
  await decodes('display');
  await decodes('thumb');
  const original = imageFilePath(dataDir, filename, 'original');
  if (fullSize === 'made' || fs.existsSync(original)) return decodes('original');
  let size: number;
  try {
    size = (await fsp.stat(keptPixelsPath(dataDir, filename))).size;
  } catch {
    // Neither looked for: its job may have made the file and removed the pixels in between.
    return decodes('original');
  }
  const expected =
    image.width === undefined || image.height === undefined
      ? undefined
      : image.width * image.height * 3;
  if (size === 0 || size % 3 !== 0 || (expected !== undefined && size !== expected)) {
    throw new Error(`the kept pixels of ${filename} are cut short: ${size} bytes`);
  }
}

// Raw HTTP ------------------------------------------------------------------------------------

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One keep-alive HTTP/1.1 connection driven by hand: the test decides when each byte of a
 * request leaves, which fetch cannot do, and sees exactly which answer came on which socket.
 */
export class RawConnection {
  private buffered = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  closed = false;
  error: Error | undefined;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.waiting?.();
    });
    socket.on('error', (error) => {
      this.error = error;
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname);
      socket.once('connect', () => {
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.write(data, (error) => {
        if (error) reject(error);
        else resolve();
      });
    });
  }

  /** The next whole response on this connection (Content-Length bodies, as Fastify sends). */
  async response(timeoutMs = 30_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffered.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine = '', ...lines] = this.buffered.subarray(0, end).toString().split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffered.length >= end + 4 + length) {
          const body = this.buffered.subarray(end + 4, end + 4 + length).toString();
          this.buffered = this.buffered.subarray(end + 4 + length);
          return { status: Number(statusLine.split(' ')[1]), headers, body };
        }
      }
      if (this.closed) throw new Error('connection closed before a whole response arrived');
      if (Date.now() > deadline) throw new Error('no response in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiting = undefined;
    }
  }

  /** Resolves when the server has closed the connection. */
  async whenClosed(timeoutMs = 15_000): Promise<void> {
    await waitFor(() => this.closed, 'the connection to close', timeoutMs, 20);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** The head of an HTTP/1.1 request with a body of `length` bytes. */
export function requestHead(
  method: string,
  url: string,
  headers: Record<string, string>,
  length: number,
): string {
  const { host, pathname } = new URL(url);
  const lines = [`${method} ${pathname} HTTP/1.1`, `Host: ${host}`, `Content-Length: ${length}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

// A database that goes away -------------------------------------------------------------------

/**
 * A TCP proxy in front of the database server: `cut()` drops every connection and refuses new
 * ones, as a PostgreSQL that stops (or crashes) does; `restore()` listens again on the same
 * port, as it does once restarted. The real cluster, which other people's tests share, is
 * never touched.
 */
export class TcpProxy {
  private listener: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const proxy = new TcpProxy(port, target);
    await proxy.restore();
    return proxy;
  }

  async restore(): Promise<void> {
    if (this.listener !== undefined) return;
    const listener = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        // A reset on either side ends both, as a dropped connection does.
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(this.port, '127.0.0.1', resolve);
    });
    this.listener = listener;
  }

  async cut(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    const closed = new Promise<void>((resolve) => listener?.close(() => resolve()) ?? resolve());
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}
