/*
 * The entry of index.html: it starts the web app (main.tsx) once the first screen the server
 * drew (server/src/plugins/first-screen.ts) has been painted, its picture included.
 *
 * Running the app's chunks (React, MUI, emotion: the longest tasks of a page load on a phone)
 * before the first frame kept the browser from painting the picture it already had: goal 8
 * measured a phone's FCP and LCP at 0.9 s in one run and 2.2–2.7 s in the next, depending on
 * which came first. When the server drew a picture it also holds the chunks back (an inert
 * <template> of modulepreload links), so on a slow network the picture does not share the
 * bandwidth with them; they are all asked for here at once, once it is painted.
 */

import { nextTask } from './lib/nextTask.js';

/** The longest the app waits for the first screen's picture. */
const PICTURE_WAIT_MS = 3000;

function pictureShown(): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve();
  const picture = document.querySelector<HTMLImageElement>('#root img[fetchpriority="high"]');
  if (picture === null || picture.complete) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      resolve();
    };
    picture.addEventListener('load', done, { once: true });
    picture.addEventListener('error', done, { once: true });
    setTimeout(done, PICTURE_WAIT_MS);
  });
}

/** After the next frame has been painted (a task queued from requestAnimationFrame). */
function nextPaint(): Promise<void> {
  // A tab opened in the background paints nothing (and runs no frame callbacks) until shown.
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      setTimeout(resolve, 0);
    });
  });
}

/**
 * The app's and the page's chunks the server held back until the picture was painted
 * (server/src/plugins/first-screen.ts): all asked for at once, not one import after another.
 */
function loadHeldChunks(): void {
  const held = document.getElementById('first-screen-chunks');
  if (held instanceof HTMLTemplateElement) document.head.append(held.content);
}

void pictureShown()
  .then(nextPaint)
  .then(async () => {
    loadHeldChunks();
    // The app's chunks one after another, each evaluated in a task of its own: React, then the
    // router, React Query and emotion, then MUI, then the rest of the app (main.tsx, which cuts
    // its own start into tasks too). A module graph is evaluated in one task, and the whole
    // app's was the longest task of a page load on a phone (goal 8: total blocking time); React
    // alone, then the three others together, still made tasks over 50 ms at a phone's speed.
    // All the chunks are already on their way (the links above), so this waits for no extra
    // download.
    await import('react-dom/client');
    await nextTask();
    await import('./chunks/core.js');
    await nextTask();
    await import('./chunks/mui.js');
    await nextTask();
    await import('./main.js');
  });
