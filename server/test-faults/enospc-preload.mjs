/*
 * Fallback of disk-full.test.ts for machines where the test cannot mount a tmpfs (no
 * CAP_SYS_ADMIN): loaded into the server with `node --import`, it makes writes of image files
 * fail the way a full disk does while the file DISK_FULL_FLAG exists. Opening still succeeds
 * and writing fails with ENOSPC, as on a real full file system, so the server's own code
 * (images.storage.ts, the error handler) is what handles it. Nothing in the server knows.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

const flag = process.env['DISK_FULL_FLAG'];
const imagesDir = path.join(process.env['DATA_DIR'] ?? '', 'images');
const open = fsp.open.bind(fsp);

fsp.open = async (file, flags, mode) => {
  const handle = await open(file, flags, mode);
  const target = path.resolve(String(file));
  if (flag !== undefined && target.startsWith(imagesDir + path.sep) && fs.existsSync(flag)) {
    handle.writeFile = async () => {
      throw Object.assign(new Error(`ENOSPC: no space left on device, write`), {
        code: 'ENOSPC',
        errno: -28,
        syscall: 'write',
      });
    };
  }
  return handle;
};
