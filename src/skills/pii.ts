// Conservative redaction of personal data and secrets in skill and pack text before it reaches a
// prompt (Penguiflow RFC v0.3 Appendix C): emails, phones, tokens and URL query strings.
//
// Linear time on hostile input. Every pattern below (a) can only start at the beginning of a run
// of its first character class (a lookbehind refuses starts inside a run) and (b) separates its
// quantified parts by characters they cannot contain, so a failed attempt costs at most the length
// of one run and no run is rescanned by many attempts. Keep that shape when adding a pattern.
//
// Idempotent: redacting the output again finds nothing new. Placeholders start with `[`, which no
// pattern takes into a value; a pattern refuses a match glued to one of its own kind; and where a
// later pass could change text that an earlier pass refused (consumed without redacting), the
// refusal happens inside the pattern, so the scan goes on as it would on a second pass. The
// property test in test/unit/pii.test.ts holds this in place.

export interface PiiCounts {
  email: number;
  phone: number;
  token: number;
  url_query: number;
}

const EMAIL_MARK = "[REDACTED_EMAIL]";
const PHONE_MARK = "[REDACTED_PHONE]";
const TOKEN_MARK = "[REDACTED_TOKEN]";

type Pass = (text: string, counts: PiiCounts) => string;

/**
 * Returns the redacted text and how many of each kind were replaced. Only what clearly is an email,
 * a phone number, a credential or a URL query is touched; procedure text (dates, versions, ids,
 * tool names, env var names, placeholders such as `<token>`) stays byte-identical.
 *
 * @example redactPii("Page ops@acme.io, then curl -H 'Authorization: Bearer $TOKEN' https://x.io/a?b=1")
 * // → text "Page [REDACTED_EMAIL], then curl -H 'Authorization: Bearer $TOKEN' https://x.io/a"
 */
export function redactPii(text: string): { text: string; counts: PiiCounts } {
  const counts: PiiCounts = { email: 0, phone: 0, token: 0, url_query: 0 };
  // URLs first: a secret or an email inside a query string goes with the query (one url_query).
  // Phones last: an email's local part or a token may be digits.
  const passes: Pass[] = [
    stripUrlQueries,
    redactUrlPasswords,
    redactPrivateKeys,
    redactTokenShapes,
    redactAuthSchemes,
    redactCurlUser,
    redactSecretAssignments,
    redactEmails,
    redactPhones,
  ];
  let out = text;
  for (const pass of passes) out = pass(out, counts);
  return { text: out, counts };
}

// ---------------------------------------------------------------------------------------------
// URLs

/**
 * An http(s) URL: scheme and path, then an optional tail from the first `?` or `#`. A parenthesis
 * ends it, so markdown links and badges (`[![v](https://img?x=1)](https://pkg)`) keep their
 * targets; URLs with parentheses of their own (Wikipedia) lose their query only up to them.
 */
