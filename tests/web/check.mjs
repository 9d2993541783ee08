// The web build in a real browser (docs/ARCHITECTURE.md, "The web build"): Debian's chromium,
// headless, WebGL2 through SwiftShader, driven by puppeteer-core. Run by tests/web/run.sh, which
// builds and serves the page.
//
//   node check.mjs --url http://127.0.0.1:PORT/ --cli build/bin/normlab-cli
//                  --checker build/bin/normlab_check_screenshot
//                  --slide-checker build/bin/normlab_check_slide --out DIR
//
// [SECTION] Checks
//   labs        for every lab, ?lab=NAME opens it: the page says that lab is on screen, and a
//               screenshot is not blank and holds the lab's own colours (core's base/palette.hpp, as the page
//               compiled it: normlab_palette_json());
//               Explorer and Geometry also through the desktop's normlab_check_screenshot
//   explorer    a scene in the URL (#scene=…) takes effect, and the Explorer's numbers in the page
//               equal normlab-cli eval's for the same input
//   link        File ▸ Copy link's scene text round-trips: opened from its link, the page holds it
//   lecture     ?lecture=rmsnorm_paper&presenter opens the lecture in presenter view, and each
//               slide, stepped to with →, draws its figures (normlab_check_slide); so does a
//               user's lecture file carried in the link (#lecture=…)
//   files       File ▸ Open scene from this computer… takes a file from the file chooser;
//               File ▸ Download scene downloads the scene as its file holds it (the menus clicked)
//   autosave    an edit survives a reload (IndexedDB)
//   languages   the English page fetches neither the CJK font nor a catalog; ?lang=ko fetches
//               both and draws Korean with real glyphs (its screenshot differs from the same page
//               with the font's download failed, where each glyph is a box); the browser's
//               language picks Korean without ?lang
//   idle        a page at rest draws no frames (frame_pacer.hpp), wakes on a key (Ctrl+2 switches
//               the lab), on coming back into view and on a mouse move; a Training run keeps
//               drawing while it plays
// Prints one line per check and "N passed, M failed"; exits 1 when any failed.
import {execFileSync} from "node:child_process";
import {readFileSync, writeFileSync, mkdirSync, existsSync, rmSync} from "node:fs";
import {join} from "node:path";
import {repo, parseArgs, launch, opener, call, json, sleep, encodeScene} from "./page.mjs";

const args = parseArgs(process.argv.slice(2));
const base = (args.url || "http://127.0.0.1:8080/").replace(/\/?$/, "/");
const outDir = args.out || "/tmp/normlab-web";
mkdirSync(outDir, {recursive: true});

let passed = 0, failed = 0;
function check(name, ok, detail) {
  console.log(`${ok ? "PASS" : "FAIL"} ${name}${detail ? ": " + detail : ""}`);
  ok ? passed++ : failed++;
}

// Each lab's own colours, and how many pixels of each a 1280×720 screenshot must hold at least
// (bars and fills: thousands; lines and swatches: hundreds).
const labColours = {
  explorer: {kLayerNormBar: 5000, kRmsNormBar: 5000, kSummedInputBar: 5000, kHeatPositive: 2000},
  invariance: {kPassFill: 5000, kFailFill: 3000, kDisagreeOutline: 100},
  worked: {kLayerNormBar: 50, kRmsNormBar: 50},
  gradients: {kLayerNormBar: 300, kRmsNormBar: 300},
  geometry: {kLayerNormBar: 200, kRmsNormBar: 200},
  training: {kLayerNormBar: 200, kRmsNormBar: 200},
  gpu: {kLayerNormBar: 300, kRmsNormBar: 300},   // the CPU kernels' curves (WebGL2 has no compute shaders)
  depth: {},
};

const browser = await launch(args.chromium);
const open = opener(browser, base);

