/**
 * A module of the `core` chunk (web/vite.config.ts): web/src/boot.ts imports it to evaluate that
 * chunk in a task of its own. Importing one of the libraries instead kept all of its exports in
 * the chunk, used or not (9 KB of brotli more on every page: goal 8, first-load JavaScript).
 */
export const chunk = 'core';