const HTTP_URL = /(?<![\w+.-])(https?:\/\/[^\s?#"'<>`\\()]*)([?#][^\s"'<>`\\()]*)?/gi;

/** Sentence punctuation after a URL is prose, not part of the query (GitHub's autolinker rule). */
const TRAILING_PUNCTUATION = ".,;:!?*_~";
/**
 * A query of nothing but `?`, such punctuation and closing brackets carries no parameter and is
 * kept: then whether a bracket counts as trailing (it depends on what else the URL holds) cannot
 * change the outcome on a second pass.
 */
const HAS_PARAMETER = /[^.,;:!?*_~\]]/;

/**
 * Strips the query of every http(s) URL, and its fragment when the fragment carries parameters
 * (OAuth implicit flow: `#access_token=…`). We cannot tell user-specific parameters from harmless
 * ones, so every query goes; the path, which the procedure names, stays.
 */
const stripUrlQueries: Pass = (text, counts) =>
  text.replace(HTTP_URL, (match: string, base: string, tail: string | undefined) => {
    if (!tail) return match;
    const { body, trailing } = splitTrailing(base, tail);
    const hash = body.indexOf("#");
    const query = hash === -1 ? body : body.slice(0, hash);
    const fragment = hash === -1 ? "" : body.slice(hash);
    const dropQuery = HAS_PARAMETER.test(query);
    const dropFragment = fragment.includes("=");
    if (!dropQuery && !dropFragment) return match;
    counts.url_query++;
    return base + (dropQuery ? "" : query) + (dropFragment ? "" : fragment) + trailing;
  });

/** Splits sentence punctuation and unbalanced closing brackets (`[https://…?q=1]`) off `tail`. */
function splitTrailing(base: string, tail: string): { body: string; trailing: string } {
  const url = base + tail;
  let brackets = occurrences(url, "[") - occurrences(url, "]");
  let end = tail.length;
  while (end > 1) {
    const c = tail.charAt(end - 1);
    if (TRAILING_PUNCTUATION.includes(c)) {
      end--;
    } else if (c === "]" && brackets < 0) {
      brackets++;
      end--;
    } else {
      break;
    }
  }
  return { body: tail.slice(0, end), trailing: tail.slice(end) };
}

function occurrences(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/**
 * `scheme://user:password@`, any scheme (database URLs are the usual case). The password stops at
 * whatever ends a URL, so redacting it never joins a URL to the text after it.
 */
const URL_PASSWORD = /(?<![\w+.-])([a-z][a-z0-9+.-]*:\/\/[^\s:@/?#"'<>`\\()]*:)([^\s@/?#"'<>`\\()]+)(?=@)/gi;

/** `postgres://app:S3cret@db` → `postgres://app:[REDACTED_TOKEN]@db`; `guest:guest` stays. */
const redactUrlPasswords: Pass = (text, counts) =>
  text.replace(URL_PASSWORD, (match: string, head: string, password: string) => {
    if (!looksLikeSecret(password, MIN_PASSWORD_LENGTH)) return match;
    counts.token++;
    return head + TOKEN_MARK;
  });

// ---------------------------------------------------------------------------------------------
// Tokens and secrets

const MIN_SECRET_LENGTH = 8;
const MIN_PASSWORD_LENGTH = 6;

/**
 * A PEM private key block. The body class has no `-`, so the scan stops at the END line (or the
 * next BEGIN) and never runs on; encrypted legacy PEM headers (`Proc-Type: 4,ENCRYPTED`) contain
 * `-` and are left alone.
 */
const PRIVATE_KEY =
  /(-----BEGIN ([A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----)([A-Za-z0-9+/=:,.\s]*)(-----END \2-----)/g;

const redactPrivateKeys: Pass = (text, counts) =>
  text.replace(PRIVATE_KEY, (match: string, begin: string, _label: string, body: string, end: string) => {
    const content = body.trim();
    if (content.length < 16) return match;
    counts.token++;
    const start = body.indexOf(content);
    return begin + body.slice(0, start) + TOKEN_MARK + body.slice(start + content.length) + end;
  });

/**
 * Credential shapes published by their issuers. `needsDigit` guards the loose prefixes against
 * kebab-case names (`sk-learn-…`); fixed-length shapes are specific enough without it.
 */
const TOKEN_SHAPES: readonly { pattern: RegExp; needsDigit: boolean }[] = [
  // OpenAI (sk-, sk-proj-, sk-svcacct-) and Anthropic (sk-ant-api03-) keys.
  { pattern: /(?<![\w-])sk-[\w-]{20,}/g, needsDigit: true },
  // GitHub classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained tokens.
  { pattern: /(?<![\w-])gh[pousr]_[A-Za-z0-9]{30,}/g, needsDigit: false },
  { pattern: /(?<![\w-])github_pat_\w{30,}/g, needsDigit: false },
  { pattern: /(?<![\w-])glpat-[\w-]{20,}/g, needsDigit: true },
  // Slack bot, user, app and refresh tokens.
  { pattern: /(?<![\w-])xox[abposr]-[A-Za-z0-9-]{10,}/g, needsDigit: true },
  // AWS access key ids (long-term AKIA, temporary ASIA).
  { pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g, needsDigit: false },
  { pattern: /(?<![\w-])AIza[\w-]{35}(?![\w-])/g, needsDigit: false },
  // Stripe secret, restricted and publishable keys, live and test.
  { pattern: /(?<![\w-])[srp]k_(?:live|test)_[A-Za-z0-9]{10,}/g, needsDigit: false },
  { pattern: /(?<![\w-])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, needsDigit: false },
  // JWTs: base64url of `{"` is `eyJ`, for the header and the payload.
  { pattern: /(?<![\w-])eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*/g, needsDigit: false },
];

const redactTokenShapes: Pass = (text, counts) => {
  let out = text;
  for (const { pattern, needsDigit } of TOKEN_SHAPES) {
    out = out.replace(pattern, (match: string) => {
      if (isPlaceholder(match) || (needsDigit && !/\d/.test(match))) return match;
      counts.token++;
      return TOKEN_MARK;
    });
  }
  return out;
};

/**
 * `Bearer <credential>`, `Basic <credential>`, and `Authorization: Token|Bot <credential>` (GitHub,
 * Discord). The scheme stays so the instruction still reads as an auth header.
 */
const AUTH_SCHEME =
  /(?<![\w-])(Bearer|Basic|(?:Token|Bot)(?<=Authorization:[ \t]*\w+))([ \t]+)([\w.~+/-]+=*)/gi;

const redactAuthSchemes: Pass = (text, counts) =>
  text.replace(AUTH_SCHEME, (match: string, scheme: string, space: string, value: string) => {
    const secret =
      scheme.toLowerCase() === "basic" ? isBasicCredential(value) : looksLikeSecret(value, MIN_SECRET_LENGTH);
    if (!secret) return match;
    counts.token++;
    return scheme + space + TOKEN_MARK;
  });

/** Basic credentials are base64 of `user:password`; decoding tells them from the word "Basic". */
function isBasicCredential(value: string): boolean {
  try {
    return /^[\x21-\x39\x3b-\x7e]+:[\x20-\x7e]+$/.test(atob(value));
  } catch {
    return false;
  }
}

/** `curl -u user:password` (and `--user`). A user is never a placeholder (`[REDACTED_PHONE]`). */
const CURL_USER = /(?<![\w-])(-u|--user)([ \t]+|=)(["']?[^\s:"'`[]+:)([^\s"'`]+)/g;

const redactCurlUser: Pass = (text, counts) =>
  text.replace(CURL_USER, (match: string, flag: string, sep: string, user: string, password: string) => {
    if (!looksLikeSecret(password, MIN_PASSWORD_LENGTH)) return match;
    counts.token++;
    return flag + sep + user + TOKEN_MARK;
  });

/**
 * `key: value`, `key=value`, `"key": "value"`, `--flag value` and `--flag=value`. Whether the key
 * names a secret is decided in code (see `isSecretKey`), not in the pattern: a keyword alternation
 * inside a run of name characters would backtrack quadratically.
 *
 * A quoted value runs to its closing quote (without whitespace: quoted prose is no secret). An
 * unquoted value must end at a terminator: one followed by `:`, `=` or an opening bracket is part of
 * something else (`ts: 2026-11-22T10:00`, `foo: token=…`, `key=get_key(…)`) and must not be
 * consumed, so the next key can still be found. `[` is no terminator, so a value next to a
 * placeholder never matches on a second pass.
 */
const SECRET_ASSIGNMENT =
  /(?<![\w.-])(?:(--?[A-Za-z][\w-]*)(=|[ \t]+)|([A-Za-z][\w.-]*)(["']?[ \t]*[:=][ \t]*))(?!-)("[^\s"]+"|'[^\s']+'|[^\s"'`,;:=()[\]{}<>&|\\]+=*(?=[\s"'`,;)\]}>&|\\]|$))/g;

/**
 * Like `text.replace(SECRET_ASSIGNMENT, …)`, except that a refused match gives its value back: the
 * scan resumes after the separator, so a key inside a value (`secret=a#--token x1y2…`) is still
 * found, and later passes changing that value cannot change what a second pass finds.
 */
const redactSecretAssignments: Pass = (text, counts) => {
  const pattern = new RegExp(SECRET_ASSIGNMENT);
  let out = "";
  let done = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const [match, flag, flagSep, key, keySep, value = ""] = m;
    const head = (flag ?? key ?? "") + (flagSep ?? keySep ?? "");
    if (!isSecretAssignment(flag ?? key ?? "", value)) {
      pattern.lastIndex = m.index + head.length;
      continue;
    }
    const quote = /^["']/.test(value) ? value.charAt(0) : "";
    out += text.slice(done, m.index) + head + quote + TOKEN_MARK + quote;
    done = m.index + match.length;
    counts.token++;
  }
  return out + text.slice(done);
};

/** Longer "keys" are runs of text, not names; splitting them into words would only cost time. */
const MAX_KEY_LENGTH = 128;

function isSecretAssignment(name: string, value: string): boolean {
  if (name.length > MAX_KEY_LENGTH) return false;
  const secret = /^["']/.test(value) ? value.slice(1, -1) : value;
  const min = PASSWORD_WORDS.has(keyWords(name).at(-1) ?? "") ? MIN_PASSWORD_LENGTH : MIN_SECRET_LENGTH;
  return isSecretKey(name) && looksLikeSecret(secret, min);
}

const wordSet = (list: string) => new Set(list.split(" "));
const PASSWORD_WORDS = wordSet("password passwd passphrase");
const SECRET_WORDS = wordSet(
  "password passwd passphrase token secret apikey credential credentials authorization",
);
/** Words that make a trailing `key` a credential (`api_key`, `SECRET_KEY`), unlike `ssh_key` paths. */
const KEY_QUALIFIERS = wordSet(
  "api access secret private client signing encryption master auth license subscription admin role",
);

/** `X-Api-Key` → ["x", "api", "key"]; `--githubToken` → ["github", "token"]. */
function keyWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter((w) => w !== "");
}

/**
 * The key's last word names the secret itself: `access_token`, `DB_PASSWORD`, `X-API-Key`. Keys about
 * a secret (`max_tokens`, `token_url`, `secret_name`, `password_min_length`) end in another word.
 */
function isSecretKey(name: string): boolean {
  const words = keyWords(name);
  const last = words.at(-1);
  const before = words.at(-2);
  if (last === undefined) return false;
  return SECRET_WORDS.has(last) || (last === "key" && before !== undefined && KEY_QUALIFIERS.has(before));
}

/** Filler and references standing for a secret: `<your-key>`, `${API_KEY}`, `YOUR_KEY`, `xxxx`, `...`. */
const PLACEHOLDER =
  /^[<$%{[]|x{4,}|\*{3,}|\.{3}|…|your|placeholder|change_?me|replace|redacted|dummy|(.)\1{7,}/i;
/** Env var names used as values: `OPENAI_API_KEY`, `API_KEY_2`. */
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/**
 * Values with digits that are not secrets: dates and timestamps, versions, durations and sizes,
 * paths, URLs (their passwords have a pass of their own) and AWS ARNs.
 */
const NOT_SECRET =
  /^(?:\d{4}-\d{2}-\d{2}|v?\d+\.\d+|\d+(?:\.\d+)?[a-z]{1,3}$|(?:~|\.\.?)?\/[\w.-]*\/|[a-z][a-z0-9+.-]*:\/\/|arn:)/i;

function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || ENV_NAME.test(value);
}

/**
 * Secrets are random: letters and digits mixed. Requiring both keeps words (`changeme`, `Bearer`),
 * numbers (`4096`), identifiers (`process.env.TOKEN`) and placeholders out. Secrets without a digit
 * are missed on purpose: at 32 base64 characters that is under 0.5% of random keys.
 */
function looksLikeSecret(value: string, minLength: number): boolean {
  return (
    value.length >= minLength &&
    /\d/.test(value) &&
    /[A-Za-z]/.test(value) &&
    !isPlaceholder(value) &&
    !NOT_SECRET.test(value)
  );
}

// ---------------------------------------------------------------------------------------------
// Emails

/**
 * An email, or a URL authority with user info (`https://user@host`, `ssh://git@github.com`), which
 * is matched only to be skipped: the scan then resumes after the `@`. The local part cannot start
 * inside a run of local-part characters. An address glued to more address characters
 * (`a@b.io+c@d.io`, `a@b.io.x`, but not a sentence's full stop) cannot be delimited and does not
 * match; refusing it in the pattern rather than in code lets the scan retry from the next position
 * (`c@d.io`), as a second pass would after the front had been redacted.
 */
const EMAIL =
  /(?<![\w+.-])[a-z][a-z0-9+.-]*:\/\/[^\s/?#@"'<>`]*@|(?<![\w.%+-])[\w.%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+(?![\w%+@-]|\.(?![\s)\]}>"'`,;:!?]|$))/gi;

/** `icon@2x.png` and `sprite@3x.webp` are asset names, not addresses. */
const FILE_EXTENSIONS = wordSet(
  "png jpg jpeg gif svg webp ico avif js mjs cjs ts tsx jsx json yaml yml toml md txt css scss html htm " +
    "py rb go rs java sh log csv xml zip gz tgz tar pdf lock wasm",
);

/**
 * Every address is redacted, `user@example.com` included: a rule that knew "example" domains would
 * still miss `jane@acme.example`-style fixtures, and the procedure reads the same either way.
 */
const redactEmails: Pass = (text, counts) =>
  text.replace(EMAIL, (match: string, offset: number, input: string) => {
    if (match.endsWith("@")) return match; // URL user info
    const tld = match.slice(match.lastIndexOf(".") + 1);
    if (!/^[a-z]{2,}$/i.test(tld) || FILE_EXTENSIONS.has(tld.toLowerCase())) return match;
    const end = offset + match.length;
    // `git@github.com:org/repo.git` is an scp-style remote, not an address.
    if (input.charAt(end) === ":" && /\S/.test(input.charAt(end + 1))) return match;
    counts.email++;
    return EMAIL_MARK;
  });

// ---------------------------------------------------------------------------------------------
// Phones

/**
 * One pattern for both forms, so a candidate that is refused (too many digits) keeps the numbers
 * inside it from matching alone; a second pass sees the same candidate and refuses it again.
 *
 * International: `+`, the country code, an optional parenthesised group (`+1 (415)`, `+44 (0)20`),
 * then groups split by one separator (` `, `.`, `-`). North American: `(415) 555-0134`,
 * `415-555-0134`, `1-800-555-0199`. Digit runs and separators alternate, so the pattern is
 * unambiguous. The lookarounds refuse a number glued to a word, a `+`, a `-` (`…0134--token`, which
 * the placeholder would unglue on a second pass) or another group.
 */
const PHONE =
  /(?:(?<![\w+])\+\d+(?:[ .-]?\(\d+\)[ .-]?\d+)?(?:[ .-]\d+)*|(?<![\w.+-])(?:1[.-])?(?:\(\d{3}\) ?|\d{3}[.-])\d{3}[.-]\d{4})(?![\w(+-]|\.\d)/g;

/**
 * Bare digit runs (`1234567890`) are ids, not phones; vanity numbers (`1-800-FLOWERS`) and national
 * formats other than North America's (`020 7946 0958`) stay, since without a `+` they look like any
 * other grouped number.
 */
const redactPhones: Pass = (text, counts) =>
  text.replace(PHONE, (match: string, offset: number, input: string) => {
    const valid = match.startsWith("+") ? isInternationalPhone(match) : true;
    if (!valid || !standsApart(match, offset, input)) return match;
    counts.phone++;
    return PHONE_MARK;
  });

/**
 * A number with spaces or parentheses in it must start a word (after whitespace, a quote, or a
 * bracket that does). Otherwise it may start inside a URL (`https://x.io/:(415)555-0134?q=1`), which
 * ends at a space or a parenthesis; the placeholder would remove it and change the URL on a second
 * pass.
 */
function standsApart(match: string, offset: number, input: string): boolean {
  if (offset === 0 || !/[\s()]/.test(match)) return true;
  const before = input.charAt(offset - 1);
  if (/[\s"'<>`]/.test(before)) return true;
  return (before === "(" || before === "[") && (offset === 1 || /\s/.test(input.charAt(offset - 2)));
}

/**
 * E.164 allows 8–15 digits in practice. After the country code and the first group, a one-digit
 * group means a list or a version (`+1.2.3.4.5.6.7.8`), not a number.
 */
function isInternationalPhone(candidate: string): boolean {
  if (candidate.length > 32) return false; // 15 digits and their separators; spares a long split
  const groups = candidate.match(/\d+/g) ?? [];
  const digits = groups.reduce((n, g) => n + g.length, 0);
  return digits >= 8 && digits <= 15 && groups.slice(2).every((g) => g.length >= 2);
}
