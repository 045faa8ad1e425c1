import fs from 'node:fs';
import path from 'node:path';

const found = new Map<string, string | undefined>();

/**
 * The path of an executable on PATH, or undefined (never on Windows, where the commands asked
 * for here, chrt and nice, do not exist). Looked up once per name and process.
 */
export function findCommand(name: string): string | undefined {
  if (!found.has(name)) {
    let match: string | undefined;
    if (process.platform !== 'win32') {
      for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
        if (dir === '') continue;
        const candidate = path.join(dir, name);
        try {
          fs.accessSync(candidate, fs.constants.X_OK);
          match = candidate;
          break;
        } catch {
          // Not in this directory.
        }
      }
    }
    found.set(name, match);
  }
  return found.get(name);
}
