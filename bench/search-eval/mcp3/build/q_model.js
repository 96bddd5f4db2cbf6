// Hand-written "model" queries: short capability phrases an LLM agent sends to a tool-search function.
// Each entry: [query, [expected "<namespace>.<name>" ids]]. Written from catalog.json only.
export default [
  // telegram
  ["send telegram message", ["telegram.send_message"]],
  ["schedule chat message for later", ["telegram.send_scheduled_message"]],
  ["list pending scheduled messages", ["telegram.get_scheduled_messages"]],
  ["search messages in chat", ["telegram.search_messages", "telegram.list_messages"]],
  ["find public channels by name", ["telegram.search_public_chats"]],
  ["global message search public channels", ["telegram.search_global"]],
  ["forward batch of messages", ["telegram.forward_messages", "telegram.forward_message"]],
  ["edit previously sent message", ["telegram.edit_message"]],
  ["create poll in group", ["telegram.create_poll"]],
  ["add emoji reaction to message", ["telegram.send_reaction"]],
  ["save draft message", ["telegram.save_draft"]],
  ["ban user from group", ["telegram.ban_user"]],
  ["grant granular admin rights", ["telegram.edit_admin_rights"]],
  ["get group invite link", ["telegram.get_invite_link", "telegram.export_chat_invite"]],
  ["send photo album media group", ["telegram.send_album", "telegram.send_file"]],
  ["download media from message", ["telegram.download_media"]],
  ["wait for incoming message", ["telegram.wait_for_new_message", "telegram.wait_for_settled_message"]],
  ["group admin action log", ["telegram.get_recent_actions"]],

  // azure devops
  ["list pull requests in repository", ["azuredevops.repo_list_pull_requests_by_repo_or_project"]],
  ["approve pull request vote", ["azuredevops.repo_vote_pull_request"]],
  ["pull request code diff", ["azuredevops.repo_get_pull_request_changes"]],
  ["add pull request comment thread", ["azuredevops.repo_create_pull_request_thread"]],
  ["search commits by author", ["azuredevops.repo_search_commits"]],
  ["read file at git branch", ["azuredevops.repo_get_file_content"]],
  ["create new bug work item", ["azuredevops.wit_create_work_item"]],
  ["batch update work items", ["azuredevops.wit_update_work_items_batch"]],
  ["comment on work item", ["azuredevops.wit_add_work_item_comment"]],
  ["run WIQL query", ["azuredevops.wit_query_by_wiql"]],
  ["work item revision history", ["azuredevops.wit_list_work_item_revisions"]],
  ["list build definitions", ["azuredevops.pipelines_get_build_definitions"]],
  ["search code across repositories", ["azuredevops.search_code"]],
  ["create or update wiki page", ["azuredevops.wiki_create_or_update_page"]],
  ["list test plans", ["azuredevops.testplan_list_test_plans"]],
  ["team member iteration capacity", ["azuredevops.work_capacity_write"]],

  // resend
  ["send transactional email", ["resend.send-email"]],
  ["send batch of emails", ["resend.send-batch-emails"]],
  ["create newsletter broadcast", ["resend.create-broadcast"]],
  ["list sent emails", ["resend.list-emails"]],
  ["list received inbox emails", ["resend.list-received-emails"]],
  ["cancel scheduled email", ["resend.cancel-email"]],
  ["add contact to segment", ["resend.add-contact-to-segment"]],
  ["verify sending domain DNS", ["resend.verify-domain"]],
  ["register webhook for email events", ["resend.create-webhook"]],
  ["contact topic subscriptions", ["resend.list-contact-topics", "resend.update-contact-topics"]],

  // buildkite
  ["tail job log", ["buildkite.tail_logs"]],
  ["retry failed job", ["buildkite.retry_job", "circleci.rerun_workflow"]],
  ["unblock blocked job", ["buildkite.unblock_job"]],
  ["wait for build completion", ["buildkite.wait_for_build"]],
  ["list cluster queues", ["buildkite.list_cluster_queues"]],
  ["pause queue dispatch", ["buildkite.pause_cluster_queue_dispatch"]],
  ["cron pipeline schedule", ["buildkite.create_pipeline_schedule", "buildkite.list_pipeline_schedules", "buildkite.get_pipeline_schedule", "buildkite.update_pipeline_schedule"]],
  ["failed test executions", ["buildkite.get_failed_executions"]],
  ["job environment variables", ["buildkite.get_job_env"]],
  ["dynamic pipeline upload definition", ["buildkite.get_step_upload", "buildkite.list_step_uploads"]],

  // asana
  ["create asana task", ["asana.asana_create_task"]],
  ["search tasks in workspace", ["asana.asana_search_tasks"]],
  ["comment on asana task", ["asana.asana_create_task_story"]],
  ["create subtask", ["asana.asana_create_subtask"]],
  ["set task dependencies", ["asana.asana_add_task_dependencies"]],
  ["post project status update", ["asana.asana_create_project_status"]],
  ["move task to section", ["asana.asana_add_task_to_section"]],

  // auth0
  ["create auth0 application", ["auth0.auth0_create_application", "auth0.auth0_onboarding"]],
  ["auth0 tenant logs", ["auth0.auth0_list_logs", "auth0.auth0_get_log"]],
  ["deploy auth0 action", ["auth0.auth0_deploy_action"]],
  ["machine-to-machine client grant", ["auth0.auth0_create_application_grant"]],
  ["register api resource server", ["auth0.auth0_create_resource_server"]],
  ["framework login quickstart", ["auth0.auth0_get_quickstart_guide"]],

  // cloudwatch
  ["alarms in ALARM state", ["cloudwatch.get_active_alarms"]],
  ["logs insights query", ["cloudwatch.execute_log_insights_query", "cloudwatch.execute_cwl_insights_batch"]],
  ["promql range query", ["cloudwatch.execute_promql_range_query"]],
  ["metric seasonality and trend", ["cloudwatch.analyze_metric"]],
  ["recommended alarm thresholds", ["cloudwatch.get_recommended_metric_alarms"]],

  // eks
  ["list kubernetes resources by kind", ["eks.list_k8s_resources"]],
  ["kubernetes pod logs", ["eks.get_pod_logs"]],
  ["kubernetes events for resource", ["eks.get_k8s_events"]],
  ["add inline policy to role", ["eks.add_inline_policy"]],
  ["generate deployment service manifest", ["eks.generate_app_manifest"]],

  // ecs
  ["push docker image to ecr", ["ecs.build_and_push_image_to_ecr"]],
  ["troubleshoot ecs service", ["ecs.ecs_troubleshooting_tool"]],
  ["wait for ecs tasks running", ["ecs.wait_for_service_ready"]],

  // cloudtrail
  ["cloudtrail lake sql", ["cloudtrail.lake_query"]],
  ["look up cloudtrail events", ["cloudtrail.lookup_events"]],

  // elasticsearch
  ["es|ql query", ["elasticsearch.esql"]],
  ["elasticsearch index mappings", ["elasticsearch.get_mappings"]],
  ["index shard information", ["elasticsearch.get_shards"]],

  // spotify
  ["add track to play queue", ["spotify.SpotifyQueue"]],
  ["manage spotify playlists", ["spotify.SpotifyPlaylist"]],

  // google workspace
  ["create calendar event", ["gworkspace.create_event"]],
  ["search gmail messages", ["gworkspace.search_gmail_messages"]],
  ["read google doc text", ["gworkspace.get_doc_content", "gworkspace.get_drive_file_content"]],
  ["list files in drive folder", ["gworkspace.list_drive_items"]],

  // datadog
  ["mute monitoring host", ["datadog.mute_host"]],
  ["schedule monitoring downtime", ["datadog.schedule_downtime"]],
  ["query datadog metrics", ["datadog.query_metrics"]],
  ["apm traces", ["datadog.list_traces"]],

  // airtable
  ["create airtable record", ["airtable.create_record"]],
  ["text search airtable records", ["airtable.search_records"]],
  ["upload attachment to record", ["airtable.upload_attachment"]],

  // circleci
  ["find flaky tests", ["circleci.find_flaky_tests"]],
  ["validate circleci config", ["circleci.config_helper"]],
  ["rollback deployment pipeline", ["circleci.run_rollback_pipeline"]],
  ["rerun workflow from failed", ["circleci.rerun_workflow"]],

  // pinecone
  ["semantic search vector index", ["pinecone.search-records"]],
  ["rerank documents by relevance", ["pinecone.rerank-documents"]],
  ["create index with embedding model", ["pinecone.create-index-for-model"]],
  ["search across multiple indexes", ["pinecone.cascading-search"]],

  // across servers
  ["diagnose failed CI build", ["buildkite.get_build_failure_summary", "circleci.get_build_failure_logs"]],
  ["trigger pipeline run", ["azuredevops.pipelines_run_pipeline", "circleci.run_pipeline", "buildkite.create_build"]],
  ["list build artifacts", ["buildkite.list_artifacts_for_build", "azuredevops.pipelines_list_artifacts", "circleci.list_artifacts"]],
  ["my assigned work items", ["azuredevops.wit_my_work_items"]],
  ["iam role attached policies", ["eks.get_policies_for_role"]],
];
