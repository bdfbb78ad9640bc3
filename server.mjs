// The production server (`npm start` runs it; so do the end-to-end tests and the benchmarks): Next.js for
// pages, actions and every other route, with the public API and webhook hot paths answered straight from
// node:http. Everything per request (fast routes, body limits, client IP, security headers, error
// answers) is TypeScript inside the Next.js bundle, handed over by instrumentation.ts through a versioned
// registry (lib/server/registry.ts). This file only starts Next.js, checks that hand-over and listens.
import http from "node:http";
import next from "next";

const REGISTRY_KEY = Symbol.for("integration-access.production-server");
const REGISTRY_VERSION = 1;

function fail(lines) {
  console.error(["✖ The production server cannot start:", ...lines.map((line) => `  - ${line}`)].join("\n"));
  process.exit(1);
}

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";
const app = next({ dev: false, hostname, port });
await app.prepare();

// Next.js starts instrumentation.ts during prepare() but does not wait for it: give it a bounded moment.
async function waitForRegistry(timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!globalThis[REGISTRY_KEY] && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return globalThis[REGISTRY_KEY];
}
const registry = await waitForRegistry(15_000);
if (!registry || registry.version !== REGISTRY_VERSION || !registry.fastRoutes?.length) {
  fail([
    registry
      ? `the fast-route registry has version ${registry.version} and ` +
        `${registry.fastRoutes?.length ?? 0} routes; this server expects version ${REGISTRY_VERSION} ` +
        `with routes.`
      : "the fast routes were not registered: instrumentation.ts did not run or failed (see the output above).",
    "Rebuild with `npm run build` (or run `npm start`, which rebuilds a stale build) and start again.",
  ]);
}
const problems = registry.preflight(process.env);
if (problems.length > 0) fail(problems);

const server = http.createServer(registry.createRequestListener(app.getRequestHandler()));
registry.configureServer(server);
server.on("error", (error) => fail([`${error.code ?? error.name}: ${error.message}`]));
server.listen(port, hostname, () => {
  console.log(`▸ Fast routes: ${registry.fastRoutes.join(", ")}`);
  console.log(`▸ Listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3_000).unref();
  });
}
