// What the web tests and benchmarks share (tests/web/check.mjs, bench.mjs): Debian's chromium,
// headless with WebGL2 through SwiftShader, and the page's hooks (app/shell/web_page.hpp).
import puppeteer from "puppeteer-core";
import {dirname, join} from "node:path";
import {fileURLToPath} from "node:url";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

// --name value pairs (a flag without a value is true).
export function parseArgs(argv) {
  const out = {};
  argv.forEach((a, i) => {
    if (a.startsWith("--")) out[a.slice(2)] = argv[i + 1] && !argv[i + 1].startsWith("--") ? argv[i + 1] : true;
  });
  return out;
}

export function launch(chromium) {
  return puppeteer.launch({
    executablePath: chromium || "/usr/bin/chromium",
    headless: "new",
    args: ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--no-sandbox", "--disable-dev-shm-usage"],
  });
}

// open(query, {context, width, height, block}): the page at base + "index.html" + query, in a
// fresh profile (its own IndexedDB) unless `context` is given, once its first frame has run;
// requests whose URL matches the regular expression `block` fail (a file the server lacks).
export function opener(browser, base) {
  return async (query, {context, width = 1280, height = 720, block} = {}) => {
    const ctx = context || await browser.createBrowserContext();
    const page = await ctx.newPage();
    await page.setViewport({width, height});
    if (block) {
      await page.setRequestInterception(true);
      page.on("request", r => block.test(r.url()) ? r.abort() : r.continue());
    }
    page.logs = [];
    page.on("console", m => page.logs.push(m.text()));
    page.on("pageerror", e => page.logs.push("pageerror: " + String(e)));
    await page.goto(base + "index.html" + query);
    await page.waitForFunction(() => window.Module && (Module.firstFrameMs || Module.lastError), {timeout: 60000});
    page.ctx = ctx;
    return page;
  };
}

export const call = (page, fn, ...a) =>
  page.evaluate((f, a) => Module.ccall(f, "string", a.map(() => "string"), a), fn, a);
export const json = async (page, fn, ...a) => JSON.parse(await call(page, fn, ...a));
export const sleep = ms => new Promise(r => setTimeout(r, ms));
// A scene for the URL's fragment (#scene=…), as File ▸ Copy link writes it: base64url of UTF-8.
export const encodeScene = text => Buffer.from(text, "utf8").toString("base64url");
