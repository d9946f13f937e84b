// The embeddable carbon badge, served as /embed/badge.js: renders every <div class="service-badge" data-uid="…">
// of the host page from GET /api/badge/{uid} on the origin this script came from.
/* global document, window, fetch, URL, MutationObserver, CSSStyleSheet */
(function () {
  "use strict";
  // Included twice by mistake, it must still render each badge once.
  if (window.__serviceBadgeLoaded) return;
  window.__serviceBadgeLoaded = true;

  var SELECTOR = "div.service-badge[data-uid]";
  var UID = /^[A-Za-z0-9]{2,10}-[A-Za-z0-9]{4,32}$/;
  var COLORS = { A: "#1A7F37", B: "#4D7C0F", C: "#B35900", D: "#B42318" };
  var CSS =
    ":host{all:initial;display:inline-block;vertical-align:middle}" +
    ".badge{display:inline-flex;align-items:center;gap:10px;padding:8px 12px 8px 8px;border:1px solid #d0d7de;" +
    "border-radius:999px;background:#fff;color:#1b1f24;font:14px/1.3 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;" +
    "text-decoration:none;box-sizing:border-box;max-width:100%}" +
    "a.badge:hover{border-color:#8c959f}" +
    ".disc{width:36px;height:36px;border-radius:50%;display:inline-flex;align-items:center;justify-content:center;" +
    "color:#fff;font-weight:800;font-size:18px;flex:none}" +
    ".text{display:inline-flex;flex-direction:column}" +
    ".label{font-weight:700}" +
    ".kg{color:#424a53;font-size:13px}" +
    ".cert{color:#116329;font-size:12px;font-weight:600}" +
    ".more{color:#0b5cad;font-size:12px}" +
    ".off{color:#57606a;font:13px system-ui,sans-serif}";

  var origin = scriptOrigin();
  var pending = {};
  var sheet = null;

  /** The origin of this script's own URL, so the badge asks the service that served it. */
  function scriptOrigin() {
    var script = document.currentScript;
    if (!script || !script.src) {
      var all = document.querySelectorAll("script[src]");
      for (var i = all.length - 1; i >= 0; i--) {
        if (/\/embed\/badge\.js(?:\?|#|$)/.test(all[i].src)) {
          script = all[i];
          break;
        }
      }
    }
    try {
      return new URL(script.src).origin;
    } catch {
      return null;
    }
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** A shadow root styled with our sheet, so the host page's CSS can neither break nor be broken by the badge. */
  function shadowOf(host) {
    var root = host.shadowRoot || (host.attachShadow ? host.attachShadow({ mode: "open" }) : host);
    while (root.firstChild) root.removeChild(root.firstChild);
    if (root !== host && "adoptedStyleSheets" in root && typeof CSSStyleSheet === "function") {
      // Constructed sheets also work under a host page's strict style-src policy, unlike a <style> element.
      try {
        if (!sheet) {
          sheet = new CSSStyleSheet();
          sheet.replaceSync(CSS);
        }
        root.adoptedStyleSheets = [sheet];
        return root;
      } catch {
        // fall through to a <style> element
      }
    }
    root.appendChild(el("style", null, CSS));
    return root;
  }

  function unavailable(host) {
    var root = shadowOf(host);
    root.appendChild(el("span", "off", "Passport unavailable"));
  }

  function formatKg(kg) {
    return Number(kg).toFixed(2) + " kg CO2e";
  }

  function render(host, data) {
    var rating = COLORS[data.carbon_rating] ? data.carbon_rating : null;
    if (!rating || typeof data.carbon_kg !== "number") return unavailable(host);
    var root = shadowOf(host);
    var link = null;
    try {
      // Only a link back to the service that answered; never a URL of another origin or scheme.
      if (data.certificate_url && new URL(data.certificate_url).origin === origin) link = data.certificate_url;
    } catch {
      link = null;
    }
    var badge = el(link ? "a" : "span", "badge");
    if (link) {
      badge.setAttribute("href", link);
      badge.setAttribute("target", "_blank");
      badge.setAttribute("rel", "noopener");
    }
    var disc = el("span", "disc", rating);
    disc.style.setProperty("background", COLORS[rating]);
    disc.setAttribute("title", "Carbon rating " + rating);
    var text = el("span", "text");
    text.appendChild(el("span", "label", String(data.carbon_label || "")));
    text.appendChild(el("span", "kg", formatKg(data.carbon_kg)));
    if (data.certified === true) text.appendChild(el("span", "cert", "✓ Certified on chain"));
    if (link) text.appendChild(el("span", "more", "View certificate ›"));
    badge.appendChild(disc);
    badge.appendChild(text);
    badge.setAttribute("title", "Product passport " + String(data.uid || ""));
    root.appendChild(badge);
  }

  /** One request per UID however many badges show it. */
  function load(uid) {
    if (!pending[uid]) {
      pending[uid] = fetch(origin + "/api/badge/" + encodeURIComponent(uid), { credentials: "omit" }).then(function (res) {
        if (!res.ok) throw new Error("HTTP " + res.status);
        return res.json();
      });
      // A failure is not cached: a badge added later tries again.
      pending[uid].catch(function () {
        delete pending[uid];
      });
    }
    return pending[uid];
  }

  function mount(host) {
    if (host.__serviceBadge) return;
    host.__serviceBadge = true;
    var uid = String(host.getAttribute("data-uid") || "").trim();
    if (!origin || !UID.test(uid)) return unavailable(host);
    load(uid.toUpperCase()).then(
      function (data) {
        render(host, data);
      },
      function () {
        unavailable(host);
      },
    );
  }

  function scan(root) {
    if (root.nodeType !== 1 && root.nodeType !== 9 && root.nodeType !== 11) return;
    if (root.nodeType === 1 && root.matches(SELECTOR)) mount(root);
    var found = root.querySelectorAll(SELECTOR);
    for (var i = 0; i < found.length; i++) mount(found[i]);
  }

  function start() {
    scan(document);
    if (typeof MutationObserver !== "function") return;
    new MutationObserver(function (records) {
      for (var i = 0; i < records.length; i++) {
        var added = records[i].addedNodes;
        for (var j = 0; j < added.length; j++) scan(added[j]);
        if (records[i].type === "attributes") scan(records[i].target);
      }
    }).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-uid", "class"] });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
