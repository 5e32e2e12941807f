// Server-side rendering of the same app: useStore gives undefined on a server (nothing opens),
// so every part renders its loading state, with no error. `npm run ssr` prints the HTML.
import { renderToString } from "react-dom/server";
import { App } from "./App.jsx";

console.log(JSON.stringify({ html: renderToString(<App />) }));
