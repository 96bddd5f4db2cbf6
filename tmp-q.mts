import { queryTermGroups } from "./src/search/text";
for (const q of process.argv.slice(2)) console.log(q, "\n ", JSON.stringify(queryTermGroups(q)));
