// PII redaction for prompt-bound skill text: what it replaces, what it must leave byte-identical,
// idempotence, and linear time on hostile input (Penguiflow RFC v0.3 Appendix C).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type PiiCounts, redactPii } from "../../src/skills/pii";

const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

/** [what it is, input, expected output] */
const SHOULD_REDACT: readonly (readonly [string, string, string])[] = [
  [
    "an email in prose",
    "Escalate to jane.doe@acme.io if the rollback fails.",
    "Escalate to [REDACTED_EMAIL] if the rollback fails.",
  ],
  [
    "an example.com address (treated like any other)",
    "Contact: user@example.com",
    "Contact: [REDACTED_EMAIL]",
  ],
  [
    "a mailto link with a plus address",
    '<a href="mailto:oncall+pager@acme-corp.co.uk">page us</a>',
    '<a href="mailto:[REDACTED_EMAIL]">page us</a>',
  ],
  [
    "an email in a log line",
    "2026-11-22T10:04:11Z WARN login failed user=ops.admin@acme.io ip=10.0.3.7 attempt=3",
    "2026-11-22T10:04:11Z WARN login failed user=[REDACTED_EMAIL] ip=10.0.3.7 attempt=3",
  ],
  [
    "an email in a SQL literal",
    "SELECT id FROM users WHERE email = 'j.smith@acme.io' LIMIT 1;",
    "SELECT id FROM users WHERE email = '[REDACTED_EMAIL]' LIMIT 1;",
  ],
  [
    "an email in a URL path",
    "GET https://api.acme.io/v1/users/jane@acme.io/sessions",
    "GET https://api.acme.io/v1/users/[REDACTED_EMAIL]/sessions",
  ],
  [
    "a US number with country code and parentheses",
    "Call the on-call phone +1 (415) 555-0134 after 22:00.",
    "Call the on-call phone [REDACTED_PHONE] after 22:00.",
  ],
  ["a UK number", "London desk: +44 20 7946 0958", "London desk: [REDACTED_PHONE]"],
  ["a UK number with trunk prefix", "Office +44 (0)20 7946 0958.", "Office [REDACTED_PHONE]."],
  ["a German number", "Berlin: +49 30 901820.", "Berlin: [REDACTED_PHONE]."],
  ["an E.164 number in a tel link", "[call](tel:+14155550134)", "[call](tel:[REDACTED_PHONE])"],
  [
    "national US numbers with each separator",
    "Fax (415) 555-0134, cell 415-555-0199, desk 415.555.0100",
    "Fax [REDACTED_PHONE], cell [REDACTED_PHONE], desk [REDACTED_PHONE]",
  ],
  ["a toll-free number", "Support hotline: 1-800-555-0199", "Support hotline: [REDACTED_PHONE]"],
  [
    "a JWT bearer token in a curl header",
    `curl -H "Authorization: Bearer ${JWT}" https://api.acme.io/v1/me`,
    'curl -H "Authorization: Bearer [REDACTED_TOKEN]" https://api.acme.io/v1/me',
  ],
  [
    "an opaque bearer token",
    "curl -H 'authorization: bearer 8f2a9c1e7b3d4f60a5e9c2b7d1f3a8e4' $API/v1/jobs",
    "curl -H 'authorization: bearer [REDACTED_TOKEN]' $API/v1/jobs",
  ],
  [
    "Basic credentials (base64 of user:password)",
    "Authorization: Basic YWRtaW46aHVudGVyMg==",
    "Authorization: Basic [REDACTED_TOKEN]",
  ],
  [
    "a GitHub token after the token scheme",
    "Authorization: token ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "Authorization: token [REDACTED_TOKEN]",
  ],
  [
    "an OpenAI project key in an export",
    "export OPENAI_API_KEY=sk-proj-Ab12Cd34Ef56Gh78Ij90KlMnOpQrSt",
    "export OPENAI_API_KEY=[REDACTED_TOKEN]",
  ],
  [
    "an Anthropic key in a .env line",
    'ANTHROPIC_API_KEY="sk-ant-api03-AbCdEf0123456789AbCdEf0123456789"',
    'ANTHROPIC_API_KEY="[REDACTED_TOKEN]"',
  ],
  [
    "a GitHub installation token in a remote URL",
    "git remote set-url origin https://x-access-token:ghs_16C7e42F292c6912E7710c838347Ae178B4a@github.com/acme/api.git",
    "git remote set-url origin https://x-access-token:[REDACTED_TOKEN]@github.com/acme/api.git",
  ],
  [
    "a fine-grained GitHub token",
    "gh auth login --with-token <<< github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH",
    "gh auth login --with-token <<< [REDACTED_TOKEN]",
  ],
  [
    "a Slack bot token",
    "SLACK_BOT_TOKEN=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "SLACK_BOT_TOKEN=[REDACTED_TOKEN]",
  ],
  [
    "AWS credentials in a credentials file",
    "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "[default]\naws_access_key_id = [REDACTED_TOKEN]\naws_secret_access_key = [REDACTED_TOKEN]",
  ],
  [
    "a Google API key in YAML",
    "GOOGLE_API_KEY: AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
    "GOOGLE_API_KEY: [REDACTED_TOKEN]",
  ],
  [
    "a Stripe live key in code",
    'stripe.api_key = "sk_live_51H8xYzAbCdEfGh12345678"',
    'stripe.api_key = "[REDACTED_TOKEN]"',
  ],
  [
    "an npm token in npm config",
    "npm config set //registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "npm config set //registry.npmjs.org/:_authToken=[REDACTED_TOKEN]",
  ],
  [
    "an API key header",
    'curl -H "X-API-Key: 3f9a7c2e1b8d4f6a" https://api.acme.io/v2/orders',
    'curl -H "X-API-Key: [REDACTED_TOKEN]" https://api.acme.io/v2/orders',
  ],
  [
    "a database password in a connection string",
    "DATABASE_URL=postgres://app:Zq8vR2mX9pL4@db.internal:5432/orders",
    "DATABASE_URL=postgres://app:[REDACTED_TOKEN]@db.internal:5432/orders",
  ],
  [
    "a curl -u password",
    "curl -u elastic:S3cr3t!Pass https://es.internal:9200/_cluster/health",
    "curl -u elastic:[REDACTED_TOKEN] https://es.internal:9200/_cluster/health",
  ],
  [
    "a kubectl literal secret",
    "kubectl create secret generic api --from-literal=api-token=c2VjcmV0LXRva2VuLTEyMw",
    "kubectl create secret generic api --from-literal=api-token=[REDACTED_TOKEN]",
  ],
  [
    "an access token in a JSON response",
    '{"access_token":"ya29.a0AfH6SMBx3kLq9Zt7Wc2Vn8Rm","token_type":"Bearer","expires_in":3599}',
    '{"access_token":"[REDACTED_TOKEN]","token_type":"Bearer","expires_in":3599}',
  ],
  ["a quoted password with symbols", 'password: "Tr0ub4dor&3"', 'password: "[REDACTED_TOKEN]"'],
  [
    "a password flag",
    "mysql --user=app --password=Pa55w0rd! orders",
    "mysql --user=app --password=[REDACTED_TOKEN] orders",
  ],
  [
    "a PEM private key, keeping its armour lines",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq9Xk2Lm4N5o6P7q8R9s0T1u2V3w4X5y6Z7a8B9c0D1e2F3\ng4H5i6J7k8L9m0N1o2P3q4R5s6T7u8V9w0X1y2Z3==\n-----END RSA PRIVATE KEY-----",
    "-----BEGIN RSA PRIVATE KEY-----\n[REDACTED_TOKEN]\n-----END RSA PRIVATE KEY-----",
  ],
  [
    "a URL query string",
    "curl 'https://api.acme.io/v1/search?q=refund&customer=cus_9s8d7f&api_key=abc123'",
    "curl 'https://api.acme.io/v1/search'",
  ],
  [
    "a query in a markdown link, keeping the link syntax",
    "[dashboard](https://grafana.acme.io/d/abc123/api?orgId=1&from=now-6h).",
    "[dashboard](https://grafana.acme.io/d/abc123/api).",
  ],
  [
    "a badge query, keeping the badge's link target",
    "[![npm](https://img.shields.io/npm/v/@acme/sdk?color=a1b858&label=)](https://npmjs.com/package/@acme/sdk)",
    "[![npm](https://img.shields.io/npm/v/@acme/sdk)](https://npmjs.com/package/@acme/sdk)",
  ],
  [
    "an OAuth implicit-flow fragment",
    "Redirects to https://app.acme.io/callback#access_token=ya29.a0AfH6&token_type=Bearer&expires_in=3599",
    "Redirects to https://app.acme.io/callback",
  ],
  [
    "a query before a plain fragment, keeping the fragment",
    "See https://docs.acme.io/guide?ref=jane#rollback for details.",
    "See https://docs.acme.io/guide#rollback for details.",
  ],
];

