// The shopper's side of paying, served as /assets/orders.js to the scan page's purchase section and to the order
// status page (/orders/<id>): posts the order to POST /api/orders, follows its `next` (a gateway's payment page, or
// the Cash QR to show the cashier) and follows the order's state with GET /api/orders/<id>. The order's secret goes
// only in the X-Order-Secret header and is kept in this tab's sessionStorage; a gateway sends the browser back with
// it in the fragment (#s=…), which the page then removes from the address bar. Never in a URL query, never logged.
// Its own file, so the pages' Content-Security-Policy needs no inline script.
/* global window, document, sessionStorage, fetch, URL, URLSearchParams */
"use strict";
(function () {
  var SECRET_PREFIX = "order-secret:";
  /** States after which nothing changes by itself any more. */
  var SETTLED = { verified: true, failed: true, cancelled: true, expired: true, refunded: true };
  /** The colour of each state's badge; its word is the page's. */
  var TONES = {
    created: "waiting",
    pending: "waiting",
    paid: "good",
    verified: "good",
    failed: "bad",
    cancelled: "neutral",
    expired: "neutral",
    refund_pending: "waiting",
    refund_unknown: "waiting",
    refunded: "neutral",
  };
  /**
   * The words in the page's language, and how it writes amounts and times: the page carries them in
   * data-page-words (pages/purchase.ts, scriptWords), so this script says nothing in a language of its own.
   */
  var WORDS = {};
  var holder = document.querySelector("[data-page-words]");
  try {
    WORDS = JSON.parse(holder ? holder.getAttribute("data-page-words") : "{}") || {};
  } catch {
    WORDS = {};
  }
  WORDS.states = WORDS.states || {};
  WORDS.messages = WORDS.messages || {};
  WORDS.methods = WORDS.methods || {};

  /** A sentence of the page's with its blanks ("{method}") filled in. */
  function fill(text, name, value) {
    return String(text || "").split("{" + name + "}").join(value);
  }
  /**
   * Polling: every 2 s for the first two minutes (a cashier confirms, a gateway calls back), then every 10 s, for at
   * most 30 minutes, and not while the tab is hidden: shoppers behind one shop's address share its hourly budget.
   */
  var FAST_MS = 2000;
  var SLOW_MS = 10000;
  var RATE_LIMITED_MS = 60000;
  var FAST_FOR_MS = 2 * 60 * 1000;
  var POLL_FOR_MS = 30 * 60 * 1000;

  function field(root, name) {
    return root.querySelector('[data-field="' + name + '"]');
  }

  /** Changes a live region's words only when they change: rewriting the same text can be read out again. */
  function say(element, text) {
    if (element.textContent !== text) element.textContent = text;
  }

  function remember(orderId, secret) {
    try {
      sessionStorage.setItem(SECRET_PREFIX + orderId, secret);
    } catch {
      // Storage off (private mode): this page still works; a reload will say the key is missing.
    }
  }

  function recall(orderId) {
    try {
      return sessionStorage.getItem(SECRET_PREFIX + orderId);
    } catch {
      return null;
    }
  }

  /** As the scan page writes the price (pages/purchase.ts, formatMoney). */
  function money(amount, currency) {
    try {
      return new Intl.NumberFormat(WORDS.moneyLocale || "en", { style: "currency", currency: currency }).format(Number(amount));
    } catch {
      return currency + " " + Number(amount).toFixed(2);
    }
  }

  /** As the scan page writes times: "2026-11-22 09:10 UTC" in English, else as i18n/languages.ts formatDateTime does. */
  function time(iso) {
    if (!iso) return "—";
    var date = new Date(iso);
    if (isNaN(date.getTime())) return iso;
    if (!WORDS.dateLocale) return date.toISOString().slice(0, 16).replace("T", " ") + " UTC";
    var day = new Intl.DateTimeFormat(WORDS.dateLocale, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(date);
    var clock = new Intl.DateTimeFormat(WORDS.dateLocale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" }).format(date);
    return day + ", " + clock + " UTC";
  }

  function methodName(method) {
    return WORDS.methods[method] || method;
  }

  /** Where the order stands, in a sentence of the page's language (the API's own message is in English). */
  function orderMessage(order) {
    if (order.status === "pending" && order.method === "cash_qr") return WORDS.pendingCash;
    return fill(WORDS.messages[order.status], "method", methodName(order.method));
  }

  function stateWord(status) {
    return WORDS.states[status] || status;
  }

  /** fetch, answering { status, body } with the JSON envelope, or status 0 when there was no answer. */
  function call(path, init) {
    return fetch(path, init).then(
      function (res) {
        return res.text().then(function (text) {
          var body = null;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            body = null;
          }
          return { status: res.status, body: body };
        });
      },
      function () {
        return { status: 0, body: null };
      },
    );
  }

  function readOrder(orderId, secret) {
    return call("/api/orders/" + encodeURIComponent(orderId), {
      headers: { Accept: "application/json", "X-Order-Secret": secret },
      cache: "no-store",
      credentials: "omit",
    });
  }

  /**
   * Reads the order until it settles (or for POLL_FOR_MS), calling onOrder with each answer's data and onProblem
   * with words for a refusal; a missing order stops, a lost connection keeps trying.
   */
  function follow(orderId, secret, onOrder, onProblem) {
    var started = Date.now();
    function tick() {
      if (document.hidden) {
        document.addEventListener("visibilitychange", tick, { once: true });
        return;
      }
      readOrder(orderId, secret).then(function (answer) {
        if (answer.status === 200 && answer.body && answer.body.data) {
          onProblem(null);
          var order = answer.body.data;
          onOrder(order);
          if (SETTLED[order.status]) return;
        } else if (answer.status === 404) {
          onProblem(WORDS.noSuchOrder);
          return;
        } else if (answer.status === 429) {
          onProblem(WORDS.busyConnection);
        } else {
          onProblem(answer.status === 0 ? WORDS.connectionLost : WORDS.shopBusy);
        }
        var elapsed = Date.now() - started;
        var wait = answer.status === 429 ? RATE_LIMITED_MS : elapsed < FAST_FOR_MS ? FAST_MS : SLOW_MS;
        if (elapsed < POLL_FOR_MS) window.setTimeout(tick, wait);
        else onProblem(WORDS.stoppedChecking);
      });
    }
    tick();
  }

  /** The words for a refusal of POST /api/orders, by its stable code; `label` is the method's name. */
  function orderProblem(answer, label) {
    var error = (answer.body && answer.body.error) || {};
    if (answer.status === 0) return WORDS.shopUnreachable;
    if (answer.status === 429) return WORDS.tooManyAttempts;
    switch (error.code) {
      case "SALES_DISABLED":
        return WORDS.notOnSale;
      case "METHOD_UNAVAILABLE":
        return fill(WORDS.methodUnavailable, "method", label);
      case "GATEWAY_UNAVAILABLE":
        return fill(WORDS.gatewayUnavailable, "method", label);
      case "NOT_FOUND":
        return WORDS.productGone;
      case "VALIDATION_ERROR":
        // The API's reason is in English and names fields the shopper never saw: the page says it in its words.
        return WORDS.orderRefused;
      default:
        return error.request_id ? fill(WORDS.orderFailed, "reference", error.request_id) : WORDS.orderFailedNoReference;
    }
  }

  /** Only a web address may be followed: a gateway's payment page, or our own order page. */
  function safeUrl(url) {
    try {
      var parsed = new URL(url, window.location.href);
      return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.toString() : null;
    } catch {
      return null;
    }
  }

  function setUpPurchase(section) {
    var form = section.querySelector("form.pay");
    var busy = field(form, "busy");
    var error = field(form, "error");
    var buttons = form.querySelectorAll("button[name=method]");
    var working = false;
    /** The method button pressed, for browsers without SubmitEvent.submitter. */
    var pressed = null;
    form.hidden = false;
    form.addEventListener("click", function (event) {
      if (event.target && event.target.name === "method") pressed = event.target;
    });

    function setWorking(on, text) {
      working = on;
      busy.textContent = on ? text : "";
      for (var i = 0; i < buttons.length; i++) {
        if (on) buttons[i].setAttribute("aria-disabled", "true");
        else buttons[i].removeAttribute("aria-disabled");
      }
    }

    // Back from a gateway's page (the browser's page cache): the buttons work again.
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) setWorking(false);
    });

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (working) return;
      var button = event.submitter || pressed;
      if (!button || button.name !== "method") return;
      var label = button.textContent.trim();
      error.textContent = "";
      setWorking(true, WORDS.placingOrder);
      call("/api/orders", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ uid: form.elements.uid.value, method: button.value }),
        credentials: "omit",
      }).then(function (answer) {
        var order = answer.status === 201 && answer.body && answer.body.data;
        if (!order) {
          setWorking(false);
          error.textContent = orderProblem(answer, label);
          return;
        }
        remember(order.order_id, order.order_secret);
        if (order.next && order.next.type === "redirect") {
          var target = safeUrl(order.next.url);
          if (target) {
            busy.textContent = fill(WORDS.takingYouTo, "method", label);
            window.location.assign(target);
            return;
          }
        }
        if (order.next && order.next.type === "cash_qr") {
          setWorking(false);
          form.hidden = true;
          showCashQr(section, order);
          return;
        }
        setWorking(false);
        error.textContent = WORDS.noNextStep;
      });
    });
  }

  function showCashQr(section, order) {
    var view = field(section, "cash");
    // The view says the amount itself, next to the QR code.
    field(section, "price").hidden = true;
    field(view, "amount").textContent = money(order.amount, order.currency);
    field(view, "qr").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(order.next.qr_svg);
    field(view, "status-link").href = "/orders/" + encodeURIComponent(order.order_id);
    var state = field(view, "state");
    view.hidden = false;
    view.focus();
    follow(
      order.order_id,
      order.order_secret,
      function (current) {
        if (current.status === "verified" || current.status === "paid") {
          field(view, "qr-block").hidden = true;
          state.className = "order-state paid-state";
          say(state, WORDS.paymentReceived);
        } else if (SETTLED[current.status]) {
          field(view, "qr-block").hidden = true;
          say(state, orderMessage(current) || stateWord(current.status));
        } else {
          say(state, WORDS.waitingForCashier);
        }
      },
      function (problem) {
        if (problem) say(state, problem);
      },
    );
  }

  /** The secret from the fragment (#s=…), kept for this tab and removed from the address; else the kept one. */
  function secretFor(orderId) {
    var fromFragment = new URLSearchParams(window.location.hash.replace(/^#/, "")).get("s");
    if (fromFragment && /^[A-Za-z0-9_-]{16,128}$/.test(fromFragment)) {
      remember(orderId, fromFragment);
      window.history.replaceState(null, "", window.location.pathname);
      return fromFragment;
    }
    return recall(orderId);
  }

  function setUpStatusPage(section) {
    var orderId = section.getAttribute("data-order-id");
    var loading = field(section, "loading");
    var problem = field(section, "problem");
    var details = field(section, "details");
    var receipt = field(document, "receipt");
    var secret = secretFor(orderId);
    if (!secret) {
      problem.textContent = fill(WORDS.noKey, "order", orderId);
      problem.hidden = false;
      return;
    }
    loading.hidden = false;
    follow(
      orderId,
      secret,
      function (order) {
        loading.hidden = true;
        var tone = TONES[order.status] || "neutral";
        field(section, "title").textContent = order.product_name;
        field(section, "amount").textContent = money(order.amount, order.currency);
        var badge = field(section, "state");
        badge.textContent = stateWord(order.status);
        badge.className = "status " + tone;
        say(field(section, "message"), orderMessage(order) || "");
        field(section, "product-link").href = "/scan/" + encodeURIComponent(order.uid);
        details.hidden = false;
        var paid = order.status === "paid" || order.status === "verified";
        receipt.hidden = !paid;
        if (paid) {
          field(receipt, "r-product").textContent = order.product_name;
          var uid = field(receipt, "r-uid");
          uid.textContent = order.uid;
          uid.href = "/scan/" + encodeURIComponent(order.uid);
          field(receipt, "r-amount").textContent = money(order.amount, order.currency);
          field(receipt, "r-method").textContent = methodName(order.method);
          field(receipt, "r-paid").textContent = time(order.paid_at);
          field(receipt, "r-verified").textContent = order.verified_at ? time(order.verified_at) : WORDS.beingConfirmedWithProvider;
        }
      },
      function (text) {
        if (text) loading.hidden = true;
        say(problem, text || "");
        problem.hidden = !text;
      },
    );
  }

  var buy = document.getElementById("buy");
  if (buy) setUpPurchase(buy);
  var order = document.getElementById("order");
  if (order && order.getAttribute("data-order-id")) setUpStatusPage(order);
})();
