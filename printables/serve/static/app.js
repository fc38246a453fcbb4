// The customizer form: the page's address holds the settings, a reset per field, the Giuthi board's
// quick 3D preview, and Make (print files): submit without leaving the page, follow the job in
// view (step n of m, time left), show its results. Without JavaScript the form still works (the
// server answers with whole pages, and a link's settings fill the form).
"use strict";

(function () {
  const form = document.getElementById("form");
  if (!form) return;
  const kind = form.dataset.kind;
  const result = document.getElementById("result");
  const status = document.getElementById("status");
  const step = document.getElementById("step");
  const bar = document.getElementById("bar");
  const progress = document.getElementById("progress");
  const output = document.getElementById("output");
  const cancelButton = document.getElementById("cancel");
  const formError = document.getElementById("form-error");
  const live = form.dataset.live === "1";
  let current = null; // the job whose results this page shows
  const pollStarted = {}; // when each job was started, to poll quickly at first
  let timer = null;

  function setState(state, text) {
    result.dataset.state = state;
    status.textContent = text;
  }

  function clearErrors() {
    for (const p of form.querySelectorAll(".error")) p.textContent = "";
    for (const f of form.querySelectorAll(".field.bad")) f.classList.remove("bad");
  }

  function showErrors(fieldErrors, whole) {
    for (const [name, message] of Object.entries(fieldErrors || {})) {
      const p = document.getElementById("error-" + name);
      const box = document.getElementById("field-" + name);
      if (p) p.textContent = message;
      if (box) {
        box.classList.add("bad");
        const details = box.closest("details");
        if (details) details.open = true;
      }
    }
    if (whole) formError.textContent = whole;
  }

  // -- the link is the design ----------------------------------------------------------------
  // The fields that differ from their defaults, as the page's address holds them (a box as on/off).
  function linkQuery() {
    const query = new URLSearchParams();
    for (const el of form.elements) {
      if (!el.name || el.name.startsWith("_") || el.dataset.default === undefined) continue;
      if (el.type === "checkbox") {
        const on = el.checked;
        if (on !== (el.dataset.default === "on")) query.set(el.name, on ? "on" : "off");
      } else if (el.value !== "" && el.value !== el.dataset.default) {
        query.set(el.name, el.value);
      }
    }
    return query;
  }

  // A field set away from its default shows its Reset button.
  function markChanged() {
    for (const el of form.elements) {
      if (!el.name || el.dataset.default === undefined) continue;
      const differs = el.type === "checkbox" ? el.checked !== (el.dataset.default === "on")
        : el.value !== "" && el.value !== el.dataset.default;
      const box = document.getElementById("field-" + el.name);
      if (box) box.classList.toggle("changed", differs);
    }
  }

  function keepInAddress() {
    markChanged();
    const query = linkQuery().toString();
    const url = location.pathname + (query ? "?" + query : "");
    if (url !== location.pathname + location.search) history.replaceState(null, "", url);
  }

  for (const button of form.querySelectorAll("button.reset")) {
    button.addEventListener("click", () => {
      const el = document.getElementById("f-" + button.dataset.reset);
      if (el.type === "checkbox") el.checked = el.dataset.default === "on";
      else el.value = el.dataset.default;
      el.dispatchEvent(new Event("change", { bubbles: true }));
      el.focus();
    });
  }

  // -- the Giuthi board's quick preview ------------------------------------------------------
  const canvas = document.getElementById("preview-canvas");
  const previewStatus = document.getElementById("preview-status");
  const estimate = document.getElementById("estimate");
  const over = document.getElementById("over-budget");
  const viewer = canvas && window.StlViewer ? new window.StlViewer.Viewer(canvas) : null;
  let previewBusy = false;
  let previewAgain = false;
  let previewTimer = null;

  function overBudget(e) {
    over.textContent = "";
    over.append("Over the budget the presets keep to (6 h and 90 g a half): each half would take about "
      + e.time + " and " + e.grams + " g of filament. ");
    if (e.fits) {
      const use = document.createElement("button");
      use.type = "button";
      use.id = "use-fitting";
      const option = document.querySelector('#f-preset option[value="' + CSS.escape(e.fits) + '"]');
      use.textContent = "Use the preset: " + (option ? option.textContent : e.fits);
      use.addEventListener("click", () => {
        for (const el of form.elements) {
          if (el.dataset.default === undefined || el.type === "checkbox") continue;
          if (["size", "pits", "seeds", "pit_diameter", "pit_length", "pit_depth", "thickness", "wall",
               "seed_diameter", "seed_height"].includes(el.name)) el.value = el.dataset.default;
        }
        document.getElementById("f-preset").value = e.fits;
        form.dispatchEvent(new Event("change"));
      });
      over.append(use);
    }
    over.hidden = false;
  }

  // The preset that fits, asked for once the worker has estimated every preset.
  async function adviseLater(stl) {
    try {
      const query = linkQuery().toString();
      const data = await (await fetch("/api/preview/giuthi/fits?" + query, { headers: { Accept: "application/json" } })).json();
      if (canvas.dataset.url === stl && data.fits) overBudget(Object.assign({}, lastEstimate, { fits: data.fits }));
    } catch (e) { /* the warning stands without its advice */ }
  }
  let lastEstimate = null;

  async function preview() {
    if (!viewer) return;
    if (previewBusy) { previewAgain = true; return; }
    previewBusy = true;
    const asked = performance.now();
    canvas.dataset.asked = String(Date.now());
    previewStatus.textContent = "Drawing the board…";
    let data = null;
    try {
      const response = await fetch("/api/preview/giuthi?" + linkQuery().toString(), { headers: { Accept: "application/json" } });
      data = await response.json();
    } catch (e) {
      previewStatus.textContent = "The customizer does not answer (is `printables serve` still running?)";
    }
    if (data && data.stl) {
      try {
        await viewer.load(data.stl);
        const e = data.estimate;
        lastEstimate = e;
        canvas.dataset.previewMs = String(Math.round(performance.now() - asked));
        previewStatus.textContent = "Preview, coarse: two halves of " + data.half_mm[0] + " × " + data.half_mm[1]
          + " mm, 2 × " + data.pits + " pits, " + data.seeds + " seeds a pit. Drag to turn, wheel to zoom.";
        estimate.textContent = "Estimated print of each half: about " + e.time + " and " + e.grams + " g of filament.";
        if (e.over) overBudget(e); else over.hidden = true;
        if (e.over && e.fits_pending) adviseLater(data.stl);
        result.dataset.over = e.over ? "yes" : "no";
      } catch (err) {
        previewStatus.textContent = "The preview could not be shown: " + err;
      }
    } else if (data) {
      clearErrors();
      showErrors(data.field_errors, "");
      previewStatus.textContent = "No preview: " + (data.error || "fix the marked field(s).");
      canvas.dataset.state = "refused";
      estimate.textContent = "";
      over.hidden = true;
    }
    previewBusy = false;
    if (previewAgain) { previewAgain = false; preview(); }
  }

  // -- making and following a job ------------------------------------------------------------
  async function cancel(jobId) {
    await fetch("/jobs/" + jobId + "/cancel", { method: "POST", headers: { Accept: "application/json" } });
  }

  function minutesAndSeconds(s) {
    s = Math.max(1, Math.round(s));
    return s < 60 ? s + " s" : Math.floor(s / 60) + " min " + String(s % 60).padStart(2, "0") + " s";
  }

  async function submit() {
    clearTimeout(timer); // an explicit submit supersedes a pending automatic one
    if (current && result.dataset.state === "running") cancel(current); // a newer form replaces it
    clearErrors();
    const body = new URLSearchParams(new FormData(form));
    setState("submitting", "Sending…");
    let response;
    try {
      response = await fetch(form.action, { method: "POST", body, headers: { Accept: "application/json" } });
    } catch (e) {
      setState("failed", "The customizer does not answer (is `printables serve` still running?)");
      return;
    }
    let data;
    try {
      data = await response.json();
    } catch (e) {
      data = { error: "The customizer answered " + response.status + "." };
    }
    if (data.error) { // busy or full: said above the buttons
      current = null;
      showErrors({}, data.error);
      setState("failed", data.error);
      return;
    }
    if (data.field_errors) {
      current = null;
      showErrors(data.field_errors, "");
      setState("refused", "Fix the marked field(s).");
      return;
    }
    current = data.job;
    pollStarted[current] = performance.now();
    result.dataset.job = current;
    progress.textContent = "";
    step.textContent = "";
    cancelButton.hidden = false;
    setState("running", "Working…");
    poll(current);
  }

  async function poll(jobId) {
    if (jobId !== current) return; // a newer job took over
    let data;
    try {
      data = await (await fetch("/api/jobs/" + jobId, { headers: { Accept: "application/json" } })).json();
    } catch (e) {
      setTimeout(() => poll(jobId), 1000);
      return;
    }
    if (jobId !== current) return;
    progress.textContent = "";
    for (const line of data.progress || []) {
      const li = document.createElement("li");
      li.textContent = line;
      progress.appendChild(li);
    }
    if (!data.finished) {
      const w = data.where;
      if (w) {
        step.textContent = "Step " + w.step + " of " + w.steps + ": " + w.label + " · about "
          + minutesAndSeconds(w.left_s) + " left";
        bar.hidden = false;
        bar.value = w.fraction;
      }
      setState("running", data.state === "queued" ? "Waiting for another job to finish…" : "Working…");
      // Quick at first (a sheet takes under a second), then every 0.4 s.
      setTimeout(() => poll(jobId), performance.now() - (pollStarted[jobId] || 0) < 3000 ? 120 : 400);
      return;
    }
    cancelButton.hidden = true;
    bar.hidden = true;
    step.textContent = "";
    progress.textContent = "";
    output.innerHTML = data.html;
    showErrors(data.field_errors, data.form_error);
    const verdict = output.querySelector("#verdict");
    const texts = { done: verdict ? verdict.textContent : "Done.", refused: "Refused: see the marked field.",
                    failed: "Failed.", cancelled: "Cancelled; nothing was kept." };
    setState(data.state, texts[data.state] || data.state);
    if (window.StlViewer) window.StlViewer.attachAll(output);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  cancelButton.addEventListener("click", () => {
    if (current) cancel(current);
  });
  const changed = () => {
    keepInAddress();
    if (live) {
      clearTimeout(timer);
      timer = setTimeout(submit, 200);
    }
    if (viewer) {
      clearTimeout(previewTimer);
      previewTimer = setTimeout(preview, 250);
    }
  };
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  markChanged();
  if (live) submit(); // the defaults (or the link's settings), previewed at once
  if (viewer) preview(); // the board, as the page opens
})();
