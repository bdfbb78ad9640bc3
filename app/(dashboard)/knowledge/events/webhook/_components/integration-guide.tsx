import { Fragment } from "react";
import { SectionHeading } from "@/components/ui/section-heading";
import { PLANS, type PlanName } from "@/lib/accounts/plans";
import { snippetsFor } from "@/lib/events-webhook/snippets";
import { SIGNING_TEST_VECTOR } from "@/lib/events-webhook/test-vector";
import { CodeTabs } from "./code-tabs";

const number = new Intl.NumberFormat("en-US");
const OPTIONAL_FIELDS = ["ends_at", "description", "location", "url", "price", "recurring", "status"];

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2.5 sm:grid-cols-[11rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-zinc-900">{term}</dt>
      <dd className="min-w-0 text-sm break-words text-zinc-600">{children}</dd>
    </div>
  );
}

// Secrets, signatures and bodies are long unbroken strings: they may break anywhere rather than widen the page.
const Code = ({ children }: { children: React.ReactNode }) => (
  <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs wrap-anywhere text-zinc-800">{children}</code>
);

export function IntegrationGuide({
  endpointUrl,
  rateLimitPerMinute,
  plan,
}: {
  endpointUrl: string;
  rateLimitPerMinute: number;
  plan: PlanName;
}) {
  const snippets = snippetsFor(endpointUrl);
  const vector = SIGNING_TEST_VECTOR;
  return (
    <section aria-labelledby="integration-guide" className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200">
      <SectionHeading id="integration-guide" title="Integration guide">
        POST a JSON body <Code>{`{"action": "upsert" | "cancel" | "delete", "event": {…}}`}</Code> to the endpoint URL,
        signed with the source&apos;s secret.
      </SectionHeading>
      <dl className="mt-4 divide-y divide-zinc-100">
        <Row term="Headers">
          <Code>Content-Type: application/json</Code>, <Code>X-Service-Timestamp</Code> (Unix seconds) and{" "}
          <Code>X-Service-Signature</Code>.
        </Row>
        <Row term="Signature">
          <Code>sha256=</Code> + lowercase hex HMAC-SHA256 of <Code>timestamp + &quot;.&quot; + raw body</Code>, keyed
          with the signing secret. Sign the exact bytes you send.
        </Row>
        <Row term="Replay window">
          Requests whose timestamp is more than 5 minutes from our clock are rejected with 400. An exact repeat inside
          the window is answered 200 and not processed twice.
        </Row>
        <Row term="Event fields">
          <Code>title</Code> and <Code>starts_at</Code> (ISO 8601 with offset; none means UTC) are required;{" "}
          {OPTIONAL_FIELDS.map((field, index) => (
            <Fragment key={field}>
              {index > 0 ? ", " : null}
              <Code>{field}</Code>
            </Fragment>
          ))}{" "}
          are optional. Cancel and delete identify the event by title, starts_at and location.
        </Row>
        <Row term="Rate limit">
          {number.format(rateLimitPerMinute)} requests per minute for this source; over it you get 429 with{" "}
          <Code>Retry-After</Code>. Retry with exponential backoff.
        </Row>
        <Row term="Plan limit">
          {number.format(PLANS[plan].maxEvents)} events on the {PLANS[plan].label} plan; an upsert that would create
          more gets 403 <Code>plan_limit_reached</Code>.
        </Row>
        <Row term="Test vector">
          Secret <Code>{vector.secret}</Code>, timestamp <Code>{vector.timestamp}</Code> and body{" "}
          <Code>{vector.body}</Code> give <Code>{vector.signature}</Code>.
        </Row>
      </dl>
      <div className="mt-5">
        <CodeTabs
          label="Signing examples"
          samples={[
            { id: "curl", label: "curl + openssl", code: snippets.curl },
            { id: "node", label: "Node.js", code: snippets.node },
            { id: "python", label: "Python", code: snippets.python },
          ]}
        />
        <p className="mt-2 text-xs text-zinc-500">
          The examples read the secret from the <Code>WEBHOOK_SECRET</Code> environment variable.
        </p>
      </div>
    </section>
  );
}