/** Procedure text from runbooks and skills that must come back byte-identical. */
const MUST_KEEP: readonly string[] = [
  "Retry 3 times with exponential backoff (1s, 2s, 4s), then give up.",
  "Page size is limited to 1..20; the API answers HTTP 429 above 5000 ms of CPU.",
  "Maintenance window: 2026-11-22 22:00–23:30 UTC (22/11/2026, 11/22/2026).",
  "2026-11-22T10:04:11.512Z INFO request_id=550e8400-e29b-41d4-a716-446655440000 status=200 duration_ms=5000",
  "Upgrade to v2.10.0 (from 1.2.3); semver range ^1.2.3 || >=2.0.0 <3; build 1.2.3-beta.1+build.5",
  "kubectl -n prod port-forward svc/api 8080:80 && curl http://127.0.0.1:8080/healthz",
  "ssh deploy@10.0.3.7 -p 2222 'sudo systemctl restart api'",
  "git clone git@github.com:acme/api.git && git checkout 9fceb02d0ae598e95dc970b74767f19372d61af8",
  "Expected digest sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "Link the incident INC-12345 to JIRA-1234 and to order #98765432.",
  "Call github.create_issue, then mcp__linear__create_comment with the issue id.",
  '@app.route("/users/<int:user_id>")\ndef get_user(user_id): ...',
  "npm install @cloudflare/workers-types@4.20260702.1 @types/node@20.19.43 lodash@^4.17.21",
  "Ping @oncall-sre in #incidents and cc @platform/leads.",
  "const key = process.env.OPENAI_API_KEY; // never hard-code $OPENAI_API_KEY",
  'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user',
  "Send `Authorization: Bearer <token>` with every request.",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: skill text quoting a JS template literal
  "fetch(url, { headers: { Authorization: `Bearer ${token}` } })",
  "Authorization: Bearer {{access_token}}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder in config text
  "api_key=YOUR_API_KEY\nOPENAI_API_KEY=<your-key>\npassword: ${DB_PASSWORD}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression
  "token: ${{ secrets.GITHUB_TOKEN }}",
  "export API_KEY=xxx  # or sk-... from the dashboard; GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  'schedule: "*/15 * * * *"  # every 15 minutes; 0 3 * * 1-5 on weekdays',
  "max_tokens: 4096\ntemperature: 0.2\ntoken_ttl_seconds: 3600\ntokenizer: cl100k_base",
  "password_min_length: 12\nsecret_name: prod/db-credentials-2\ntoken_url: https://auth.acme.io/oauth/token",
  "SELECT count(*) FROM orders WHERE created_at > now() - interval '7 days' LIMIT 100;",
  'Traceback (most recent call last):\n  File "/usr/lib/python3.11/site-packages/requests/api.py", line 59, in request',
  "    at Object.<anonymous> (/app/src/index.js:42:13)\n    at Module._compile (node:internal/modules/cjs/loader:1256:14)",
  "Listen on 0.0.0.0:8443, upstream 10.0.12.34:5432, IPv6 [2001:db8::1]:443",
  "Open https://grafana.acme.io/d/api-latency/overview#panel-4 and compare p99.",
  "![sequence diagram](./docs/img/flow@2x.png)",
  "Disk usage 87%: run `du -sh /var/lib/docker/*` and `docker system prune -f`.",
  "Account 1234567890123 is the parent; bare numbers like 4155550134 are ids, not phones.",
  "The refresh token expires after 90 days; Basic authentication is not accepted.",
  "Hex color #1a2b3c, address 0x7fffffff, MAC 00:1A:2B:3C:4D:5E.",
  "```yaml\nreplicas: 3\nimage: ghcr.io/acme/api@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n```",
  "Fill in {{user.email}} and {{token}} from the template.",
  "The vanity line 1-800-FLOWERS is not a phone we track.",
  "Local broker: amqp://guest:guest@localhost:5672 (default credentials).",
  "aws secretsmanager get-secret-value --secret-id prod/api-key --query SecretString",
  "UTC offset +05:30; diff stat +12 -4; vote +1",
  "timeout=30s retries=5 backoff_ms=250 page_token=",
  "Set `token: <paste here>` in config.yaml, then `password: changeme` for local dev only.",
  "The matrix product a @ b.T is written a@b.T in NumPy.",
  '"secret": "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db"',
  "| status | count |\n|--------|-------|\n| 500    | 12    |\n| 503    | 3     |",
  "Use scikit's sk-learn-style pipelines; task-queue-worker-pool-size-default is 8.",
  "See [the API docs](https://docs.acme.io/api/errors) and https://status.acme.io/.",
  "Background: https://en.wikipedia.org/wiki/Exponential_backoff_(algorithm) and RFC 9110 §15.5.20.",
];

