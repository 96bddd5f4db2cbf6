// How the tenant's learned skills are stored (src/lessons/lesson-store.ts) and how a stored lesson
// reads to sessions (ServedLesson) and to operators (LessonView).
export type LessonStatus = "pending" | "approved" | "rejected";

export const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS lesson_items (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    task_type TEXT NOT NULL,
    kind TEXT NOT NULL,
    project TEXT NOT NULL,
    trigger TEXT NOT NULL,
    body TEXT NOT NULL,
    tools TEXT NOT NULL,
    terms TEXT NOT NULL,
    quality INTEGER NOT NULL,
    status TEXT NOT NULL,
    submissions INTEGER NOT NULL,
    successes INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    helpful INTEGER NOT NULL,
    harmful INTEGER NOT NULL,
    contradicts TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    confirmed_at INTEGER NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS lesson_items_version ON lesson_items (version)`,
  // External content: rows are indexed by this store's code (insert, replace, delete).
  `CREATE VIRTUAL TABLE IF NOT EXISTS lesson_fts USING fts5(terms, content='lesson_items', content_rowid='id')`,
  // Document frequencies, to look for near-duplicates by their rarest terms (a virtual table: no rows).
  `CREATE VIRTUAL TABLE IF NOT EXISTS lesson_vocab USING fts5vocab(lesson_fts, 'row')`,
  `CREATE TABLE IF NOT EXISTS lesson_lineage (
    lesson INTEGER NOT NULL REFERENCES lesson_items (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    ref TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (lesson, kind, ref)
  ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS lesson_counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS lesson_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
];

export interface ItemRow {
  id: number;
  name: string;
  task_type: string;
  kind: "do" | "avoid";
  project: string;
  trigger: string;
  body: string;
  tools: string;
  terms: string;
  quality: number;
  status: LessonStatus;
  submissions: number;
  successes: number;
  failures: number;
  helpful: number;
  harmful: number;
  contradicts: string | null;
  created_at: number;
  updated_at: number;
  confirmed_at: number;
  version: number;
}

/** A lesson as sessions copy it: its stored fields, its tools parsed. */
export type ServedLesson = Pick<
  ItemRow,
  "name" | "task_type" | "kind" | "project" | "trigger" | "body" | "helpful" | "harmful" | "confirmed_at"
> & {
  tools: string[];
  /** False: the session drops its copy (pending again, rejected, deleted). */
  served: boolean;
};

/** A lesson as operators see it (GET /v1/learned-skills). */
export interface LessonView {
  name: string;
  status: LessonStatus;
  task_type: string;
  kind: "do" | "avoid";
  scope: "tenant" | "project";
  project: string | null;
  trigger: string;
  body: string;
  tools: string[];
  submissions: number;
  successes: number;
  failures: number;
  helpful: number;
  harmful: number;
  contradicts: string | null;
  created_at: string;
  updated_at: string;
  confirmed_at: string;
  lineage: { merged_from: string[]; run_ids: string[]; contradicted_by: string[] };
}

/** A lesson as sessions copy it, `served` or not. */
export function servedLesson(r: ItemRow, served: boolean): ServedLesson {
  return {
    name: r.name,
    task_type: r.task_type,
    kind: r.kind,
    project: r.project,
    trigger: r.trigger,
    body: r.body,
    tools: JSON.parse(r.tools) as string[],
    helpful: r.helpful,
    harmful: r.harmful,
    confirmed_at: r.confirmed_at,
    served,
  };
}

/** A deleted lesson as sessions learn of it: its name, with no text, never served. */
export function tombstone(name: string, project: string): ServedLesson {
  return {
    name,
    task_type: "",
    kind: "do",
    project,
    trigger: "",
    body: "",
    tools: [],
    helpful: 0,
    harmful: 0,
    confirmed_at: 0,
    served: false,
  };
}

/** A lesson as operators see it, with its lineage rows (kind, ref) oldest first. */
export function lessonView(r: ItemRow, rows: readonly { kind: string; ref: string }[]): LessonView {
  const lineage = { merged_from: [] as string[], run_ids: [] as string[], contradicted_by: [] as string[] };
  for (const l of rows) {
    if (l.kind === "merged_from") lineage.merged_from.push(l.ref);
    else if (l.kind === "run") lineage.run_ids.push(l.ref);
    else if (l.kind === "contradicted_by") lineage.contradicted_by.push(l.ref);
  }
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    name: r.name,
    status: r.status,
    task_type: r.task_type,
    kind: r.kind,
    scope: r.project === "" ? "tenant" : "project",
    project: r.project === "" ? null : r.project,
    trigger: r.trigger,
    body: r.body,
    tools: JSON.parse(r.tools) as string[],
    submissions: r.submissions,
    successes: r.successes,
    failures: r.failures,
    helpful: r.helpful,
    harmful: r.harmful,
    contradicts: r.contradicts,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    confirmed_at: iso(r.confirmed_at),
    lineage,
  };
}
