// Server rendering in Node, where there is no window and no IndexedDB: the app renders with no
// store (it is opened in onMount, which a server never runs), so the offer's store holds
// undefined. Prints {"html": "..."}.
import { render } from "svelte/server";
import App from "./App.svelte";

const { body } = render(App);
console.log(JSON.stringify({ html: body }));