const ZERO: PiiCounts = { email: 0, phone: 0, token: 0, url_query: 0 };

describe("redactPii on real-world text", () => {
  it("counts what it redacts in each case, and leaves each redacted text as it is", () => {
    for (const [what, input, expected] of SHOULD_REDACT) {
      expect(
        Object.values(redactPii(input).counts).some((n) => n > 0),
        what,
      ).toBe(true);
      expect(redactPii(expected), what).toEqual({ text: expected, counts: ZERO });
    }
  });

  it.each(SHOULD_REDACT)("redacts %s", (_what, input, expected) => {
    expect(redactPii(input).text).toBe(expected);
  });

  it.each(MUST_KEEP)("leaves procedure text unchanged: %s", (input) => {
    expect(redactPii(input)).toEqual({ text: input, counts: ZERO });
  });
});

describe("redactPii counts", () => {
  it("counts each replacement by kind, and a URL once however many parameters it had", () => {
    const { counts } = redactPii(
      [
        "Mail a@acme.io and b@acme.io, call +1 415 555 0134.",
        `Authorization: Bearer ${JWT}`,
        "export GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "https://x.acme.io/a?b=1&c=2&d=3 and https://x.acme.io/cb#id_token=abc",
      ].join("\n"),
    );
    expect(counts).toEqual({ email: 2, phone: 1, token: 2, url_query: 2 });
  });

  it("counts a secret inside a query string as the query it goes with", () => {
    const result = redactPii(
      "https://hooks.acme.io/in?token=sk-proj-Ab12Cd34Ef56Gh78Ij90KlMnOp&to=a@acme.io",
    );
    expect(result).toEqual({ text: "https://hooks.acme.io/in", counts: { ...ZERO, url_query: 1 } });
  });
});

