// Query-only vocabulary (src/search/lexicon.json): related terms for everyday words.
import { wordMap } from "./lexicon";

/**
 * Query-only expansions: words whose meaning depends on context ("open a ticket") and everyday
 * words for capabilities that tool docs name technically ("raining" → weather). Expansions score
 * below the word itself (RELATED_WEIGHT), so they bridge vocabulary gaps without outranking a
 * direct match.
 */
export const QUERY_EXPANSIONS = wordMap("related");
