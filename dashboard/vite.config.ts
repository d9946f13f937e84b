// Builds the dashboard into dist/ for the API to serve under /dashboard: hashed files in dist/assets, nothing inline
// (the page's Content-Security-Policy allows scripts from this origin only).
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  base: "/dashboard/",
  plugins: [react()],
  build: {
    outDir: "dist",
    assetsDir: "assets",
    emptyOutDir: true,
    // The API serves only .js, .css, .svg, .png, .woff2 and .json from dist/assets; small images become data: URLs,
    // which the CSP's img-src allows.
    assetsInlineLimit: 8192,
    target: "es2022",
  },
  server: {
    // `npm run dev --workspace dashboard` against a local API (`npm start`) on its default port.
    proxy: { "/api": "http://127.0.0.1:3000" },
  },
});
