/**
 * A module of the `mui` chunk (web/vite.config.ts): web/src/boot.ts imports it to evaluate that
 * chunk in a task of its own. Importing one of MUI's modules instead kept all of its exports in
 * the chunk, used or not (goal 8, first-load JavaScript).
 */
export const chunk = 'mui';