// Pixels of a PNG, decoded in the page (no image library needed here).
async function countColours(page, png, wanted) {
  return page.evaluate(async (b64, wanted) => {
    const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], {type: "image/png"}));
    const c = new OffscreenCanvas(bmp.width, bmp.height).getContext("2d");
    c.drawImage(bmp, 0, 0);
    const d = c.getImageData(0, 0, bmp.width, bmp.height).data;
    const counts = Object.fromEntries(Object.keys(wanted).map(k => [k, 0]));
    const histogram = new Map();
    for (let i = 0; i < d.length; i += 4) {
      const key = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
      histogram.set(key, (histogram.get(key) || 0) + 1);
      for (const [k, rgb] of Object.entries(wanted))
        if (Math.abs(d[i] - rgb[0]) <= 2 && Math.abs(d[i + 1] - rgb[1]) <= 2 && Math.abs(d[i + 2] - rgb[2]) <= 2) counts[k]++;
    }
    const top = Math.max(...histogram.values());
    return {width: bmp.width, height: bmp.height, distinct: histogram.size, topShare: top / (d.length / 4), counts};
  }, png.toString("base64"), wanted);
}

// [SECTION] labs
for (const [lab, colours] of Object.entries(labColours)) {
  const page = await open("?lab=" + lab);
  await sleep(lab === "training" || lab === "depth" ? 4000 : 1500);
  if (lab === "gpu")   // its first visit starts the sweep, a few ms of it per frame
    await page.waitForFunction(() => JSON.parse(Module.ccall("normlab_gpu_json", "string", [], []))?.running === false,
                               {timeout: 120000, polling: 500});
  const view = await json(page, "normlab_view_json");
  check(`${lab}: ?lab=${lab} opens it`, view && view.lab === lab, view && view.lab);
  const png = await page.screenshot({path: join(outDir, `${lab}.png`)});
  const palette = await json(page, "normlab_palette_json");
  const wanted = Object.fromEntries(Object.keys(colours).map(k => [k, palette[k]]));
  const px = await countColours(page, png, wanted);
  check(`${lab}: screenshot not blank`, px.distinct >= 50 && px.topShare < 0.9,
        `${px.distinct} colours, the commonest on ${(100 * px.topShare).toFixed(1)}% of pixels`);
  for (const [k, min] of Object.entries(colours))
    check(`${lab}: ${k} on ≥ ${min} px`, px.counts[k] >= min, `${px.counts[k]} px`);
  if (lab === "gpu") {
    const text = page.logs.join("\n");
    check("gpu: says WebGL2 has no compute shaders", /WebGL2 has no compute shaders/.test(text));
    // The CPU side ran in the page: the default sweep (256, 1024 rows × 256, 1024, 4096 wide), the
    // copy and LayerNorm/RMSNorm forward and backward at each shape, no GPU points, and the note why.
    const {results: r} = await json(page, "normlab_gpu_json");
    const cpu = r.cpu ? r.cpu.results : [];
    const shapes = new Set(cpu.map(p => `${p.rows}x${p.cols}`));
    check("gpu: the CPU sweep ran in the page", cpu.length === 30 && shapes.size === 6 &&
          cpu.every(p => p.ms > 0 && p.gbps > 0 && Number.isFinite(p.gbps)) && r.results.length === 0,
          `${cpu.length} CPU points at ${shapes.size} shapes, ${r.results.length} GPU points; ` +
          `copy at 1024×4096: ${cpu.find(p => p.kernel === "copy" && p.rows === 1024 && p.cols === 4096)?.gbps?.toFixed(1)} GB/s`);
    check("gpu: the GPU columns say why they are empty", r.notes.some(n => /WebGL2 has no compute shaders/.test(n)),
          JSON.stringify(r.notes));
  }
  if (args.checker && (lab === "explorer" || lab === "geometry")) {
    let ok = true, out = "";
    try {
      out = execFileSync(args.checker, [join(outDir, `${lab}.png`), ...(lab === "geometry" ? ["--geometry"] : [])],
                         {encoding: "utf8"});
    } catch (e) { ok = false; out = String(e.stdout || e); }
    check(`${lab}: normlab_check_screenshot passes`, ok, out.trim().split("\n").pop());
  }
  await page.ctx.close();
}

