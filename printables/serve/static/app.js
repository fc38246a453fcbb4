// The customizer form: submit without leaving the page, follow the job, show its results.
// Without JavaScript the form still works (the server answers with whole pages).
"use strict";

(function () {
  const form = document.getElementById("form");
  if (!form) return;
  const result = document.getElementById("result");
  const status = document.getElementById("status");
  const progress = document.getElementById("progress");
  const output = document.getElementById("output");
  const cancelButton = document.getElementById("cancel");
  const formError = document.getElementById("form-error");
  const live = form.dataset.live === "1";
  let current = null; // the job whose results this page shows
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
      if (box) box.classList.add("bad");
    }
    if (whole) formError.textContent = whole;
  }

  async function cancel(jobId) {
    await fetch("/jobs/" + jobId + "/cancel", { method: "POST", headers: { Accept: "application/json" } });
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
    result.dataset.job = current;
    progress.textContent = "";
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
      setState("running", data.state === "queued" ? "Waiting for another job to finish…" : "Working…");
      setTimeout(() => poll(jobId), 400);
      return;
    }
    cancelButton.hidden = true;
    output.innerHTML = data.html;
    showErrors(data.field_errors, data.form_error);
    const texts = { done: "Done.", refused: "Refused.", failed: "Failed.", cancelled: "Cancelled." };
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
  if (live) {
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(submit, 700);
    };
    form.addEventListener("input", later);
    form.addEventListener("change", later);
    submit(); // the defaults, previewed at once
  }
})();
