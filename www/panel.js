// What the demo's panels with a store of their own (idle, views, vault, long) share: finding
// their parts by data-testid, and opening their store once the package has loaded.

import { errorText } from "./format.js";

/** The panel `testid`, and a lookup of its parts by data-testid. */
export function panelParts(testid) {
  const panel = document.querySelector(`[data-testid="${testid}"]`);
  return [panel, (id) => panel.querySelector(`[data-testid="${id}"]`)];
}

/**
 * Opens the panel's store `name` with `options`, also as `window[global]` for poking at it from
 * the devtools console. If it cannot be opened, tells `fail` why and gives null.
 */
export async function openPanelStore(name, options, global, fail) {
  try {
    const { TtlStore } = await import("./pkg/index.js");
    const store = await TtlStore.open(name, options);
    window[global] = store;
    return store;
  } catch (e) {
    fail(`open the store "${name}": ${errorText(e)}`);
    return null;
  }
}
