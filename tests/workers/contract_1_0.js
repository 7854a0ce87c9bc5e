// A worker in another language, frozen at contract 1.0: Node's standard
// library alone, written from CONTRACT.md's text of that version, with
// binary splitting as its tester (the tests' tests/testers/splitting.py,
// pool for pool). It is not one of the broken workers: it conforms.
//
//     python3 grader/local.py --worker-command "node tests/workers/contract_1_0.js"
//
// As 1.0 said, a /solve with a key other than token, n and priors is refused
// with 400 (unknown key "deadline"), and /health names no version, so the
// grader must speak 1.0 to it.
"use strict";
const http = require("http");

const KEYS = new Set(["token", "n", "priors"]);   // a /solve's keys in contract 1.0
const MAX_BODY = 16640;                            // bytes of a /solve body at most
const oracleUrl = new URL(process.env.AR_ORACLE_URL || "http://127.0.0.1:8081/");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function test(token, pool) {
  const body = JSON.stringify({ pool: pool });
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: oracleUrl.hostname, port: oracleUrl.port || 80, path: oracleUrl.pathname,
      method: "POST", agent: agent,
      headers: { "Authorization": "Bearer " + token, "Content-Type": "application/json",
                 "Content-Length": Buffer.byteLength(body) },
    }, (reply) => {
      const chunks = [];
      reply.on("data", (chunk) => chunks.push(chunk));
      reply.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        if (reply.statusCode === 200) resolve(JSON.parse(text).positive);
        else reject(new Error("oracle answered " + reply.statusCode + ": " + text));
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}

async function find(n, priors, token) {     // binary splitting
  const defectives = [];
  let unresolved = Array.from({ length: n }, (_, i) => i);
  while (unresolved.length && await test(token, unresolved)) {
    let pool = unresolved;
    const cleared = new Set();
    while (pool.length > 1) {
      const half = pool.slice(0, Math.floor(pool.length / 2));
      if (await test(token, half)) {
        pool = half;
      } else {
        half.forEach((i) => cleared.add(i));
        pool = pool.slice(Math.floor(pool.length / 2));
      }
    }
    defectives.push(pool[0]);
    cleared.add(pool[0]);
    unresolved = unresolved.filter((i) => !cleared.has(i));
  }
  return defectives.sort((a, b) => a - b);
}

function answer(response, status, object) {
  const body = JSON.stringify(object);
  response.writeHead(status, { "Content-Type": "application/json",
                               "Content-Length": Buffer.byteLength(body) });
  response.end(body);
}

function fieldsError(request) {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return "not an object";
  }
  for (const key of Object.keys(request).sort()) {
    if (!KEYS.has(key)) return "unknown key \"" + key + "\"";
  }
  const { token, n, priors } = request;
  if (typeof token !== "string" || !/^[!-~]{1,256}$/.test(token)) return "bad token";
  if (!Number.isInteger(n) || n < 1 || n > 512 || !Array.isArray(priors) ||
      priors.length !== n || !priors.every((p) => typeof p === "number" && p > 0 && p < 1)) {
    return "bad n or priors";
  }
  return null;
}

const server = http.createServer((request, response) => {
  if (request.method === "GET" && request.url === "/health") {
    return answer(response, 200, { ok: true });
  }
  if (request.method !== "POST" || request.url !== "/solve") {
    return answer(response, 404, { error: "no such path" });
  }
  const length = request.headers["content-length"];
  if (!/^[0-9]+$/.test(length || "")) return answer(response, 411, { error: "no length" });
  if (Number(length) > MAX_BODY) return answer(response, 413, { error: "too large" });
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", async () => {
    let fields;
    try {
      fields = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch (e) {
      return answer(response, 400, { error: "not JSON" });
    }
    const error = fieldsError(fields);
    if (error !== null) return answer(response, 400, { error: error });
    try {
      answer(response, 200, { answer: await find(fields.n, fields.priors, fields.token) });
    } catch (e) {
      answer(response, 500, { error: "find raised: " + e.message });
    }
  });
});

server.listen(Number(process.env.AR_WORKER_PORT || 8080),
              process.env.AR_WORKER_HOST || "0.0.0.0", () => {
  const address = server.address();
  process.stderr.write("worker: listening on http://" + address.address + ":" +
                       address.port + "\n");
});
process.on("SIGINT", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
