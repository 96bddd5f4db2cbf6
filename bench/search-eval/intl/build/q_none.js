// Hand-written "none" queries: plausible requests, in the catalog's languages, that no catalog tool
// serves (expected []). The first group of each language shares a service or a domain with the
// catalog and asks for what a neighbouring tool almost does; the rest are general. Each was checked
// against every tool of catalog.json by hand, including the generic ones (cloudbase.searchWeb looks
// things up on the web, cloudbase.callCloudApi calls any Tencent Cloud API, aliyun.LOCAL_RunShellScript
// runs a local shell command), so no request here is a web look-up, a Tencent Cloud operation or a
// local shell task.
// Each entry: [language, query].
export default [
  // Chinese: near misses
  ["zh", "帮我买一张明天北京到上海的高铁票，靠窗"],
  ["zh", "G1234那张票帮我退了吧，行程取消了"],
  ["zh", "用高德帮我叫辆车去首都机场T3"],
  ["zh", "把公司地址收藏到我的高德地图里"],
  ["zh", "小红书上我昨天发的那篇笔记删掉"],
  ["zh", "小红书私信一下这个博主问合作报价"],
  ["zh", "飞书上帮我提交一个三天的年假申请"],
  ["zh", "把飞书上那个“临时项目群”解散掉"],
  ["zh", "查一下我这个月在钉钉上的打卡记录"],
  ["zh", "阿里云那台ECS快到期了，帮我续费一年"],
  ["zh", "把OSS上的 logo.png 设成公共读"],
  // Chinese: general
  ["zh", "帮我定个明早7点的闹钟"],
  ["zh", "点一份麦当劳外卖送到公司"],
  ["zh", "帮我交一下这个月的电费"],
  ["zh", "在淘宝上帮我买个20000毫安的充电宝"],

  // Japanese: near misses
  ["ja", "Chatworkでこのメッセージに「了解」のリアクションつけて"],
  ["ja", "Chatworkで田中さんとビデオ通話始めて"],
  ["ja", "Chatworkのアカウント自体を退会したい"],
  ["ja", "Chatworkでこのチャットをピン留めして"],
  ["ja", "弁護士との法律相談、来週火曜の午後で予約して"],
  // Japanese: general
  ["ja", "明日の新幹線、東京から新大阪の指定席を予約して"],
  ["ja", "今夜7時に渋谷のイタリアン、2名で予約お願い"],

  // French
  ["fr", "Publie un nouveau jeu de données sur data.gouv.fr avec ce fichier Excel"],
  ["fr", "Réserve-moi une table pour deux ce soir vers 20h"],
  // German
  ["de", "Buch mir ein Sparpreis-Ticket von Berlin nach Hamburg für Freitag"],
  ["de", "Kündige mein BahnCard-25-Abo zum Jahresende"],
  // Spanish
  ["es", "Presenta mi declaración de la renta de este año en la Agencia Tributaria"],
  ["es", "Pídeme un taxi al aeropuerto de Barajas para las seis"],
  // Portuguese
  ["pt", "Agenda a coleta dessa encomenda nos Correios pra amanhã de manhã"],
  ["pt", "Gera um boleto de R$ 150 pro cliente Marcos"],
  ["pt", "Faz um Pix de R$ 50 pro João"],
];
