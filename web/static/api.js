// The portal's one door to the server: GraphQL as a JSON POST, authenticated
// by the HttpOnly session cookie (the script never sees the token), and the
// sign-in/sign-out calls that set and clear that cookie.

export class ApiError extends Error {
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

let signedOut = () => {};
let working = () => {};

// whenSignedOut registers what to do when the server refuses the session.
export function whenSignedOut(f) {
  signedOut = f;
}

// whenWorking registers what to do at each request: f(query, done) where
// done settles with the request (the portal shows long work in progress).
export function whenWorking(f) {
  working = f;
}

export async function gql(query, variables = {}) {
  const sent = send("/graphql", "POST", { query, variables });
  working(query, sent);
  const res = await sent;
  const body = await res.json().catch(() => null);
  if (res.status === 401) {
    signedOut();
    throw new ApiError("Your session has expired or was signed out. Sign in again.", "UNAUTHENTICATED", 401);
  }
  if (!body) throw new ApiError(`The server answered ${res.status} ${res.statusText} without a readable body.`, "INTERNAL", res.status);
  if (body.errors?.length) {
    const e = body.errors[0];
    const err = new ApiError(describe(e), e.extensions?.code ?? "ERROR", res.status);
    err.extensions = e.extensions ?? {}; // limits and what to do (ui.js errorBox)
    throw err;
  }
  return body.data;
}

// describe puts an API error in words: its message, the invalid fields, and
// when a budget comes back.
function describe(e) {
  let msg = e.message;
  const x = e.extensions ?? {};
  const details = Array.isArray(x.details) ? x.details.filter((d) => d.message) : [];
  if (details.length) {
    const fields = details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join("; ");
    msg = fields.includes(msg) ? fields : `${msg} (${fields})`;
  }
  if (x.code === "RATE_LIMITED" && x.resetsAt) {
    msg += ` It resets ${new Date(x.resetsAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}.`;
  }
  return msg;
}

// signIn moves token into the session cookie. Over a session of another
// account it fails with status 409 and both addresses (currentEmail,
// newEmail), unless switchAccount says the person agreed.
export async function signIn(token, switchAccount = false) {
  const res = await send("/session", "POST", { token, switchAccount });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    const err = new ApiError(body?.error ?? `Sign-in failed (${res.status}).`, "UNAUTHENTICATED", res.status);
    err.currentEmail = body?.currentEmail;
    err.newEmail = body?.newEmail;
    throw err;
  }
}

export async function signOut() {
  const res = await send("/session", "DELETE");
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new ApiError(body?.error ?? `Sign-out failed (${res.status}).`, "INTERNAL", res.status);
  }
}

async function send(url, method, body) {
  try {
    return await fetch(url, {
      method,
      credentials: "same-origin",
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError("The server could not be reached. Is clausewatch still running?", "NETWORK", 0);
  }
}
