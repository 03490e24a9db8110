// The Python console: call any public gridforge function by name with JSON arguments.
// A tool for level designers and developers; also the page's own round-trip check.

export const consoleScreen = {
  id: "console",
  title: "Python console",
  mount(root, gridforge) {
    root.innerHTML = `
      <section class="console">
        <label>Function <input data-testid="call-name" value="gridforge.api.version" size="40"></label>
        <label>Arguments (JSON array) <textarea data-testid="call-args" rows="3">[]</textarea></label>
        <button type="button" data-testid="call-run">Call</button>
        <pre data-testid="call-result" class="result"></pre>
      </section>`;
    const name = root.querySelector('[data-testid="call-name"]');
    const args = root.querySelector('[data-testid="call-args"]');
    const result = root.querySelector('[data-testid="call-result"]');
    root.querySelector('[data-testid="call-run"]').addEventListener("click", async () => {
      gridforge.clearError();
      result.textContent = "…";
      let parsed;
      try {
        parsed = JSON.parse(args.value || "[]");
        if (!Array.isArray(parsed)) throw new Error("arguments must be a JSON array");
      } catch (error) {
        result.textContent = "";
        gridforge.showError(`arguments: ${error.message}`);
        return;
      }
      try {
        const value = await gridforge.call(name.value.trim(), ...parsed);
        result.textContent = JSON.stringify(value, null, 2);
      } catch (error) {
        result.textContent = "";  // the error banner already shows the message
      }
    });
  },
};
