// The searchable fields of a skill, normalized for FTS5 like tools (src/search/text.ts).
import type { BundledSkill, SkillIndexFields } from "../packs/bundle";
import { indexText } from "../search/text";

const MAX_BODY_TEXT = 6000;

export function skillSearchFields(skill: BundledSkill): SkillIndexFields {
  const body = [skill.body ?? "", ...skill.steps, ...skill.preconditions].join(" ").slice(0, MAX_BODY_TEXT);
  return {
    f_name: indexText(skill.name.replaceAll(".", " ")),
    f_title: indexText(skill.title),
    f_tags: indexText(skill.tags.join(" ")),
    f_trigger: indexText(skill.trigger),
    f_description: indexText(skill.description),
    f_body: indexText(body),
  };
}
