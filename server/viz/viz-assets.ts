import { readFileSync } from 'node:fs';

/** The page's own script and stylesheet, read once from `server/viz/assets/`. */
export const VIZ_ASSETS: Readonly<Record<string, { body: string; type: string }>> = {
  'viz.js': {
    body: readFileSync(new URL('./assets/viz.js', import.meta.url), 'utf8'),
    type: 'text/javascript; charset=utf-8',
  },
  'viz.css': {
    body: readFileSync(new URL('./assets/viz.css', import.meta.url), 'utf8'),
    type: 'text/css; charset=utf-8',
  },
};
