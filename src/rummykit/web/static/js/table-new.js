// The new-game form: choosing a preset sets every option to the preset's value; changing an
// option afterwards keeps the change.

import { onPage } from "./site.js";

onPage((root) => {
  for (const form of root.querySelectorAll("[data-new-game]:not([data-ready])")) {
    form.dataset.ready = "true";
    const presets = JSON.parse(form.dataset.presets);
    form.addEventListener("change", (event) => {
      const input = event.target;
      if (input.name !== "preset" || !presets[input.value]) return;
      for (const [field, value] of Object.entries(presets[input.value])) {
        const control = form.querySelector(`[data-option="${field}"]`);
        if (!control) continue;
        if (control.type === "checkbox") control.checked = value === "true";
        else control.value = value === "none" && control.tagName === "INPUT" ? "" : value;
      }
    });
  }
});
