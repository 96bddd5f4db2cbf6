// GET /inspect: the operator's session inspector, one self-contained page under the operator
// pages' strict CSP (./strict-page.ts).
import { INSPECT_HTML, INSPECT_STYLE } from "./inspect-page";
import { INSPECT_SCRIPT } from "./inspect-script";
import { strictPage } from "./strict-page";

/** @example app.get("/inspect", inspectPage) */
export const inspectPage = strictPage(INSPECT_HTML, [INSPECT_SCRIPT], [INSPECT_STYLE]);