const SKILL_BODY = `# Rotate the payments API key

Use when the payments API answers 401 after a deploy, or on the quarterly rotation (next: 2026-11-22).

## Before you start
- You need the \`payments-admin\` role; ask in #payments or page the owner, Dana Whitfield (dana.whitfield@acme.io, +1 (415) 555-0134).
- Current version: v2.10.0. Runbook ticket: PAY-4821.

## Steps
1. Check the current key works:
   \`\`\`bash
   curl -sS -H "Authorization: Bearer sk_live_51Hx9sKJz2eZvKYlo2C8aF3mQ" \\
     "https://api.payments.acme.io/v1/balance?expand=pending&account=acct_1Hx9sK"
   \`\`\`
2. Create a new key in the dashboard and store it:
   \`\`\`bash
   export PAYMENTS_API_KEY=<new-key>
   kubectl -n payments create secret generic payments-api \\
     --from-literal=api-key="$PAYMENTS_API_KEY" --dry-run=client -o yaml | kubectl apply -f -
   \`\`\`
3. Restart with \`kubectl -n payments rollout restart deploy/payments-api\`; wait until 3/3 pods are Ready (about 90 s).
4. Log the rotation with \`github.create_issue\`; retry 3 times at most.

## Config reference
\`\`\`yaml
payments:
  base_url: https://api.payments.acme.io/v1
  timeout_ms: 5000
  max_retries: 3
  webhook_secret: whsec_8a7b6c5d4e3f2a1b0c9d8e7f
  api_key: \${PAYMENTS_API_KEY}
\`\`\`

## If it fails
- 429 from the API: back off 5000 ms and retry.
- Webhook signatures fail: the signing secret is on the dashboard, not the API key.
- Escalate to payments-oncall@acme.io.
`;

