// The Python console: call any function of the page's contract by name with JSON arguments
// (the contract's api.functions() lists them; the name field offers them as completions).
// A tool for level designers and developers; also the page's own round-trip check. Unlike
// the games it shows Python's own error text, since its user typed the dotted name.
import { FIRST_CONSOLE_FUNCTION } from "../contract.js";

export const screen = {
  id: "console",
  title: "Python console",
  /** @param {HTMLElement} root @param {import("../app.js").App} app */
  mount(root, app) {
    root.innerHTML = `
      <section class="console">
        <label>Function <input data-testid="call-name" value="${FIRST_CONSOLE_FUNCTION}" size="40" list="call-names"></label>
        <datalist id="call-names" data-testid="call-names"></datalist>
        <label>Arguments (JSON array) <textarea data-testid="call-args" rows="3">[]</textarea></label>
        <button type="button" data-testid="call-run">Call</button>
        <pre data-testid="call-result" class="result"></pre>
      </section>`;
    // The elements just written above: each is there.
    const name = /** @type {HTMLInputElement} */ (root.querySelector('[data-testid="call-name"]'));
    const args = /** @type {HTMLTextAreaElement} */ (root.querySelector('[data-testid="call-args"]'));
    const result = /** @type {HTMLElement} */ (root.querySelector('[data-testid="call-result"]'));
    const names = /** @type {HTMLElement} */ (root.querySelector('[data-testid="call-names"]'));
    let live = true;
    app.python.api.functions().then((listed) => {
      if (!live) return;
      for (const { name: option, doc } of listed) {
        const entry = document.createElement("option");
        entry.value = option;
        entry.label = doc;
        names.append(entry);
      }
    }, () => {});
    /** @type {HTMLElement} */ (root.querySelector('[data-testid="call-run"]')).addEventListener("click", async () => {
      app.clearMessage();
      result.textContent = "…";
      let parsed;
      try {
        parsed = JSON.parse(args.value || "[]");
        if (!Array.isArray(parsed)) throw new Error("arguments must be a JSON array");
      } catch (error) {
        result.textContent = "";
        app.message(`arguments: ${error.message}`, "error");
        return;
      }
      try {
        const value = await app.python.named(name.value.trim(), ...parsed);
        if (live) result.textContent = JSON.stringify(value, null, 2);
      } catch (error) {
        if (!live) return;
        result.textContent = "";
        app.message(error.detail || error.message, "error");
      }
    });
    return { unmount() { live = false; } };
  },
};