// [SECTION] explorer: a scene from the URL, and the page's numbers against normlab-cli eval
const scene = JSON.parse(readFileSync(join(repo, "assets/scenes/seed_example.json"), "utf8"));
Object.assign(scene.labs.explorer, {
  x: [0.25, -3.5, 7.125, 1e-3, 42], W: [[0.5, -1, 2, 0.25, 3], [1.5, 0, -2.5, 1, -0.75], [2, 2, 2, 2, 2]],
  g: [1.5, -0.5, 2], b: [0.25, 0, -1], delta: 3.75, delta_scales: "W", eps: 0.01, eps_mode: "add_to_rms",
});
scene.title = "web test scene";
{
  const page = await open("#scene=" + encodeScene(JSON.stringify(scene)));
  const ex = await json(page, "normlab_explorer_json");
  check("explorer: the URL's scene took effect", JSON.stringify(ex.x) === JSON.stringify(scene.labs.explorer.x) &&
        ex.delta === 3.75 && ex.eps_mode === "add_to_rms", `x = ${JSON.stringify(ex.x)}, δ = ${ex.delta}`);
  if (args.cli) {
    const W = ex.W.map(row => row.map(v => (ex.delta_scales === "W" ? ex.delta * v : v)));
    const x = ex.x.map(v => (ex.delta_scales === "x" ? ex.delta * v : v));
    for (const norm of ["layernorm", "rmsnorm"]) {
      const request = {norm, eps: ex.eps, eps_mode: ex.eps_mode, x, g: ex.g, b: ex.b, ...(ex.use_W ? {W} : {})};
      const cli = JSON.parse(execFileSync(args.cli, ["eval"], {input: JSON.stringify(request), encoding: "utf8"}));
      let worst = 0;
      for (const key of ["a", "y"]) {
        const mine = ex[norm][key].flat(), theirs = cli[key].flat();
        if (mine.length !== theirs.length) worst = Infinity;
        mine.forEach((v, i) => { worst = Math.max(worst, Math.abs(v - theirs[i]) / Math.max(1, Math.abs(theirs[i]))); });
      }
      check(`explorer: ${norm} a and y equal normlab-cli eval`, worst <= 1e-12, `largest relative difference ${worst.toExponential(2)}`);
    }
  }
  // [SECTION] link: the scene text that File ▸ Copy link encodes, opened from its link
  const text = await call(page, "normlab_scene_text");
  await page.ctx.close();
  const again = await open("#scene=" + encodeScene(text));
  const text2 = await call(again, "normlab_scene_text");
  check("link: a scene link round-trips", text2 === text && JSON.parse(text2).title === "web test scene",
        text2 === text ? `${text.length} bytes` : "the reopened scene differs");
  await again.ctx.close();
}

// [SECTION] lecture: from a link, in presenter view; every slide draws its figures
// (normlab_check_slide, as for the desktop's slides at 1024×768 in the projector theme: the
// figures' ink spans ≥ 75% of the area below the header and ≥ 40% of its rows), → steps on.
{
  const page = await open("?lecture=rmsnorm_paper&presenter&theme=projector", {width: 1024, height: 768});
  const view = await json(page, "normlab_view_json");
  check("lecture: ?lecture=…&presenter opens presenter view", view.presenter === true, JSON.stringify(view));
  const count = Number((/^Slide 1 \/ (\d+)/.exec(view.status) || [])[1]);
  check("lecture: the status names the slide count", count > 1, view.status);
  for (let slide = 1; args["slide-checker"] && slide <= count; ++slide) {
    if (slide > 1) await page.keyboard.press("ArrowRight");
    await sleep(1500);
    const now = await json(page, "normlab_view_json");
    const file = join(outDir, `slide_${slide}.png`);
    await page.screenshot({path: file});
    let ok = true, out = "";
    try {
      out = execFileSync(args["slide-checker"],
                         [file, "--size", "1024", "768", "--fill", "0.75", "--rows", "0.4"], {encoding: "utf8"});
    } catch (e) { ok = false; out = String(e.stdout || e); }
    check(`lecture: presenter slide ${slide} / ${count} draws its figures`,
          ok && now.status.startsWith(`Slide ${slide} / ${count}`), `${now.status.slice(0, 12)}: ${out.trim().split("\n").pop()}`);
  }
  await page.ctx.close();
}

