import { CompiledQuery, type Compilable, type DialectAdapter, type QueryResult } from 'kysely';
import type { Executor } from './executor.js';

/*
 * Kysely builds a query as a tree of frozen nodes and compiles it to SQL on every call. For the
 * few statements run on every view, like and authenticated request, that building cost more
 * than running them (issue 8, goal 5: a view's one query took about 95 µs of server CPU through
 * the builder, 43 µs against 17 µs in isolation, SQLite's own work 15 µs). A precompiled query
 * is built and compiled once per dialect with stand-in arguments; each call then only puts the
 * real arguments where the stand-ins ended up among the compiled parameters.
 *
 * The price is a rule on `build`: its arguments may only be used as values (compared, inserted,
 * set), never to choose the shape of the query (a column, a branch, the length of a list).
 * Breaking it fails at the first call, not silently: every stand-in must come out as exactly
 * one whole parameter, and none may reach the SQL text.
 *
 * kysely-params did this but follows Kysely 0.24 and is no longer kept up to date.
 */

/** Where each compiled parameter comes from: an argument's index, or -1 for a constant. */
interface Compiled {
  sql: string;
  constants: readonly unknown[];
  sources: readonly number[];
}

const STAND_IN = '\u0000precompiled-argument-';

/** Runs the query with these arguments: rows, and for a change the number of rows it touched. */
export type Precompiled<Args extends readonly unknown[], Row> = (
  db: Executor,
  ...args: Args
) => Promise<QueryResult<Row>>;

export function precompiled<Args extends readonly unknown[], Row>(
  build: (db: Executor, ...args: Args) => Compilable<Row>,
): Precompiled<Args, Row> {
  // Per adapter: the SQL differs between engines, and a transaction shares its database's.
  const byAdapter = new WeakMap<DialectAdapter, Compiled>();

  // Fixed by `build` itself, so a wrong call cannot change the stand-ins.
  const arity = build.length - 1;

  function compile(db: Executor): Compiled {
    const standIns = Array.from({ length: arity }, (_, i) => `${STAND_IN}${String(i)}`);
    const query = build(db, ...(standIns as unknown as Args)).compile();
    if (query.sql.includes(STAND_IN)) {
      throw new Error('precompiled: an argument reached the SQL text instead of a parameter');
    }
    const sources = query.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(STAND_IN)
        ? Number(value.slice(STAND_IN.length))
        : -1,
    );
    for (let i = 0; i < arity; i++) {
      if (!sources.includes(i)) {
        throw new Error(`precompiled: argument ${String(i)} is not a parameter of the query`);
      }
    }
    return { sql: query.sql, constants: query.parameters, sources };
  }

  return async (db, ...args) => {
    const adapter = db.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (compiled === undefined) {
      compiled = compile(db);
      byAdapter.set(adapter, compiled);
    }
    const { sql, constants, sources } = compiled;
    const parameters = sources.map((source, i) => (source < 0 ? constants[i] : args[source]));
    return db.executeQuery<Row>(CompiledQuery.raw(sql, parameters));
  };
}
