// The page's numbers for docs/BENCHMARKS.md ("The web build"), run by scripts/bench_web.sh, which
// serves build-web/ and measures the desktop beside it in the same run. Not a test: it prints.
//   node bench.mjs --url http://127.0.0.1:PORT/ --scene TRAINING_SCENE.json --seconds S
// Per lab (?lab=NAME, 1280×720): the time from navigation to the end of the first frame; over S
// seconds after 2 s of settling, the time App::frame() takes (p50, p95: the CPU side; WebGL's
// drawing runs in chromium's GPU process) and the intervals between animation frames (p50, p95:
// what the user sees, at most 60 per second), with the mouse moving over the canvas all along (an
// idle page draws nothing: frame_pacer.hpp). Idle: per lab, over S seconds at rest after the
// settling, the frames drawn and the page's main-thread CPU time (Chrome's TaskDuration, as a
// share of one core). Training: steps per second of the Training lab unpaced (the scene), read
// from the page over S seconds.
import {readFileSync} from "node:fs";
import {parseArgs, launch, opener, json, sleep, encodeScene} from "./page.mjs";

const args = parseArgs(process.argv.slice(2));
const base = (args.url || "http://127.0.0.1:8080/").replace(/\/?$/, "/");
const seconds = Number(args.seconds || 5);
const browser = await launch(args.chromium);
const open = opener(browser, base);
const pct = (v, q) => { const s = [...v].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
const round = v => Math.round(v * 10) / 10;

// The main thread's busy time in seconds (all tasks: scripts, style, layout, paint).
const taskSeconds = async page => (await page.metrics()).TaskDuration;

// Over `ms` at rest: {frames drawn, skipped, cpu_percent of one core}.
async function idle(page, ms) {
  const v0 = await json(page, "normlab_view_json"), c0 = await taskSeconds(page), t0 = Date.now();
  await sleep(ms);
  const v1 = await json(page, "normlab_view_json"), c1 = await taskSeconds(page), t1 = Date.now();
  return {frames: v1.frames - v0.frames, skipped: (v1.skipped ?? 0) - (v0.skipped ?? 0),
          cpu_percent: round(100 * (c1 - c0) / ((t1 - t0) / 1000))};
}

// The mouse moving to and fro over the canvas (input: every animation frame is drawn) until stop().
function wiggle(page) {
  let on = true;
  const done = (async () => {
    for (let i = 0; on; ++i) {
      await page.mouse.move(600 + (i % 2) * 40, 400);
      await sleep(16);
    }
  })();
  return async () => { on = false; await done; };
}

async function rafIntervals(page, ms) {
  return page.evaluate(ms => new Promise(done => {
    const t = [];
    let last = performance.now();
    const end = last + ms;
    const step = now => {
      t.push(now - last);
      last = now;
      if (now < end) requestAnimationFrame(step); else done(t);
    };
    requestAnimationFrame(step);
  }), ms);
}

const labs = [];
for (const lab of ["explorer", "invariance", "worked", "gradients", "geometry", "training", "gpu", "depth"]) {
  const page = await open("?lab=" + lab);
  const firstFrameMs = await page.evaluate(() => Module.firstFrameMs);
  await sleep(2000);
  const rest = await idle(page, seconds * 1000);
  const stop = wiggle(page);
  const before = (await json(page, "normlab_view_json")).frames;
  const raf = await rafIntervals(page, seconds * 1000);
  const view = await json(page, "normlab_view_json");
  await stop();
  const frameMs = view.frame_ms.slice(-(view.frames - before));
  labs.push({lab, first_frame_ms: round(firstFrameMs), frame_p50_ms: round(pct(frameMs, 0.5)),
             frame_p95_ms: round(pct(frameMs, 0.95)), raf_p50_ms: round(pct(raf, 0.5)), raf_p95_ms: round(pct(raf, 0.95)),
             idle_frames: rest.frames, idle_cpu_percent: rest.cpu_percent});
  await page.ctx.close();
}

let training = null;
if (args.scene) {
  const page = await open("#scene=" + encodeScene(readFileSync(args.scene, "utf8")));
  await sleep(3000);
  const s0 = (await json(page, "normlab_view_json")).training_step, t0 = Date.now();
  await sleep(seconds * 1000);
  const s1 = (await json(page, "normlab_view_json")).training_step, t1 = Date.now();
  training = {steps: s1 - s0, seconds: (t1 - t0) / 1000, steps_per_second: round((s1 - s0) / ((t1 - t0) / 1000))};
  await page.ctx.close();
}
console.log(JSON.stringify({labs, training}, null, 2));
await browser.close();
