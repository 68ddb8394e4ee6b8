// Kernel-free demos: each control picks a precomputed frame; every frame is decoded on load.
"use strict";

function setUpDemo(demo) {
  const manifest = JSON.parse(demo.querySelector("script.demo-manifest").textContent);
  const img = demo.querySelector("img.demo-frame");
  const inputs = manifest.controls.map((_, k) => demo.querySelector(`[data-control="${k}"]`));
  let latest = 0;
  let maxMs = 0;
  let swaps = 0;

  function showValue(k) {
    const input = inputs[k];
    const text = manifest.controls[k].values[Number(input.value)];
    if (input.type === "range") {
      input.setAttribute("aria-valuetext", text);
      demo.querySelector(`output[for="${input.id}"]`).textContent = text;
    }
  }

  async function swap(moved) {
    if (manifest.mode === "one-at-a-time") {
      // one control at a time: the others go back to their defaults, and show it
      inputs.forEach((input, k) => {
        if (k !== moved) input.value = String(manifest.controls[k].default);
      });
    }
    inputs.forEach((_, k) => showValue(k));
    const key = inputs.map((input) => input.value).join(",");
    const frame = manifest.frames[manifest.index[key]];
    const ticket = ++latest;
    const t0 = performance.now();
    img.src = frame.src;
    img.alt = frame.alt;
    try {
      await img.decode();
    } catch (error) {
      if (ticket !== latest) return; // a later move replaced this frame before it was shown
      throw error;
    }
    if (ticket !== latest) return;
    const ms = performance.now() - t0;
    maxMs = Math.max(maxMs, ms);
    img.dataset.swapMs = ms.toFixed(2);
    demo.dataset.swapMaxMs = maxMs.toFixed(2);
    demo.dataset.swaps = String(++swaps);
  }

  inputs.forEach((input, k) => {
    input.addEventListener(input.type === "range" ? "input" : "change", () => swap(k));
  });

  // Preload and decode every frame, so that no move waits for the network or the decoder.
  const preloaded = manifest.frames.map((frame) => {
    const image = new Image();
    image.src = frame.src;
    return image;
  });
  demo.preloadedFrames = preloaded; // kept alive: the decoded frames stay in memory
  Promise.all(preloaded.map((image) => image.decode())).then(
    () => { demo.dataset.ready = "true"; },
    (error) => { demo.dataset.ready = "error"; console.error("demo frames:", error); },
  );
}

document.querySelectorAll(".site-demo").forEach(setUpDemo);
