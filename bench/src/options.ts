/* The command-line options the benchmarks share, read and checked the same way everywhere. */
import path from 'node:path';

/** Catalogue sizes by name. */
export const SIZES: Record<string, number> = { '10k': 10_000, '100k': 100_000, '1m': 1_000_000 };

/** `--postgres-url`: a role that may create databases (a throwaway one is made through it). */
export const POSTGRES_URL_OPTION = {
  type: 'string',
  default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
} as const;

/** Prints `<script>: <message>` and exits with 2 (a usage error, not a missed goal). */
export function failer(script: string): (message: string) => never {
  return (message) => {
    process.stderr.write(`${script}: ${message}\n`);
    process.exit(2);
  };
}

export function parseSize(value: string, fail: (message: string) => never): number {
  return (
    SIZES[value.toLowerCase()] ?? fail(`--size must be one of ${Object.keys(SIZES).join(', ')}`)
  );
}

export function parseEngine(
  value: string,
  fail: (message: string) => never,
): 'sqlite' | 'postgres' {
  return value === 'sqlite' || value === 'postgres'
    ? value
    : fail('--engine must be sqlite or postgres');
}

/**
 * A path given on the command line, resolved against the folder the caller typed it in: npm runs
 * the scripts in bench/ and keeps the caller's folder in INIT_CWD.
 */
export function callerPath(value: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), value);
}
