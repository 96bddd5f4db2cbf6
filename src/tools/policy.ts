// What the session config says about one tool: is it allowed, and is it loaded up front.

import { globMatcher } from "../search/glob";
import type { SessionConfig } from "../state/config";
import type { LoadingMode } from "./tool-record";

export interface Visibility {
  /** Allowed by the policy: on the allow list and not on the deny list (deny wins). */
  allowed(name: string, qualified: string): boolean;
  /** `always` when a pattern says so, else the tool's own mode, else the session default. */
  mode(name: string, qualified: string, declared: LoadingMode | null | undefined): LoadingMode;
  /** Calls to this tool need a human's approval first. */
  needsApproval(name: string, qualified: string): boolean;
}

export function visibilityFor(config: SessionConfig): Visibility {
  const allow = globMatcher(config.policy.allow);
  const deny = globMatcher(config.policy.deny);
  const approval = globMatcher(config.policy.approval);
  const always = globMatcher(config.always_loaded_patterns);
  return {
    allowed: (name, qualified) => allow(name, qualified) && !deny(name, qualified),
    mode: (name, qualified, declared) =>
      always(name, qualified) ? "always" : (declared ?? config.default_loading_mode),
    needsApproval: (name, qualified) => approval(name, qualified),
  };
}