describe("redactPii on a whole skill body", () => {
  it("changes exactly the secrets and leaves every other line byte-identical", () => {
    const { text, counts } = redactPii(SKILL_BODY);
    const before = SKILL_BODY.split("\n");
    const after = text.split("\n");
    expect(after).toHaveLength(before.length);

    const changed = before.flatMap((line, i) => (line === after[i] ? [] : [[line, after[i]]]));
    expect(changed).toEqual([
      [
        "- You need the `payments-admin` role; ask in #payments or page the owner, Dana Whitfield (dana.whitfield@acme.io, +1 (415) 555-0134).",
        "- You need the `payments-admin` role; ask in #payments or page the owner, Dana Whitfield ([REDACTED_EMAIL], [REDACTED_PHONE]).",
      ],
      [
        '   curl -sS -H "Authorization: Bearer sk_live_51Hx9sKJz2eZvKYlo2C8aF3mQ" \\',
        '   curl -sS -H "Authorization: Bearer [REDACTED_TOKEN]" \\',
      ],
      [
        '     "https://api.payments.acme.io/v1/balance?expand=pending&account=acct_1Hx9sK"',
        '     "https://api.payments.acme.io/v1/balance"',
      ],
      ["  webhook_secret: whsec_8a7b6c5d4e3f2a1b0c9d8e7f", "  webhook_secret: [REDACTED_TOKEN]"],
      ["- Escalate to payments-oncall@acme.io.", "- Escalate to [REDACTED_EMAIL]."],
    ]);
    expect(counts).toEqual({ email: 2, phone: 1, token: 2, url_query: 1 });
  });
});

describe("redactPii on hostile input", () => {
  const SIZE = 200_000;
  const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length));

  // Each input would take minutes with a quadratic pattern; finishing within the test timeout is
  // the check (no wall-clock assertion), and the output must still be right.
  const UNCHANGED: readonly (readonly [string, string])[] = [
    ["a long local part with no domain", `${"a".repeat(SIZE)}@`],
    ["a domain of endless labels", `a@${fill("a.")}`],
    ["a run of dots before an @", `${".".repeat(SIZE)}@`],
    // No address in "a@a.aa@a.aa@…" can be delimited: each runs into the next.
    ["glued addresses", fill("a@a.a")],
    ["digits", "1".repeat(SIZE)],
    ["repeated +1", fill("+1 ")],
    ["repeated +1-", fill("+1-")],
    ["repeated digit groups", `+12${fill(" 34")}x`],
    ["repeated area codes", fill("(415) ")],
    ["repeated https://", fill("https://")],
    ["repeated token=", fill("token=")],
    ["a key with an endless unterminated value", `token: ${fill("a1")}:`],
    ["repeated flags", fill("--token ")],
    ["repeated Bearer", fill("Bearer ")],
    ["spaces before a scheme", `Authorization:${" ".repeat(SIZE)}Token`],
    ["repeated sk-", fill("sk-")],
    ["repeated eyJ", fill("eyJ")],
    ["repeated BEGIN armour", fill("-----BEGIN PRIVATE KEY-----")],
    ["an endless user info", `a://u:${"p".repeat(SIZE)}`],
    ["repeated scheme-like colons", `x://${fill("a:")}`],
  ];

  it.each(UNCHANGED)("finishes and changes nothing on %s", (_what, input) => {
    expect(redactPii(input)).toEqual({ text: input, counts: ZERO });
  });

  it("finishes on a URL with a huge query and strips it once", () => {
    expect(redactPii(`https://x.acme.io/a?${fill("b=1&")}`)).toEqual({
      text: "https://x.acme.io/a",
      counts: { ...ZERO, url_query: 1 },
    });
  });

  it("finishes on many emails and phones and redacts each", () => {
    const emails = fill("x@y.io ");
    const n = emails.length / "x@y.io ".length;
    expect(redactPii(emails)).toEqual({
      text: "[REDACTED_EMAIL] ".repeat(n),
      counts: { ...ZERO, email: n },
    });
    const phones = fill("415-555-0134 ");
    expect(redactPii(phones).counts.phone).toBe(phones.length / "415-555-0134 ".length);
  });
});

