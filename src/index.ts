// Worker entry: the HTTP app, and the session object class wrangler binds as SESSIONS.
import { createApp } from "./http/app";

export { SessionObject } from "./session-object";

export default createApp();
