import { serve, type ServerType } from '@hono/node-server';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime } from '../../support/runtime-harness.ts';

// The page.evaluate callbacks run in Chromium; the project's lib has no DOM types.
declare const document: any;

describe('GET /docs in Chromium', () => {
  let harness: Awaited<ReturnType<typeof startRuntime>>;
  let server: ServerType;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    await mkdir('test-results', { recursive: true });
    harness = await startRuntime();
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: harness.runtime.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve(info.port),
      );
    });
    base = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await harness?.stop();
  });

  it('renders every operation of /openapi.json with no request leaving the server', async () => {
    const document_ = (await (await harness.runtime.app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    const operations = Object.values(document_.paths).flatMap((item) => Object.values(item));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const elsewhere: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(base)) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    await page.goto(`${base}/docs`);
    await page.waitForSelector('.opblock-summary', { timeout: 20_000 });
    const rendered = await page.evaluate(() =>
      [...document.querySelectorAll('.opblock-summary')].map((el: any) => el.textContent as string),
    );
    expect(rendered).toHaveLength(operations.length);
    for (const { summary } of operations)
      expect(
        rendered.some((text) => text.includes(summary)),
        summary,
      ).toBe(true);
    expect(await page.locator('.info .title').innerText()).toContain('Agent runtime');
    await page.screenshot({ path: 'test-results/docs-page.png' });
    expect(elsewhere).toEqual([]);
    await page.close();
  });
});
