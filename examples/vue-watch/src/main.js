import { createApp } from "vue";
import App from "./App.vue";
import { openStore } from "./store.js";

createApp(App).mount("#app");
openStore();
