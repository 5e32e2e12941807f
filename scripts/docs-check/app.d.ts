// What the docs' examples take from the app around them, declared so each block compiles alone
// (scripts/docs-check.mjs). Keep it short: a block imports and opens everything of idb-ttl it uses.

/** Rows a user imports (long work). */
declare const rows: [string, unknown][];
/** Sensor readings (time series). */
declare const readings: { ts: number; sensor: string; celsius: number }[];
/** A `<progress>` bar and a Cancel button on the page. */
declare const bar: HTMLProgressElement;
declare const cancelButton: HTMLButtonElement;
/** A file the user picked. */
declare const file: File;
/** The app's own screens. */
declare function showLogin(): void;
declare function greet(user: number): void;
declare function refetchFromServer(): void;

// JSX without React's types (the repository has none): elements are typed loosely, the hooks
// (idb-ttl/react's own typings) precisely.
declare namespace JSX {
  type Element = unknown;
  interface IntrinsicElements {
    [name: string]: {
      [attribute: string]: unknown;
      onChange?: (event: { target: HTMLInputElement | HTMLTextAreaElement }) => void;
      onClick?: (event: MouseEvent) => void;
    };
  }
}
