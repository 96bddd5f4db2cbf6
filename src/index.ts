// Worker entry: the HTTP app, the session object class wrangler binds as SESSIONS, and the
// entrypoint other workers of the account bind to (docs/service-binding.md).
import { createApp } from "./http/app";

export { AnalyticsObject } from "./analytics-object";
export { CatalogListObject, CatalogObject } from "./catalog-object";
export { TroveService } from "./http/rpc";
export { LearnedSkillsObject } from "./learned-skills-object";
export { LearningObject } from "./learning-object";
export { SessionObject } from "./session-object";
export { UpstreamObject } from "./upstream-object";

export default createApp();