// [SECTION] lecture: a user's lecture file in the link, on the shipped scenes
{
  const lecture = {format: "normlab-lecture", version: 1, title: "A lecture from a link",
                   slides: [{scene: "../scenes/gradient_slopes.json", figures: ["gradients_input_scaling"]},
                            {scene: "../scenes/seed_example.json", figures: ["explorer_outputs"]}]};
  const page = await open("?presenter#lecture=" + encodeScene(JSON.stringify(lecture)));
  const view = await json(page, "normlab_view_json");
  check("lecture: a lecture file in the link (#lecture=) opens in presenter view",
        view.presenter === true && view.lab === "gradients" && /^Slide 1 \/ 2 · A lecture from a link/.test(view.status),
        JSON.stringify({lab: view.lab, presenter: view.presenter, status: view.status}));
  await page.ctx.close();
}

// [SECTION] files: the File menu's upload and download, clicked as a user would (1280×720, the
// default theme: File at the menu bar's left; below the desktop's scene and lecture items,
// "Open scene from this computer…" and "Download scene", 27 px a row). A click that misses
// shows as no file chooser or no download.
const menuFile = {x: 27, y: 12}, menuOpen = {x: 100, y: 189}, menuDownload = {x: 100, y: 216};
async function clickMenu(page, item) {
  await page.mouse.click(menuFile.x, menuFile.y);
  await sleep(500);
  await page.mouse.click(item.x, item.y);
}
{
  const page = await open("");
  const mine = structuredClone(scene);
  mine.labs.explorer.x = [1, 2, 3.5, -4, 5];
  mine.title = "uploaded";
  const file = join(outDir, "upload-scene.json");
  writeFileSync(file, JSON.stringify(mine));
  const [chooser] = await Promise.all([page.waitForFileChooser({timeout: 10000}), clickMenu(page, menuOpen)]);
  await chooser.accept([file]);
  let ex = null;
  for (let i = 0; i < 50 && JSON.stringify(ex?.x) !== JSON.stringify(mine.labs.explorer.x); ++i) {
    await sleep(200);
    ex = await json(page, "normlab_explorer_json");
  }
  check("files: Open scene from this computer… opens the chosen file", JSON.stringify(ex.x) === JSON.stringify(mine.labs.explorer.x),
        `x = ${JSON.stringify(ex.x)}`);

  const downloads = join(outDir, "downloads");
  rmSync(downloads, {recursive: true, force: true});
  mkdirSync(downloads, {recursive: true});
  const cdp = await browser.target().createCDPSession();
  await cdp.send("Browser.setDownloadBehavior", {behavior: "allow", downloadPath: downloads, browserContextId: page.ctx.id});
  await sleep(500);
  await clickMenu(page, menuDownload);
  const saved = join(downloads, "normlab-scene.json");
  for (let i = 0; i < 50 && !existsSync(saved); ++i) await sleep(200);
  const text = existsSync(saved) ? readFileSync(saved, "utf8") : "";
  const expected = await call(page, "normlab_scene_text");
  check("files: Download scene downloads the scene file", text !== "" && text === expected &&
        JSON.parse(text).title === "uploaded", text ? `${text.length} bytes` : "no download");
  await page.ctx.close();
}

// [SECTION] autosave: an edit, a reload, the edit again (same profile)
{
  const page = await open("#scene=" + encodeScene(JSON.stringify(scene)));
  await sleep(6000);   // the autosave is written a few seconds after a change, then synced to IndexedDB
  await page.evaluate(() => new Promise(r => FS.syncfs(false, r)));
  const ctx = page.ctx;
  await page.close();
  const reopened = await open("", {context: ctx});
  const ex = await json(reopened, "normlab_explorer_json");
  check("autosave: the session is restored on reload", JSON.stringify(ex.x) === JSON.stringify(scene.labs.explorer.x),
        `x = ${JSON.stringify(ex.x)}`);
  await ctx.close();
}

