// Hand-written "model" queries: the short capability phrase an LLM agent sends to a tool-search
// function, in the language of the conversation it is serving.
// Each entry: [language, query, [expected "<namespace>.<name>" ids]]. Written from catalog.json only.
export default [
  // maps
  ["zh", "地址转经纬度", ["amap.maps_geo", "baidumap.map_geocode"]],
  ["zh", "周边POI搜索", ["amap.maps_around_search", "baidumap.map_search_places"]],
  ["zh", "POI详情 营业时间", ["amap.maps_search_detail", "baidumap.map_place_details"]],

  // 12306
  ["zh", "城市火车站代码", ["train12306.get-station-code-of-citys", "train12306.get-stations-code-in-city"]],

  // xiaohongshu
  ["zh", "小红书 发布图文笔记", ["xiaohongshu.publish_content"]],
  ["zh", "小红书笔记详情和评论", ["xiaohongshu.get_feed_detail"]],
  ["zh", "小红书 回复评论通知", ["xiaohongshu.reply_notification", "xiaohongshu.reply_comment_in_feed"]],

  // cloudbase
  ["zh", "云函数日志查询", ["cloudbase.getFunctionLogs", "cloudbase.getFunctionLogDetail"]],
  ["zh", "静态网站托管 上传文件", ["cloudbase.uploadFiles"]],
  ["zh", "NoSQL 数据库 查询记录", ["cloudbase.readNoSqlDatabaseContent"]],
  ["zh", "云存储 上传下载 删除文件", ["cloudbase.manageStorage"]],
  ["zh", "数据模型 列表 详情", ["cloudbase.manageDataModel"]],
  ["zh", "Mermaid类图 创建数据模型", ["cloudbase.modifyDataModel"]],
  ["zh", "通用云API调用 腾讯云", ["cloudbase.callCloudApi"]],
  ["zh", "向用户确认 需求澄清", ["cloudbase.interactiveDialog"]],
  ["zh", "下载远程图片到项目", ["cloudbase.downloadRemoteFile"]],

  // feishu
  ["zh", "飞书发送消息", ["feishu.im_v1_message_create"]],
  ["zh", "多维表格 新增记录", ["feishu.bitable_v1_appTableRecord_create", "feishu.bitable_v1_appTableRecord_batchCreate"]],
  ["zh", "日程忙闲查询", ["feishu.calendar_v4_freebusy_list"]],
  ["zh", "知识空间节点信息", ["feishu.wiki_v2_space_getNode"]],
  ["zh", "获取主日历", ["feishu.calendar_v4_calendar_primary"]],
  ["zh", "飞书日程详情", ["feishu.calendar_v4_calendarEvent_get"]],
  ["zh", "云文档添加协作者", ["feishu.drive_v1_permissionMember_create"]],

  // aliyun
  ["zh", "批量重启ECS实例", ["aliyun.OOS_RebootInstances"]],
  ["zh", "ECS CPU使用率", ["aliyun.CMS_GetCpuUsageData"]],
  ["zh", "创建OSS存储空间", ["aliyun.OSS_PutBucket"]],
  ["zh", "启动RDS实例", ["aliyun.OOS_StartRDSInstances"]],
  ["zh", "停止RDS实例", ["aliyun.OOS_StopRDSInstances"]],
  ["zh", "CPU五分钟平均负载", ["aliyun.CMS_GetCpuloadavg5mData"]],
  ["zh", "CPU十五分钟负载", ["aliyun.CMS_GetCpuloadavg15mData"]],
  ["zh", "磁盘分区总容量", ["aliyun.CMS_GetDiskTotalData"]],
  ["zh", "内存使用量指标", ["aliyun.CMS_GetMemUsedData"]],
  ["zh", "列出本地目录文件", ["aliyun.LOCAL_ListDirectory"]],
  ["zh", "识别项目技术栈", ["aliyun.LOCAL_AnalyzeDeployStack"]],

  // dingtalk
  ["zh", "钉钉工作通知发送", ["dingtalk.send_work_notification"]],
  ["zh", "更新OA工作通知状态栏", ["dingtalk.update_work_notification_status_bar"]],
  ["zh", "群成员禁言", ["dingtalk.set_group_member_mute_status"]],
  ["zh", "群禁言状态查询", ["dingtalk.get_group_mute_status"]],
  ["zh", "撤回机器人消息", ["dingtalk.batch_recall_robot_messages", "dingtalk.recall_group_message", "dingtalk.recall_ding_message"]],
  ["zh", "启用群模板", ["dingtalk.apply_group_template"]],
  ["zh", "停用群模板", ["dingtalk.deactivate_group_template"]],
  ["zh", "单聊机器人快捷入口", ["dingtalk.set_robot_shortcut", "dingtalk.query_single_chat_robot_shortcut", "dingtalk.clear_robot_shortcut"]],
  ["zh", "会话互动卡片吊顶", ["dingtalk.create_and_open_interactive_card", "dingtalk.close_interactive_card_header"]],
  ["zh", "群内机器人列表", ["dingtalk.get_bot_list_in_group", "dingtalk.query_group_template_robots"]],
  ["zh", "机器人消息已读列表", ["dingtalk.query_robot_message_read_list", "dingtalk.batch_query_robot_message_read_status", "dingtalk.query_group_message_read_status"]],
  ["zh", "chatId转OpenConversationId", ["dingtalk.get_open_conversation_id"]],

  // chatwork
  ["ja", "Chatwork メッセージ投稿", ["chatwork.post_room_message"]],
  ["ja", "Chatwork タスク追加", ["chatwork.create_room_task"]],
  ["ja", "Chatwork タスクの詳細を取得", ["chatwork.get_room_task"]],
  ["ja", "Chatwork 招待リンクの設定変更", ["chatwork.update_room_link"]],
  ["ja", "Chatwork チャットの名前とアイコンを取得", ["chatwork.get_room"]],
  ["ja", "Chatwork 招待リンク取得", ["chatwork.get_room_link"]],
  ["ja", "コンタクト承認依頼 拒否", ["chatwork.reject_incoming_request"]],
  ["ja", "Chatwork 自分の情報", ["chatwork.get_me"]],
  ["ja", "メッセージを未読に戻す", ["chatwork.unread_room_message"]],
  ["ja", "チャットのタスク一覧", ["chatwork.list_room_tasks"]],

  // freee, e-Gov
  ["ja", "freee APIエンドポイント一覧", ["freee.freee_api_list_paths"]],
  ["ja", "法令の本文を取得", ["egovlaw.get_law", "egovlaw.get_law_file"]],

  // french, german, spanish, portuguese
  ["fr", "rechercher jeux de données data.gouv", ["datagouv.search_datasets"]],
  ["fr", "lister organisations data.gouv.fr", ["datagouv.list_organizations"]],
  ["fr", "supprimer un dataset de la mémoire", ["datagouv.remove_stored_dataset"]],
  ["de", "Bahnhof suchen EVA-Nummer", ["dbtimetable.findStations"]],
  ["es", "tablas auxiliares BOE materias", ["boe.get_auxiliary_table"]],
  ["pt", "consultar CEP", ["brasilapi.consultar_cep"]],
  ["pt", "tabelas de referência FIPE", ["brasilapi.listar_tabelas_fipe"]],
  ["pt", "marcas de veículos FIPE", ["brasilapi.listar_marcas_fipe"]],
  ["pt", "lista de moedas câmbio", ["brasilapi.consultar_cambio"]],
];
