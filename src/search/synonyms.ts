// Word lists for search normalization: stopwords and synonym groups. Applied identically to
// documents and queries, so a synonym never creates a mismatch between what was indexed and what is
// asked. Query-only vocabulary lives in related.ts.

/** Function words that carry no capability; dropped from documents and queries. */
export const STOPWORDS = new Set(
  (
    "a am an and are as at be been being but by for from has have having he her his i if in into is it its " +
    "itself me my of on or our ours she so than that the their them then there these they this those to " +
    "was we were what when where which while who whom why will with would you your yours via per also " +
    "just only any each every some such both either neither do does did doing done can could should shall " +
    "may might must let lets him himself herself themselves myself ourselves yourself " +
    // What is left of a contraction once its apostrophe splits it ("we're", "don't", "I've").
    "re ve ll don doesn didn isn aren wasn weren hasn haven hadn wouldn couldn shouldn"
  ).split(" "),
);

/** Filler that agents and users put in requests but tools never describe; dropped from queries only. */
export const QUERY_STOPWORDS = new Set(
  (
    "please pls want wanna need needs needed like help tool tools able way something thing things someone " +
    "how whats hey hi thanks thank kindly us going gonna try trying quick quickly currently current now " +
    "today right actually really using use used still already here got gotten"
  ).split(" "),
);

/**
 * Synonym groups: every word maps to the group's first word before stemming. Kept to words that
 * mean the same thing in tool catalogs; ambiguous words stay themselves.
 */
const GROUPS: readonly string[] = [
  "delete remove erase drop destroy purge trash rm del discard wipe unlink",
  "create add new make insert",
  "get fetch retrieve obtain read view lookup",
  "list enumerate browse",
  "search find locate seek",
  "update edit modify change patch alter amend",
  "send deliver dispatch transmit post",
  "message msg dm",
  "email mail emails mails",
  "folder directory dir directories folders",
  "repository repo repos repositories",
  "issue ticket bug",
  "run execute exec trigger launch invoke kick",
  "stop halt terminate kill",
  "cancel abort",
  "user member people person teammate colleague",
  "event meeting appointment",
  "schedule book",
  "deploy rollout ship",
  "database db",
  "kubernetes k8s kube",
  "invoice bill",
  "refund reimburse",
  "image picture photo pic",
  "url link uri",
  "document doc docs",
  "spreadsheet sheet",
  "payment pay",
  "notify notification notifications alert",
  "upload",
  "download",
];

/**
 * Things written as one word for several (a pull request, CI, a time zone): in a query they name
 * what the request is about, never its action ("MRs" asks for no merging).
 */
const THINGS: Record<string, string> = {
  pr: "pull request",
  prs: "pull request",
  mr: "merge request",
  mrs: "merge request",
  ci: "continuous integration",
  // Compounds written closed or open: one reading for both.
  timezone: "time zone",
  timezones: "time zone",
  filename: "file name",
  filenames: "file name",
};

/** Words expanded to several words (abbreviations). Applied to documents and queries alike. */
const PHRASES: Record<string, string> = {
  ...THINGS,
  // Shell commands people type as the request.
  ls: "list",
  mkdir: "make directory",
  rmdir: "remove directory",
  rm: "remove",
  mv: "move",
  cp: "copy",
};

export const SYNONYMS: ReadonlyMap<string, string> = new Map(
  GROUPS.flatMap((group) => {
    const [head, ...rest] = group.split(" ");
    return rest.map((word) => [word, head as string] as const);
  }),
);

/** The synonym groups that name actions (their heads). */
const ACTION_HEADS = new Set(
  "delete create get list search update send run stop cancel schedule deploy refund upload download notify".split(
    " ",
  ),
);

/** Every word of a synonym group that names an action: "erase", "make", "fetch", "upload", … */
export const ACTION_WORDS: ReadonlySet<string> = new Set(
  GROUPS.map((group) => group.split(" "))
    .filter(([head]) => ACTION_HEADS.has(head as string))
    .flat(),
);

export const ABBREVIATIONS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(PHRASES).map(([word, phrase]) => [word, phrase.split(" ")]),
);

export const THING_ABBREVIATIONS: ReadonlySet<string> = new Set(Object.keys(THINGS));

/** The things THINGS abbreviates, spelled out: "pull request", "continuous integration". */
export const THING_PHRASES: readonly (readonly string[])[] = [...new Set(Object.values(THINGS))].map((p) =>
  p.split(" "),
);