// [SECTION] idle: nothing drawn at rest; input and a run draw
{
  const page = await open("?lab=explorer");
  const view = () => json(page, "normlab_view_json");
  await sleep(3000);   // start-up, the settling frames, the first autosave
  const v0 = await view(), c0 = (await page.metrics()).TaskDuration, t0 = Date.now();
  await sleep(3000);
  const v1 = await view(), c1 = (await page.metrics()).TaskDuration, t1 = Date.now();
  const cpu = (100 * (c1 - c0) / ((t1 - t0) / 1000)).toFixed(1);
  check("idle: a page at rest draws nothing", v1.frames - v0.frames <= 1 && v1.skipped - v0.skipped >= 30,
        `${v1.frames - v0.frames} frames drawn, ${v1.skipped - v0.skipped} animation frames skipped in 3 s; main thread busy ${cpu}% of the time`);
  await page.keyboard.down("Control");
  await page.keyboard.press("2");
  await page.keyboard.up("Control");
  await sleep(1000);
  const v2 = await view();
  check("idle: a key wakes it (Ctrl+2: the Invariance lab)", v2.lab === "invariance" && v2.frames - v1.frames >= 2,
        `${v2.lab}, ${v2.frames - v1.frames} frames`);
  await sleep(1000);
  const v3a = await view();
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));   // back in view: drawn again
  await sleep(500);
  const v3 = await view();
  check("idle: coming back into view draws", v3.frames - v3a.frames >= 1, `${v3.frames - v3a.frames} frames`);
  await sleep(1000);
  const v3b = await view();   // (the autosave of Ctrl+2's change may fall here: one frame)
  check("idle: at rest again after it", v3b.frames - v3.frames <= 2, `${v3b.frames - v3.frames} frames in 1 s`);
  await page.mouse.move(300, 300);
  await page.mouse.move(320, 310);
  await sleep(500);
  const v4 = await view();
  check("idle: a mouse move wakes it", v4.frames - v3b.frames >= 2, `${v4.frames - v3b.frames} frames after the move`);
  await page.ctx.close();
  const training = await open("?lab=training");
  await sleep(2000);
  const r0 = await json(training, "normlab_view_json");
  await sleep(2000);
  const r1 = await json(training, "normlab_view_json");
  // The pacer gives a run's frames at most a fifth of a core (frame_pacer.hpp): a loaded software
  // renderer draws a few a second, a free one ten or more.
  check("idle: a Training run draws while it plays", r1.training_step > r0.training_step && r1.frames - r0.frames >= 3,
        `steps ${r0.training_step} → ${r1.training_step}, ${r1.frames - r0.frames} frames in 2 s`);
  await training.ctx.close();
}

// [SECTION] languages: the CJK font and the catalogs come only when a text needs them
{
  const fetched = page => page.evaluate(() => Module.fetched || []);
  const english = await open("?lab=explorer");
  check("languages: the English page fetches no font or catalog", (await fetched(english)).length === 0,
        JSON.stringify(await fetched(english)));
  await english.ctx.close();
  const korean = await open("?lab=explorer&lang=ko");
  await sleep(1500);
  const got = await fetched(korean);
  check("languages: ?lang=ko fetches the Korean catalog and the CJK font",
        got.includes("i18n/ko.po") && got.includes("fonts/NotoSansCJK-Regular.ttc"), JSON.stringify(got));
  const withFont = await korean.screenshot({path: join(outDir, "lang_ko.png"), clip: {x: 0, y: 0, width: 640, height: 40}});
  await korean.ctx.close();
  const boxes = await open("?lab=explorer&lang=ko", {block: /\/fonts\//});
  await sleep(1500);
  const noFont = await boxes.screenshot({path: join(outDir, "lang_ko_no_font.png"), clip: {x: 0, y: 0, width: 640, height: 40}});
  const said = boxes.logs.some(l => /cannot fetch fonts\/NotoSansCJK/.test(l));
  check("languages: Korean is drawn with the fetched font's glyphs, not boxes",
        !withFont.equals(noFont) && said, said ? "" : "the failed download was not said");
  await boxes.ctx.close();
  const ctx = await browser.createBrowserContext();
  const page = await ctx.newPage();
  await page.evaluateOnNewDocument(() => Object.defineProperty(navigator, "languages", {get: () => ["ko-KR", "en"]}));
  await page.goto(base + "index.html?lab=explorer");
  await page.waitForFunction(() => window.Module && (Module.firstFrameMs || Module.lastError), {timeout: 60000});
  check("languages: a browser set to Korean starts in Korean", (await fetched(page)).includes("i18n/ko.po"),
        JSON.stringify(await fetched(page)));
  await ctx.close();
}

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
