// The API reference page's script, served as /docs/init.js after swagger-ui-bundle.js: renders /docs from this
// service's OpenAPI document. Its own file, so the page's Content-Security-Policy needs no inline script.
/* global window, SwaggerUIBundle */
"use strict";
window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#reference",
  // No top bar: its box loads whatever URL a visitor types.
  layout: "BaseLayout",
  deepLinking: true,
  // Swagger UI would otherwise send the document to validator.swagger.io for a badge.
  validatorUrl: null,
  // Off by default; said here because, on, a link could point this page at another document (?url=…).
  queryConfigEnabled: false,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
});
