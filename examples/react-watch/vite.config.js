import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// What `npm create vite@latest -- --template react` gives, with a higher chunk-size warning
// limit: idb-ttl's WebAssembly travels inside its JavaScript (about 350 kB, 238 kB gzip), so the
// app's one chunk is over Vite's default 500 kB with React beside it.
export default defineConfig({
  plugins: [react()],
  build: { chunkSizeWarningLimit: 800 },
});
