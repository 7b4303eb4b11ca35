// The portal's shell: sign-in, the header, and a page per hash route
// (#keys, #usage, #analyze[/id], #monitors). Each page asks /graphql once for
// what it shows.
import { gql, signIn, signOut, whenSignedOut, whenWorking } from "./api.js";
import { h, errorBox, confirmDialog, toast, progressLine } from "./ui.js";
import * as keys from "./keys.js";
import * as usage from "./usage.js";
import * as analyze from "./analyze.js";
import * as monitors from "./monitors.js";

const pages = { keys, usage, analyze, monitors };
// A person signs in to analyze a document; keys are one click away in the
// navigation.
const firstPage = "analyze";
const main = document.getElementById("main");
const top = document.getElementById("top");
let viewer = null;

// A refused session: expired while in use, or none yet (HttpOnly hides which
// cookie the browser holds, so a first visit just gets the sign-in page).
whenSignedOut(() => {
  const was = viewer;
  viewer = null;
  showSignIn(was ? "Your session has expired or was signed out. Sign in again." : null);
});

// Long work the page's own form does not already show (check now, on the
// monitors page) is shown in a bar at the bottom, with its elapsed time.
const activity = document.getElementById("activity");
const longWork = [
  [/\banalyzeBatch\s*\(/, "Analyzing the documents"],
  [/\banalyze\s*\(/, "Analyzing the document"],
  [/\bcreateMonitor\s*\(/, "Fetching and analyzing the page to watch"],
  [/\bcheckMonitor\s*\(/, "Checking the page now"],
];
whenWorking((query, done) => {
  const what = longWork.find(([re]) => re.test(query))?.[1];
  if (!what) return;
  let line = null;
  const shown = setTimeout(() => {
    if (main.querySelector(".progress")) return; // the form says so itself
    line = progressLine(what);
    activity.append(line.el);
    activity.hidden = false;
  }, 600);
  const end = () => {
    clearTimeout(shown);
    line?.stop();
    activity.hidden = !activity.querySelector(".progress");
  };
  done.then(end, end);
});

document.getElementById("sign-out").addEventListener("click", async () => {
  // The server ends the session; until it has, the person is not signed out.
  try {
    await signOut();
  } catch (err) {
    return toast(`Not signed out: ${err.message}`);
  }
  viewer = null;
  showSignIn("You are signed out.");
});

// The skip link must not touch the hash, which is the route.
document.querySelector(".skip").addEventListener("click", (ev) => {
  ev.preventDefault();
  main.focus();
});

window.addEventListener("hashchange", () => {
  // A sign-in link counts only when the page loads (start): any page holding
  // this window can change its fragment, and must not sign it in to an
  // account of its choosing. A #signin= arriving later is dropped unread.
  if (location.hash.startsWith("#signin=")) dropFragment();
  route();
});
start();

// start runs once, when the page loads.
async function start() {
  // The link that `make run` prints carries the session token in the fragment,
  // which is never sent to a server. Move it into the cookie and take it out
  // of the address bar and history at once.
  const m = location.hash.match(/^#signin=(.+)$/);
  if (m) {
    dropFragment();
    try {
      await signInAs(decodeURIComponent(m[1]));
    } catch (err) {
      return showSignIn(err.message);
    }
  }
  await route();
}

function dropFragment() {
  history.replaceState(null, "", location.pathname + location.search + "#" + firstPage);
}

// signInAs moves token into the cookie. If the browser is signed in to
// another account, the server says whose (409) and changes nothing: a link
// from someone else would otherwise put this person's work into the sender's
// account. The person sees both addresses and chooses.
async function signInAs(token) {
  try {
    await signIn(token);
  } catch (err) {
    if (err.status !== 409) throw err;
    const ok = await confirmDialog({
      title: "Switch account?",
      body: `This browser is signed in as ${err.currentEmail}. The sign-in link is for ${err.newEmail}: ` +
        `what you do next would be kept in that account. Switch only if you expected that account.`,
      confirm: `Switch to ${err.newEmail}`,
    });
    if (!ok) return toast(`Still signed in as ${err.currentEmail}.`);
    await signIn(token, true);
  }
  viewer = null;
}

async function route() {
  if (!viewer) {
    try {
      viewer = (await gql("{ viewer { email tier } }")).viewer;
    } catch (err) {
      if (err.status !== 401) showSignIn(err.message);
      return;
    }
    document.getElementById("who-email").textContent = viewer.email;
    document.getElementById("who-tier").textContent = viewer.tier;
    top.hidden = false;
    monitors.refreshUnread();
  }
  const [asked, ...rest] = location.hash.slice(1).split("/");
  const name = pages[asked] ? asked : firstPage;
  const page = pages[name];
  for (const a of top.querySelectorAll("nav a")) {
    if (a.getAttribute("href") === "#" + name) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  document.title = `${name[0].toUpperCase()}${name.slice(1)} · clausewatch`;
  main.replaceChildren(h("p", { class: "loading" }, "Loading…"));
  try {
    await page.render(main, { viewer, arg: rest.join("/") });
  } catch (err) {
    main.replaceChildren(errorBox(err, "This page could not be loaded."));
  }
  // Move focus to the new page's heading, except on the first load.
  if (route.seen) main.querySelector("h1")?.focus();
  route.seen = true;
}

function showSignIn(message) {
  top.hidden = true;
  document.title = "Sign in · clausewatch";
  const input = h("textarea", { id: "token", name: "token", rows: 4, required: true, autocomplete: "off", spellcheck: "false" });
  const form = h("form", { class: "card signin", onsubmit: submit },
    h("h1", { tabindex: "-1" }, "Sign in to the developer portal"),
    message ? h("p", { class: "notice", role: "status" }, message) : null,
    h("p", {}, "Open the sign-in link that ", h("code", {}, "make run"), " printed, or paste a session token here: the local owner's from ",
      h("code", {}, "make run"), ", or your identity provider's."),
    h("label", { for: "token" }, "Session token"),
    input,
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Sign in")),
    h("p", { class: "hint" }, "API keys (cwsk_…) cannot sign in: the portal is for the account holder."));
  main.replaceChildren(form);
  form.querySelector("h1").focus();

  async function submit(ev) {
    ev.preventDefault();
    form.querySelector(".error-box")?.remove();
    try {
      await signInAs(input.value.trim());
      history.replaceState(null, "", location.pathname + "#" + firstPage);
      route.seen = false;
      await route();
    } catch (err) {
      form.insertBefore(errorBox(err), input.previousElementSibling);
    }
  }
}
