import { generateCatalogue, dropCatalogue } from './generate.js';
import { openDatabase } from '../../server/src/db/database.js';
import { createSearchService } from '../../server/src/modules/search/search.service.js';
import path from 'node:path';

const engine = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres';
const images = Number(process.argv[3] ?? 10000);
const pgUrl = 'postgres://postgres@127.0.0.1:5432/postgres';
const cat = await generateCatalogue({ engine, images, postgresUrl: pgUrl });
console.log('generated', cat.meta.seconds, 's, common word', cat.meta.commonWord, cat.meta.commonWordShare);
const config = engine === 'postgres' ? { kind: 'postgres' as const, url: cat.databaseUrl ?? '' } : { kind: 'sqlite' as const, file: path.join(cat.dataDir, 'muri-parlanti.sqlite') };
const h = openDatabase(config);
const vocab = await h.db.selectFrom('search_vocabulary').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
console.log('vocabulary rows', vocab.n);
const s = createSearchService(h.db, h.dialect);
const w = cat.meta.commonWord;
const slip = w.slice(0, 2) + 'x' + w.slice(3);
for (const q of [w, slip, `${slip} parole`, 'librta', 'ombrellone', 'muri parlantx', 'grazie mille ragazzx', 'amre']) {
  for (const order of ['relevance', 'newest'] as const) {
    const times: number[] = [];
    let r = { total: 0, capped: false, ids: [] as number[] };
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      r = await s.search(q, 0, 120, order);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`${q.padEnd(24)} ${order.padEnd(9)} total ${String(r.total).padStart(5)} capped ${r.capped} median ${times[7]?.toFixed(1)} ms p95~max ${times[14]?.toFixed(1)} ms`);
  }
}
await h.close();
await dropCatalogue(cat, pgUrl);
