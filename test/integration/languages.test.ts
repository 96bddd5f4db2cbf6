// Catalogs and requests in languages other than English: Chinese and Japanese are written without
// spaces, Thai too and with combining vowel signs, Hindi with vowel signs between spaces, French with
// accents that people often leave out. Searched through the real session object over HTTP, whose
// index must hold the same words the request reads (src/search/words.ts, src/db/migrations.ts 16).
import { describe, expect, it } from "vitest";
import { newSid, op } from "../support/http";

/** Tools as public MCP servers in these languages describe theirs (a maps server, a ticketing one…). */
const TOOLS = [
  {
    name: "maps_weather",
    namespace: "amap",
    description: "根据城市名称或者标准adcode查询指定城市的天气",
  },
  {
    name: "maps_direction_driving",
    namespace: "amap",
    description:
      "驾车路径规划 API 可以根据用户起终点经纬度坐标规划以小客车、轿车通勤出行的方案，并且返回通勤方案的数据。",
  },
  {
    name: "maps_text_search",
    namespace: "amap",
    description: "关键词搜索，根据用户传入关键词，搜索出相关的POI",
  },
  {
    name: "get_tickets",
    namespace: "rail",
    description: "查询12306余票信息。",
  },
  {
    name: "get_forecast",
    namespace: "tenki",
    description: "指定した地域の天気予報を取得します。",
  },
  {
    name: "create_invoice",
    namespace: "keiri",
    description: "取引先への請求書を作成します。",
  },
  {
    name: "search_restaurants",
    namespace: "gourmet",
    description: "条件に合うレストランを検索します。",
  },
  { name: "create_bill", namespace: "thai_shop", description: "สร้างใบแจ้งหนี้ใหม่สำหรับลูกค้า" },
  { name: "find_products", namespace: "thai_shop", description: "ค้นหาสินค้าในร้าน" },
  { name: "mausam", namespace: "bharat", description: "किसी शहर के मौसम का पूर्वानुमान प्राप्त करें" },
  { name: "train_status", namespace: "bharat", description: "ट्रेन की वर्तमान स्थिति देखें" },
  { name: "nouvelle_facture", namespace: "compta", description: "Créer une facture pour un client." },
  { name: "annuler_facture", namespace: "compta", description: "Annuler une facture déjà émise." },
  { name: "nouveau_trajet", namespace: "sncf", description: "Reserver un billet de train entre deux gares." },
  { name: "annuler_trajet", namespace: "sncf", description: "Annuler un billet de train." },
  { name: "create_issue", namespace: "github", description: "Create a new issue in a repository." },
];

async function first(sid: string, query: string): Promise<string | undefined> {
  const res = await op(sid, "tool_search", { query, limit: 3 });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.tools[0]?.name;
}

describe("requests and catalogs in other languages", () => {
  it.each([
    ["帮我查一下北京明天的天气", "maps_weather"],
    ["规划一条从天安门到首都机场的驾车路线", "maps_direction_driving"],
    ["查一下明天去上海的余票", "get_tickets"],
    ["東京の天気予報を教えて", "get_forecast"],
    ["A社宛ての請求書を作成して", "create_invoice"],
    ["ช่วยสร้างใบแจ้งหนี้ให้ลูกค้าหน่อย", "create_bill"],
    ["दिल्ली के मौसम का पूर्वानुमान", "mausam"],
    // Written without the accents the catalog has, and with them where it has none.
    ["creer une facture pour le client Dupont", "nouvelle_facture"],
    ["réserver un billet Paris Lyon", "nouveau_trajet"],
    ["créate an issue", "create_issue"],
  ])("%s → %s", async (query, tool) => {
    const sid = newSid();
    expect((await op(sid, "catalog_sync", { tools: TOOLS })).status).toBe(200);
    expect(await first(sid, query)).toBe(tool);
  });

  it("reads a Chinese request as its words, so a tool that says only some of them still ranks", async () => {
    const sid = newSid();
    expect((await op(sid, "catalog_sync", { tools: TOOLS })).status).toBe(200);
    const res = await op(sid, "tool_search", { query: "上海明天天气怎么样", limit: 5 });
    expect(res.status).toBe(200);
    const tools = res.json.tools as { name: string; relevance: number }[];
    expect(tools[0]?.name).toBe("maps_weather");
    // Nothing else of the catalog speaks of the weather in Chinese.
    expect(tools.filter((t) => t.name.startsWith("maps_") && t.name !== "maps_weather")).toEqual([]);
  });
});
