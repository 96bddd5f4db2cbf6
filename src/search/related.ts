// Query-only vocabulary: related terms for everyday words, and hints from a query's shape.

/**
 * Query-only expansions: words whose meaning depends on context ("open a ticket") and everyday
 * words for capabilities that tool docs name technically ("raining" → weather). Expansions score
 * below the word itself (see RELATED_WEIGHT in tool-search), so they break vocabulary gaps without
 * outranking a direct match. Grouped by domain; each line is `word: expansion expansion …`.
 */
const RELATED = `
show: get list
display: get list
check: get status
see: get list
look: search get
start: run
write: create update
tell: send message
ping: send message
post: create
many: list count
count: list
who: user get
status: get
latest: list recent
recent: list
history: list log
reschedule: update event
move: update
rename: update
cancel: delete
close: resolve update
reopen: update
fix: update
assign: update
archive: delete
clean: delete
grab: get
pull: get
save: create write commit
put: create upload
push: upload
store: create upload
copy: create
back: revert undo restore refund
revert: undo rollback
undo: revert rollback
rollback: undo revert
restart: rollout
scale: replicas
replicas: scale
crashing: logs events describe
crash: logs events
failing: logs status
broken: logs status
error: logs
errors: logs
outage: incident
down: incident status
pager: oncall incident
paged: oncall incident
call: oncall phone meeting
clone: repository copy
fork: repository copy
compare: diff
blame: history commit
switch: checkout branch
label: tag
labels: tag
assignee: assign user
epic: issue
subtask: issue
priority: issue update
announce: send message
broadcast: send message
notify: send message
forward: send email
attachment: file
attach: upload file
unread: list search
spam: label delete
rsvp: respond
accept: respond
decline: respond
duplicate: copy
visit: navigate
goto: navigate
scroll: browser page
tab: browser page
eta: directions duration
route: directions
near: place search
pageviews: report
retention: cohort report
cohort: retention
dau: active users
mau: active users
uptime: status monitor
health: status
healthy: status
outage: incident status
record: row
records: row
insert: create row
migration: execute sql
index: execute sql
receipt: invoice payment
payout: balance payment
transcript: message history
recap: summary history
summarize: history get
digest: summary history
throw: delete
away: delete
contested: dispute
contest: dispute
chargeback: dispute
disputed: dispute
react: reaction emoji
thumbs: reaction emoji
emoji: reaction
like: reaction
spin: run create scale
copies: replicas scale
replica: scale
hold: draft
unsent: draft
edit: update
changed: diff status
changes: diff status commit
uncommitted: status diff
committed: commit
modified: diff status
said: history messages
say: history messages
mention: search messages
mentioned: search messages
discussed: search messages
conversation: history messages
thread: replies message
balance: account funds
funds: balance
stage: update deal
opportunity: deal
deal: opportunity
plan: explain subscription
explain: plan
execute: run query
executing: active running
statement: query sql
statements: query sql
orders: query table
placed: query
stats: report metrics
report: analytics
analytics: report
sessions: report users
realtime: active users
moment: realtime current
live: realtime current
currently: realtime current
tomorrow: forecast event schedule
tonight: forecast event schedule
week: forecast event
weekend: forecast event
next: forecast
monday: event schedule
tuesday: event schedule
wednesday: event schedule
thursday: event schedule
friday: event schedule
readme: file contents
contents: read file
read: file contents
print: read
view: read get
body: content text
content: text
append: add rows
bottom: append
end: append
replace: edit update
swap: edit replace
substitute: edit replace
retry: rerun run
again: retry
rerun: retry
another: retry
oncall: schedule
wiki: page notion
notes: page
note: comment page
chat: message slack teams
channel: slack message
text: sms message
sms: text message
phone: sms call
inbox: email
reply: message comment
draft: email
ticket: issue
bug: issue
task: issue
story: issue
sprint: cycle
backlog: issue
code: repository file
source: file code
snippet: code
review: pull request reviewers
reviewer: reviewers
approve: review merge
ship: deploy release
release: deploy version tag
version: release tag
build: workflow pipeline run
pipeline: workflow build
tests: run command
test: run command
terminal: command shell
script: command shell
install: command
directions: route
route: directions
drive: directions distance
distance: directions
far: distance
travel: directions
commute: directions
address: geocode location place
coordinates: geocode
location: geocode place
nearby: place search
restaurant: place
weather: forecast
rain: weather forecast precipitation
raining: weather forecast precipitation
snow: weather forecast
temperature: weather forecast
hot: weather temperature
cold: weather temperature
umbrella: weather forecast
sunny: weather forecast
wind: weather
time: timezone
timezone: time convert
clock: time
money: payment charge
paid: payment charge
charged: charge payment
pay: payment charge
subscription: plan billing
customer: client contact
gh: github
pg: postgres
psql: postgres
bq: bigquery
bg: background
gcal: calendar
utc: timezone time
gmt: timezone time
pst: timezone time
pdt: timezone time
est: timezone time
edt: timezone time
cst: timezone time
cet: timezone time
bst: timezone time
jst: timezone time
lead: contact deal
crm: contact deal
revenue: report
signup: funnel conversion
signups: users report
conversion: funnel
funnel: conversion
abandon: funnel
visitors: users report
traffic: report users
users: report
metrics: query report
dashboard: report metrics
latency: metrics
slow: metrics latency
alert: monitor
alerts: monitor
mute: silence
silence: mute
picture: screenshot image
screenshot: capture page
capture: screenshot
webpage: page browser
website: page browser url
site: page browser
url: navigate fetch
navigate: page browser
click: browser element
button: click browser
press: click
tap: click
pick: select choose
choose: select
dropdown: select option
type: fill input
form: fill input
field: input
online: web search
google: search web
internet: web search
news: search
article: text page
docs: search web
documentation: search web
bucket: s3 object
backup: object upload
size: metadata info
big: size metadata
metadata: info head
exists: info head
local: fs disk
disk: fs file local
folder: directory
mkdir: fs local
rmdir: fs local
ls: fs local
rm: fs local
mv: fs local
cp: fs local
grep: search content
regex: grep pattern
config: file
sql: query
table: database schema
columns: schema describe
schema: describe table
query: select sql
running: active list status
container: docker
containers: docker
pod: k8s
pods: k8s
cluster: k8s
deployment: k8s
instances: replicas scale
spreadsheet: sheets
rows: range append
cells: range
share: permission
permissions: share
access: share permission
invite: add share
calendar: event
availability: free busy
available: free busy
free: busy availability
busy: free availability
meet: event meeting
sync: event meeting
outside: weather
outdoors: weather
storm: weather alerts
hurricane: weather alerts
tornado: weather alerts
flood: weather alerts
smog: air quality
pollution: air quality
haze: air quality
ring: call phone
dial: call phone
buzz: call message
shush: mute
snooze: mute
quiet: mute
alarm: alert monitor
nuke: delete
ditch: delete
scrap: delete
toss: delete
junk: delete
bump: update increase
raise: update increase
lower: update decrease
marker: event annotation
mark: update set
annotate: event
package: build image
containerize: build image
workbook: spreadsheet
ledger: spreadsheet
jot: create note
codebase: repository code
hop: switch checkout
fire: incident
burning: incident
wedged: restart delete
stuck: restart status
hung: restart
frozen: restart
plate: event list
agenda: event list
standup: meeting event
huddle: meeting call
video: meeting online
conference: meeting online
catchup: meeting event
remind: schedule message
reminder: schedule message
later: schedule
monthly: subscription
recurring: subscription
renew: subscription
sales: contact deal
prospect: contact lead
prospects: contact lead
folks: user people
coworker: user member
coworkers: user member
typo: edit update
tweak: update edit
shove: move
stash: save store
dig: search find
hunt: search find
scan: search
peek: read get
glance: get
skim: read
land: merge
merged: merge
tidy: delete clean
prune: delete
`;

export const QUERY_EXPANSIONS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const line of RELATED.trim().split("\n")) {
    const [word = "", rest = ""] = line.split(":");
    const key = word.trim();
    map.set(key, [...new Set([...(map.get(key) ?? []), ...rest.trim().split(/\s+/)])]);
  }
  return map;
})();
