import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/**
 * What every public page runs before it draws anything, besides React (below): the router,
 * React Query and emotion (the `core` chunk), then MUI's styling engine and the components of
 * the header, the category strip and the loading and error states (the `mui` chunk). Two
 * chunks, not the fifteen the automatic split made of them: brotli works better on one file than
 * on many small ones, and a phone on slow 4G waits for fewer requests (goal 8: 5 KB less on the
 * home page, 4 KB on an image page). Two, not one: web/src/boot.ts evaluates each in a task of
 * its own (one module graph evaluates in one task, and the two together were the longest task
 * of the home page's load on a phone). The back-office's Data Grid and Charts stay out of them
 * (never matched here).
 */
const CORE = new RegExp(
  String.raw`[\/]node_modules[\/](` +
    String.raw`react-router|react-is|@emotion|stylis|hoist-non-react-statics|@tanstack` +
    String.raw`)[\/]`,
);
const MUI = new RegExp(
  String.raw`[\/]node_modules[\/]@mui[\/](` +
    String.raw`system|styled-engine|utils|private-theming|` +
    String.raw`material[\/](styles|utils|internal|transitions|ButtonBase|SvgIcon|Paper|` +
    String.raw`Typography|Box|IconButton|CircularProgress|Alert|Link|Toolbar|AppBar|Container|` +
    String.raw`CssBaseline|Stack|useLazyRipple|zero-styled|GlobalStyles|` +
    String.raw`InitColorSchemeScript|colors|className|DefaultPropsProvider)` +
    String.raw`)[\/]`,
);

/**
 * Parts of those folders that no public page draws at first: the base of checkboxes and
 * switches (registration, back-office), the roving focus of menus (opened on demand), the
 * transitions of Fade, Grow, Zoom, Slide and Collapse (overlays loaded on demand), the scrollbar's
 * measuring (modals), and the icons of chips, selects, avatars, breadcrumbs, checkboxes and
 * pagination. Matched by the folders above, every page loaded
 * them in the first-load chunk (goal 8: first-load JavaScript; 1 KB of brotli on each page,
 * which pays for the chunk's split in two below).
 */
const NOT_FIRST_LOAD = new RegExp(
  String.raw`[\\/](SwitchBase|switchBaseClasses|useRovingTabIndex|RovingTabIndexContext|` +
    String.raw`Transition|animate|getScrollbarSize|contains|focusable|focusWithVisible|` +
    String.raw`useForcedRerendering|usePreviousProps|getValidReactChildren|` +
    String.raw`fastObjectShallowCompare|Cancel|ArrowDropDown|Person|MoreHoriz|` +
    String.raw`CheckBoxOutlineBlank|CheckBox|IndeterminateCheckBox|FirstPage|LastPage|` +
    String.raw`KeyboardArrowLeft|KeyboardArrowRight)\.m?js$`,
);

/**
 * React and React DOM, a chunk of their own that web/src/boot.ts evaluates in a task of its
 * own, before the rest of the core chunk: one module graph evaluates in one task, and the whole
 * app's was the longest task of a page load on a phone (goal 8: total blocking time).
 */
const REACT = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;

export default defineConfig({
  plugins: [
    react(),
    // Brotli and gzip copies of every text asset, made once at build time at the highest
    // levels, which the server sends to browsers that accept them (plugins/web-app.ts): a phone
    // on a slow network downloads a quarter of the bytes, and no request pays for compression.
    // Small files too (the plugin keeps a copy only when it is smaller): a page's first load
    // takes a dozen chunks under 1 KB, and sent plain they put the profile page over goal 8's
    // 150 KB of JavaScript (151.0 KB as Chromium received it, docs/PERFORMANCE.md).
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 0 }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline module preload polyfill: the Content-Security-Policy allows no inline script.
    modulePreload: { polyfill: false },
    // .vite/manifest.json: the server reads which chunks each page needs and names them in
    // index.html (server/src/plugins/first-screen.ts). Dot folders are never served.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: REACT },
            {
              name: 'core',
              test: (id: string) => CORE.test(id) || id.endsWith('/src/chunks/core.ts'),
            },
            {
              name: 'mui',
              test: (id: string) =>
                (MUI.test(id) && !NOT_FIRST_LOAD.test(id)) || id.endsWith('/src/chunks/mui.ts'),
            },
          ],
        },
      },
    },
  },
  server: {
    // In development the API runs on the server's port; the browser still sees one origin.
    proxy: { '/api': 'http://localhost:3000', '/static': 'http://localhost:3000' },
  },
});