/** Pieces of text that, glued in any order, make contact details, secrets, URLs and near misses. */
const FRAGMENTS = [
  "a@b.co",
  "jane.doe+x@acme.io",
  "@",
  ".",
  "+",
  "+1 ",
  "415",
  "-",
  "555",
  "0134",
  "(",
  ")",
  " ",
  "\n",
  "https://",
  "x.io/p",
  "?",
  "#",
  "=",
  "&",
  ":",
  "//",
  "token",
  "password",
  "api_key",
  "--token ",
  "Bearer ",
  "Basic ",
  "Authorization: ",
  "YWRtaW46aHVudGVyMg==",
  "abc123def456ghi789",
  "sk-proj-Ab12Cd34Ef56Gh78Ij90",
  "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
  "AKIAIOSFODNN7EXAMPLE",
  JWT,
  "-----BEGIN PRIVATE KEY-----",
  "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
  "-----END PRIVATE KEY-----",
  "git@github.com:",
  "-u ",
  '"',
  "'",
  "[REDACTED_EMAIL]",
  "[REDACTED_TOKEN]",
  "x",
  "1",
  "_",
];

const textFrom = (fragments: readonly string[]) =>
  fc
    .array(fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 3 })), { maxLength: 40 })
    .map((parts) => parts.join(""));
const textFromFragments = textFrom(FRAGMENTS);

const occurrencesOf = (text: string, mark: string) => text.split(mark).length - 1;

describe("redactPii properties", () => {
  it("is idempotent", () => {
    fc.assert(
      fc.property(textFromFragments, (input) => {
        const once = redactPii(input).text;
        expect(redactPii(once)).toEqual({ text: once, counts: ZERO });
      }),
      { numRuns: 3000 },
    );
  });

  it("counts exactly the placeholders it adds", () => {
    // Without placeholders in the input: a stripped query may take one away.
    const fresh = textFrom(FRAGMENTS.filter((f) => !f.startsWith("[REDACTED_")));
    fc.assert(
      fc.property(fresh, (input) => {
        const { text, counts } = redactPii(input);
        const added = (mark: string) => occurrencesOf(text, mark) - occurrencesOf(input, mark);
        expect(added("[REDACTED_EMAIL]")).toBe(counts.email);
        expect(added("[REDACTED_PHONE]")).toBe(counts.phone);
        expect(added("[REDACTED_TOKEN]")).toBe(counts.token);
      }),
      { numRuns: 1000 },
    );
  });

  it("leaves any arrangement of procedure vocabulary unchanged", () => {
    const words = fc.constantFrom(
      "retry",
      "3",
      "times",
      "2026-11-22",
      "10:30:00",
      "v2.10.0",
      "1.2.3",
      "INC-12345",
      "HTTP",
      "429",
      "5000",
      "ms",
      "github.create_issue",
      "$API_KEY",
      "<token>",
      "{{token}}",
      "@oncall",
      "@scope/pkg",
      "192.168.0.1:8080",
      "550e8400-e29b-41d4-a716-446655440000",
      "9fceb02d0ae598e95dc970b74767f19372d61af8",
      "*/5",
      "*",
      "max_tokens:",
      "token",
      "changeme",
      "https://docs.acme.io/a/b",
      "`kubectl`",
      "-",
      "#",
    );
    const text = fc
      .array(fc.tuple(words, fc.constantFrom(" ", "\n", ", ")), { maxLength: 30 })
      .map((pairs) => pairs.map(([w, sep]) => w + sep).join(""));
    fc.assert(
      fc.property(text, (input) => {
        expect(redactPii(input)).toEqual({ text: input, counts: ZERO });
      }),
      { numRuns: 1000 },
    );
  });
});
