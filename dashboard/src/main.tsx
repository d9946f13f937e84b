// Entry point of the dashboard bundle: mounts the app on #root.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
// Bengali (the product forms' Bengali name and description): the shopper pages' web font, bundled from this origin,
// as a fallback after the system fonts so Latin text never loads it.
import "@fontsource/noto-sans-bengali/bengali-400.css";
import "@fontsource/noto-sans-bengali/bengali-700.css";
import "./styles.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
