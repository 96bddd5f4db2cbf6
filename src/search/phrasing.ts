// How everyday requests phrase actions: nouns used as verbs before an object ("file a bug"), and
// phrasal verbs ("get rid of"). Read by queryTermGroups (text.ts); the word lists are related.ts's.

/**
 * Words that are nouns in tool descriptions but verbs in requests: "file a bug", "book a room",
 * "ship the fix", "text the team". Before an article or a possessive (the shape of an object
 * phrase) the word acts: its own term counts only as a related one, and its action terms join it.
 */
export const VERB_SENSES: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    file: ["create", "submit"],
    open: ["open", "create"],
    book: ["schedule", "create", "reserve"],
    post: ["send", "message", "create"],
    ship: ["deploy", "release"],
    text: ["send", "sms"],
    email: ["send"],
    mail: ["send"],
    message: ["send"],
    ping: ["send", "message"],
    page: ["incident", "oncall", "alert"],
    log: ["create", "record"],
    note: ["create", "comment"],
    tag: ["label", "update"],
    pin: ["pin"],
    bill: ["invoice", "charge"],
    charge: ["charge", "payment", "create"],
    order: ["create", "purchase"],
    table: ["postpone", "update"],
    document: ["create", "write"],
    chart: ["create", "plot"],
    map: ["directions", "geocode"],
    screen: ["screenshot"],
    host: ["deploy"],
    stage: ["deploy", "commit"],
    package: ["build"],
    store: ["save", "upload"],
    back: ["backup", "copy"],
  }),
);

/**
 * Light verbs: so common in English, and in so many idioms ("go through", "take me to", "give it a
 * ring"), that alone they say little about the action; the words around them say it. A tool that
 * happens to be named with one (go_back, take_screenshot) should not win on it: a light verb's term
 * only stands in, like a related term.
 */
export const LIGHT_VERBS: ReadonlySet<string> = new Set(
  (
    "go goes going went gone take takes took taking taken give gives gave giving given keep keeps kept " +
    "keeping bring brings brought bringing come comes came coming hold holds held holding"
  ).split(" "),
);

/**
 * Verbs of placing that, before "a" or "an", put something new somewhere: "drop a marker on the
 * dashboard", "leave a note on the ticket", "put an event on my calendar". The action is adding;
 * the verb's other senses ("drop the table", "leave the channel") do not apply.
 */
export const PLACING_VERBS: ReadonlySet<string> = new Set(
  "drop drops leave leaves put puts stick pop".split(" "),
);

/** Words after which a verb-or-noun word reads as a verb: articles and possessives. */
export const OBJECT_STARTERS: ReadonlySet<string> = new Set(
  "a an the this that these those my our your his her their its some another".split(" "),
);

/**
 * Phrasal verbs: a verb and its particle mean an action neither word says ("get rid of" → delete,
 * "hand over" → assign, "push back" → reschedule). Each found in a query adds a concept of related
 * terms, as a shape hint does.
 */
export const PHRASAL_VERBS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    "get rid": ["delete"],
    "get into": ["create", "add"],
    "pull down": ["download", "get"],
    "hand over": ["assign"],
    "look over": ["review"],
    "fire off": ["send"],
    "send out": ["send"],
    "write up": ["draft", "create"],
    "set up": ["create", "configure"],
    "shut down": ["stop", "delete"],
    "spin up": ["create", "run"],
    "tear down": ["delete"],
    "roll back": ["rollback", "revert"],
    "kick off": ["run", "start"],
    "sign up": ["create", "register"],
    "check out": ["checkout", "view"],
    "back up": ["backup", "copy"],
    "wake up": ["page", "incident"],
    "put off": ["reschedule", "update"],
    "push back": ["reschedule", "update"],
    "move up": ["reschedule", "update"],
    "bring up": ["get", "show"],
    "pull up": ["get", "show"],
    "look up": ["search", "get"],
    "find out": ["search", "get"],
    "fill in": ["fill", "input"],
    "fill out": ["fill", "input"],
    "turn off": ["disable", "stop"],
    "turn on": ["enable", "start"],
    "clean up": ["delete"],
    "close out": ["close", "resolve", "transition"],
    "sign off": ["approve"],
    "say yes": ["accept", "respond"],
    "say no": ["decline", "respond"],
    "go back": ["back", "previous"],
    "scale down": ["scale", "replicas"],
    "scale up": ["scale", "replicas"],
    "dig up": ["search", "find"],
  }),
);
