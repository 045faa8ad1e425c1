import { use, useEffect, useState } from 'react';

/** A piece of the app's code in a chunk of its own, loaded the first time it is wanted. */
export interface ChunkLoader<T> {
  /** The module, once loaded; undefined before. */
  loaded(): T | undefined;
  /**
   * Loads the chunk: the module at once when it is there, the attempt under way while there is
   * one, and a new attempt after a failure. For what a reader asks for (a click, a visit, the
   * app's start), never for a render: see `read`.
   */
  load(): Promise<T>;
  /**
   * During a render: the module, suspending while it loads, throwing the failure kept. It makes
   * the first attempt but never another one after a failure: a render that asked again drew
   * anew on each failure and asked again, some 10 to 170 requests a second offline
   * (offline.test.ts), until a click or a visit (`load`) asks once more.
   */
  read(): T;
}

/**
 * Unlike React.lazy, a failure is not kept for ever (offline, the search overlay's chunk never
 * came again, and the button stayed silent until a reload), and a chunk already loaded is drawn
 * at once, without suspending first (see lazyPage).
 */
export function chunkLoader<T extends object>(importChunk: () => Promise<T>): ChunkLoader<T> {
  let module: T | undefined;
  let loading: Promise<T> | undefined;
  let failure: { error: unknown } | undefined;
  const load = () => {
    if (module !== undefined) return Promise.resolve(module);
    if (loading !== undefined) return loading;
    failure = undefined;
    const attempt = importChunk().then(
      (loaded) => {
        module = loaded;
        loading = undefined;
        return loaded;
      },
      (error: unknown) => {
        failure = { error };
        loading = undefined;
        throw error;
      },
    );
    // Whoever waits for it sees the failure; a load nobody waits for (a preload) is no error.
    attempt.catch(() => undefined);
    loading = attempt;
    return attempt;
  };
  return {
    loaded: () => module,
    load,
    read() {
      if (module !== undefined) return module;
      if (failure !== undefined) throw failure.error;
      return use(load());
    },
  };
}

/**
 * For a piece beside the page (a button, a snackbar), drawn only once its chunk is there:
 * loads it each time `wanted` turns true while it is missing, and tells a failure (`failed`)
 * instead of throwing it. Thrown, it reached the page's boundary, and a scroll down the home
 * page offline put 'Impossibile caricare la pagina' in place of the whole gallery.
 */
export function useChunk<T extends object>(
  chunk: ChunkLoader<T>,
  wanted: boolean,
): { module: T | undefined; failed: boolean } {
  const [failed, setFailed] = useState(false);
  const [, setLoaded] = useState<T | undefined>(undefined);
  useEffect(() => {
    if (!wanted || chunk.loaded() !== undefined) return;
    let current = true;
    chunk.load().then(
      (module) => {
        if (current) {
          setFailed(false);
          setLoaded(module);
        }
      },
      () => {
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [chunk, wanted]);
  return { module: chunk.loaded(), failed: failed && chunk.loaded() === undefined };
}
