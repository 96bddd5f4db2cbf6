// Hand-written "model" queries: short capability phrases an LLM agent sends to a tool-search function.
// Each entry: [query, [expected "<namespace>.<name>" ids]]. Written from catalog.json only.
export default [
  // pagerduty
  ["list open pagerduty incidents", ["pagerduty.list_incidents"]],
  ["acknowledge or resolve incidents in bulk", ["pagerduty.manage_incidents"]],
  ["who is currently on call", ["pagerduty.list_oncalls"]],
  ["append note to incident", ["pagerduty.add_note_to_incident"]],
  ["temporary on-call schedule override", ["pagerduty.create_schedule_override", "pagerduty.create_schedule_v3_overrides"]],
  ["list escalation policies", ["pagerduty.list_escalation_policies"]],
  ["create escalation policy", ["pagerduty.create_escalation_policy"]],
  ["incident MTTR metrics by team", ["pagerduty.get_incident_metrics_by_team"]],
  ["responder workload and sleep interruptions", ["pagerduty.get_responder_load_metrics", "pagerduty.get_responder_metrics"]],
  ["list pagerduty webhook subscriptions", ["pagerduty.list_webhook_subscriptions"]],
  ["list status pages", ["pagerduty.list_status_pages"]],
  ["add user to pagerduty team", ["pagerduty.add_team_member"]],
  ["rotations of shift-based schedule", ["pagerduty.list_schedule_v3_rotations"]],
  ["add rotation event with RRULE", ["pagerduty.create_schedule_v3_rotation_event"]],
  ["one-off custom on-call shift", ["pagerduty.create_schedule_v3_custom_shifts"]],
  ["event orchestration routing rules", ["pagerduty.get_event_orchestration_router", "pagerduty.update_event_orchestration_router", "pagerduty.append_event_orchestration_router_rule"]],
  ["account-wide change events", ["pagerduty.list_change_events"]],
  ["technical service dependency graph", ["pagerduty.get_technical_service_dependencies"]],
  ["update pagerduty service settings", ["pagerduty.update_service"]],

  // cloudflare
  ["list cloudflare workers", ["cloudflare.workers_list"]],
  ["get worker script source", ["cloudflare.workers_get_worker_code"]],
  ["query workers logs and metrics", ["cloudflare.query_worker_observability"]],
  ["list kv namespaces", ["cloudflare.kv_namespaces_list"]],
  ["execute sql on d1", ["cloudflare.d1_database_query"]],
  ["screenshot webpage by url", ["cloudflare.get_url_screenshot", "cloudflare.get_url_snapshot", "firecrawl.firecrawl_scrape"]],
  ["extract all links from page", ["cloudflare.get_url_links", "firecrawl.firecrawl_scrape"]],
  ["ai extract structured json from webpage", ["cloudflare.get_url_json", "firecrawl.firecrawl_scrape", "firecrawl.firecrawl_extract"]],
  ["cloudflare account audit log", ["cloudflare.auditlogs_by_account_id"]],
  ["search cloudflare developer docs", ["cloudflare.search_cloudflare_documentation"]],
  ["cloudflare graphql schema type fields", ["cloudflare.graphql_type_details", "cloudflare.graphql_schema_search", "cloudflare.graphql_complete_schema"]],
  ["ai gateway log response body", ["cloudflare.get_log_response_body"]],

  // kubernetes
  ["list pods all namespaces", ["kubernetes.pods_list", "kubernetes.resources_list"]],
  ["get pod logs", ["kubernetes.pods_log", "kubernetes.kiali_get_logs"]],
  ["exec command in kubernetes pod", ["kubernetes.pods_exec"]],
  ["list kubernetes namespaces", ["kubernetes.namespaces_list", "kubernetes.resources_list"]],
  ["node resource usage stats", ["kubernetes.nodes_top", "kubernetes.nodes_stats_summary"]],
  ["start stop kubevirt vm", ["kubernetes.vm_lifecycle"]],
  ["trigger tekton pipeline", ["kubernetes.tekton_pipeline_start"]],
  ["tekton pipelinerun logs", ["kubernetes.tekton_pipelinerun_logs"]],
  ["list istio virtualservices", ["kubernetes.kiali_manage_istio_config_read", "kubernetes.resources_list"]],
  ["network flow throughput metrics", ["kubernetes.netobserv_get_flow_metrics"]],

  // todoist
  ["create todoist task with due date", ["todoist.add-tasks"]],
  ["mark tasks complete", ["todoist.complete-tasks"]],
  ["tasks due this week", ["todoist.find-tasks-by-date", "todoist.find-tasks"]],
  ["move recurring task date", ["todoist.reschedule-tasks"]],
  ["todoist karma and completion stats", ["todoist.get-productivity-stats"]],
  ["list todoist projects", ["todoist.find-projects", "todoist.get-overview"]],
  ["move project to workspace", ["todoist.project-move"]],
  ["reorder project sections", ["todoist.reorder-objects"]],
  ["link tasks to goal", ["todoist.link-goal-tasks"]],

  // heroku
  ["list heroku apps", ["heroku.list_apps"]],
  ["scale heroku dynos", ["heroku.ps_scale"]],
  ["create heroku app in eu region", ["heroku.create_app"]],
  ["deploy app with app.json", ["heroku.deploy_to_heroku"]],
  ["list heroku pipelines", ["heroku.pipelines_list", "heroku.pipelines"]],
  ["installed add-on status and billing", ["heroku.get_addon_info"]],
  ["heroku postgres running queries", ["heroku.pg_ps"]],

  // neon
  ["create neon branch", ["neon.create_branch"]],
  ["run sql statement on neon", ["neon.run_sql"]],
  ["neon multi-statement transaction", ["neon.run_sql_transaction"]],
  ["list neon projects", ["neon.list_projects"]],
  ["list compute endpoints", ["neon.list_branch_computes"]],
  ["fetch neon documentation page", ["neon.get_doc_resource"]],
  ["neon query execution plan", ["neon.explain_sql_statement"]],

  // paypal
  ["create paypal checkout order", ["paypal.create_order"]],
  ["capture authorized order payment", ["paypal.pay_order"]],
  ["list paypal invoices", ["paypal.list_invoices"]],
  ["void sent invoice", ["paypal.cancel_sent_invoice"]],
  ["list subscription plans", ["paypal.list_subscription_plans"]],
  ["check refund status", ["paypal.get_refund"]],

  // awsiam
  ["list iam roles", ["awsiam.list_roles"]],
  ["create iam user", ["awsiam.create_user"]],
  ["detach managed policy from group", ["awsiam.detach_group_policy"]],
  ["put inline role policy", ["awsiam.put_role_policy"]],
  ["list customer managed policies", ["awsiam.list_policies"]],

  // firecrawl / exa / brave
  ["scrape url to markdown", ["firecrawl.firecrawl_scrape", "exa.web_fetch_exa", "cloudflare.get_url_markdown"]],
  ["crawl entire website", ["firecrawl.firecrawl_crawl", "cloudflare.start_crawl"]],
  ["crawl job status", ["firecrawl.firecrawl_check_crawl_status", "cloudflare.get_crawl_result"]],
  ["discover site urls sitemap", ["firecrawl.firecrawl_map"]],
  ["run website monitor now", ["firecrawl.firecrawl_monitor_run"]],
  ["code examples for library api", ["exa.get_code_context_exa", "firecrawl.firecrawl_developer_search", "firecrawl.firecrawl_search"]],
  ["find person professional profile", ["exa.people_search_exa", "exa.linkedin_search_exa", "exa.web_search_exa", "exa.web_search_advanced_exa"]],
  ["web search with date range filter", ["exa.web_search_advanced_exa"]],
  ["image search", ["brave.brave_image_search", "firecrawl.firecrawl_search", "brave.brave_web_search"]],
  ["search news articles", ["brave.brave_news_search", "brave.brave_web_search", "firecrawl.firecrawl_search", "exa.web_search_exa", "exa.web_search_advanced_exa"]],
  ["local businesses near location", ["brave.brave_local_search", "googlemaps.maps_search_places", "brave.brave_web_search"]],

  // notion
  ["notion search by title", ["notion.API-post-search"]],
  ["append blocks to notion page", ["notion.API-patch-block-children"]],
  ["query notion database rows", ["notion.API-query-data-source"]],
  ["notion integration bot user", ["notion.API-get-self"]],

  // slack
  ["search slack messages", ["slack.conversations_search_messages"]],
  ["slack channel message history", ["slack.conversations_history"]],
  ["list slack channels", ["slack.channels_list"]],

  // obsidian
  ["list files in vault folder", ["obsidian.obsidian_list_files_in_dir"]],
  ["overwrite obsidian note", ["obsidian.obsidian_put_content"]],
  ["read several notes at once", ["obsidian.obsidian_batch_get_file_contents"]],

  // chroma
  ["create vector collection", ["chroma.chroma_create_collection"]],
  ["update document metadata chroma", ["chroma.chroma_update_documents"]],
  ["delete documents by id", ["chroma.chroma_delete_documents"]],

  // gitlab, maps, puppeteer, sqlite, singles
  ["create gitlab issue", ["gitlab.create_issue"]],
  ["search gitlab projects", ["gitlab.search_repositories"]],
  ["geocode address", ["googlemaps.maps_geocode"]],
  ["travel time matrix", ["googlemaps.maps_distance_matrix"]],
  ["click element in browser", ["puppeteer.puppeteer_click", "firecrawl.firecrawl_interact"]],
  ["type into input field", ["puppeteer.puppeteer_fill", "firecrawl.firecrawl_interact"]],
  ["sqlite select query", ["sqlite.read_query"]],
  ["read-only postgres query", ["postgres.query", "neon.run_sql", "heroku.pg_psql"]],
  ["search google drive files", ["gdrive.search"]],
  ["text to image generation", ["everart.generate_image"]],
  ["bedrock knowledge base retrieval", ["awskb.retrieve_from_aws_kb"]],
  ["sentry issue stacktrace", ["sentry.get_sentry_issue"]],
];
