// Server rendering in Node, where there is no window and no IndexedDB: the app renders with no
// store and no watch (useEntry starts at mount, which a server never does), so every value is
// undefined. Prints {"html": "..."}.
import { createSSRApp } from "vue";
import { renderToString } from "vue/server-renderer";
import App from "./App.vue";

const html = await renderToString(createSSRApp(App));
console.log(JSON.stringify({ html }));
