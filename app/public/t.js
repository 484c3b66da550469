/*
 * Atiende tracking snippet (no dependencies). Paste on a landing page:
 *   <script src="https://<console>/t.js" data-key="<tracking key>" async></script>
 * It keeps the ad click's parameters in a tracking session, and adds a short reference
 * (AT-XXXXXX) to WhatsApp links so the first message can be matched to the visit.
 * The key is public: it only creates and updates visit sessions and records the visit's steps
 * (whatsapp_click here); leads and sales are recorded by signed-in members in the console.
 */
(function () {
  var script = document.currentScript;
  if (!script) return;
  var key = script.getAttribute("data-key");
  var api = new URL(script.src).origin + "/api/v1/tracking";
  var STORAGE = "tracking_session_id";
  var KEYS = [
    "fbclid",
    "gclid",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_term",
    "utm_content",
    "ref",
    "ad_id",
    "campaign_id",
    "adset_id",
  ];
  var TRIGGERS = ["fbclid", "gclid", "utm_source", "ref", "ad_id", "campaign_id"];

  function readParams() {
    var params = {};
    var sources = [
      new URLSearchParams(location.search),
      new URLSearchParams(location.hash.replace(/^#/, "")),
    ];
    sources.forEach(function (source) {
      KEYS.forEach(function (k) {
        var v = source.get(k);
        if (v && !params[k]) params[k] = v.slice(0, 500);
      });
    });
    return params;
  }

  function call(method, path, body) {
    return fetch(api + path, {
      method: method,
      headers: { "Content-Type": "application/json", "X-Tracking-Key": key },
      body: body ? JSON.stringify(body) : undefined,
      keepalive: true,
    }).then(function (r) {
      return r.ok
        ? r.json().then(function (j) {
            return j.data;
          })
        : Promise.reject(r.status);
    });
  }

  function store(id) {
    try {
      localStorage.setItem(STORAGE, id);
    } catch {
      /* private mode */
    }
  }
  function stored() {
    try {
      return localStorage.getItem(STORAGE);
    } catch {
      return null;
    }
  }
  function forget() {
    try {
      localStorage.removeItem(STORAGE);
    } catch {
      /* private mode */
    }
  }

  var CLICK_WAIT_MS = 1000;
  function wait(ms) {
    return new Promise(function (resolve) {
      window.setTimeout(resolve, ms);
    });
  }
  function leavesPage(event, link) {
    var target = link.getAttribute("target");
    return (
      !event.defaultPrevented &&
      event.button === 0 &&
      !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) &&
      (!target || target === "_self") &&
      !link.hasAttribute("download")
    );
  }

  function decorate(session) {
    var links = document.querySelectorAll(
      'a[href*="wa.me/"], a[href*="api.whatsapp.com/send"], a[href^="whatsapp://send"]',
    );
    Array.prototype.forEach.call(links, function (link) {
      if (link.getAttribute("data-atiende")) return;
      var url = new URL(link.href);
      var text = url.searchParams.get("text") || "";
      if (text.indexOf(session.ref_code) === -1) {
        url.searchParams.set("text", (text ? text + " " : "") + "(ref: " + session.ref_code + ")");
      }
      link.href = url.toString();
      link.setAttribute("data-atiende", "1");
      link.addEventListener("click", function (event) {
        var recorded = call("POST", "/conversions", {
          event_name: "whatsapp_click",
          tracking_session_id: session.id,
        }).catch(function () {});
        // A link that replaces this page waits for the click to be recorded (at most
        // CLICK_WAIT_MS): a request still in its CORS preflight when the page goes is lost
        // in some browsers, keepalive or not. New tabs and modified clicks go at once.
        if (!leavesPage(event, link)) return;
        event.preventDefault();
        var go = function () {
          location.href = link.href;
        };
        Promise.race([recorded, wait(CLICK_WAIT_MS)]).then(go, go);
      });
    });
  }

  function start() {
    if (!key) return;
    var params = readParams();
    var hasTrigger = TRIGGERS.some(function (k) {
      return params[k];
    });
    var create = function () {
      if (!hasTrigger) return Promise.resolve(null);
      return call("POST", "/sessions", {
        tracking_params: params,
        user_agent: navigator.userAgent,
        referrer: document.referrer,
        landing_page: location.href,
      }).then(function (s) {
        store(s.id);
        return s;
      });
    };
    var id = stored();
    var session = id
      ? call("GET", "/sessions/" + encodeURIComponent(id)).catch(function () {
          forget();
          return create();
        })
      : create();
    session
      .then(function (s) {
        if (s) decorate(s);
      })
      .catch(function () {});
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
