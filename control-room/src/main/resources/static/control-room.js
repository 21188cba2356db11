'use strict';
// The control room's page: the lesson from /api/lesson/stream (server-sent events, once a second), the rush followed
// through /api/rushes/{id}, and the admin's controls. Text from the services goes in with textContent only.

const DEFAULT_PORTS = { kitchenScreen: 8081, analyticsDashboard: 8082, reportReplayer: 8083, backlogMonitor: 8084,
  grafana: 3000, prometheus: 9090, kafkaUi: 8090, zipkin: 9411 };
const LIVE_ROWS_SHOWN = 30;

let password = null;   // the admin password, in this page's memory only
let admin = false;
let rushRunning = false;
let actChosen = false; // the act form follows the stack until the admin touches it
let shown = null;      // the rush on the page: {id, state, rows, ages}
let loading = false;
let lastAges = {};

const $ = id => document.getElementById(id);

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function number(value) {
  return value === null || value === undefined || value < 0 ? '—' : Number(value).toLocaleString('en-US');
}

function megabytes(bytes) {
  return bytes === null || bytes === undefined || bytes < 0 ? null : bytes / 1e6;
}

// ------------------------------------------------------------------------------------------- the admin
function authorization() {
  const bytes = new TextEncoder().encode('admin:' + password);
  let binary = '';
  bytes.forEach(b => { binary += String.fromCharCode(b); });
  return 'Basic ' + btoa(binary);
}

/** An admin call; a problem document becomes an Error saying which fields are wrong. */
async function call(method, path, body) {
  const headers = { 'X-Requested-With': 'XMLHttpRequest', 'Authorization': authorization(), 'Accept': 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    const errors = json && Array.isArray(json.errors) ? json.errors.map(e => (e.field ? e.field + ': ' : '') + e.message) : [];
    throw new Error(errors.length ? errors.join('; ') : (json && json.detail) || ('HTTP ' + response.status));
  }
  return json;
}

function setControls() {
  const act = $('act-select').value;
  const profile = $('profile').value;
  for (const control of document.querySelectorAll('#act-form select, #act-form input, #act-form button, '
      + '#rush-form select, #rush-form input, #rush-form button')) {
    control.disabled = !admin;
  }
  if (admin) {
    $('strategy-select').disabled = act !== 'memory-feed';
    $('capacity-input').disabled = act !== 'memory-feed';
    for (const id of ['rate', 'duration']) $(id).disabled = profile === 'lunch';
    for (const id of ['thenRate', 'thenDuration']) $(id).disabled = profile === 'lunch' || profile === 'constant';
    $('rush-button').disabled = rushRunning;
    $('stop-button').disabled = !rushRunning;
  }
  $('who').textContent = admin ? 'admin: you may play the lesson' : 'watching (read-only)';
  $('sign-in-link').hidden = admin;
}

$('sign-in-link').addEventListener('click', event => {
  event.preventDefault();
  $('sign-in-problem').textContent = '';
  $('sign-in').showModal();
});
$('sign-in-cancel').addEventListener('click', () => $('sign-in').close());
$('sign-in-form').addEventListener('submit', async event => {
  event.preventDefault();
  password = $('password').value;
  $('password').value = '';
  try {
    const session = await call('GET', '/api/session');
    admin = session.admin === true;
    if (!admin) $('sign-in-problem').textContent = session.user + ' may watch, not play';
    else $('sign-in').close();
  } catch (e) {
    admin = false;
    password = null;
    $('sign-in-problem').textContent = 'not signed in: ' + e.message;
  }
  setControls();
});

for (const id of ['act-select', 'strategy-select', 'capacity-input']) {
  $(id).addEventListener('change', () => { actChosen = true; setControls(); });
}
$('profile').addEventListener('change', setControls);

$('act-form').addEventListener('submit', async event => {
  event.preventDefault();
  const body = { act: $('act-select').value };
  if (body.act === 'memory-feed') {
    body.strategy = $('strategy-select').value;
    if ($('capacity-input').value !== '') body.capacity = Number($('capacity-input').value);
  }
  $('act-problem').textContent = '';
  try {
    const state = await call('PUT', '/api/act', body);
    showAct(state);
    actChosen = false;
  } catch (e) {
    $('act-problem').textContent = e.message;
  }
});

$('rush-form').addEventListener('submit', async event => {
  event.preventDefault();
  const body = { profile: $('profile').value };
  for (const id of ['speed', 'rate', 'thenRate', 'dashboardCapacity']) {
    if (!$(id).disabled && $(id).value !== '') body[id] = Number($(id).value);
  }
  for (const id of ['duration', 'thenDuration']) {
    if (!$(id).disabled && $(id).value.trim() !== '') body[id] = $(id).value.trim();
  }
  $('rush-problem').textContent = '';
  try {
    const view = await call('POST', '/api/rushes', body);
    shown = null;
    showRush(view);
  } catch (e) {
    $('rush-problem').textContent = e.message;
  }
});

$('stop-button').addEventListener('click', async () => {
  if (!shown) return;
  try {
    await call('DELETE', '/api/rushes/' + encodeURIComponent(shown.id));
  } catch (e) {
    $('rush-problem').textContent = e.message;
  }
});

// ------------------------------------------------------------------------------------------- the lesson
function showAct(act) {
  $('act-name').textContent = act ? act.act : 'unknown (the order service does not answer)';
  $('act-detail').textContent = act && act.act === 'memory-feed'
    ? '(strategy ' + act.strategy + ', capacity ' + number(act.capacity) + ')' : '';
  for (const paragraph of document.querySelectorAll('.explanation')) {
    paragraph.hidden = !act || paragraph.dataset.act !== act.act;
  }
  if (act && !actChosen) {
    $('act-select').value = act.act;
    $('strategy-select').value = act.strategy;
    $('capacity-input').placeholder = String(act.capacity);
  }
  setControls();
}

function link(id, configured, port, path) {
  const base = configured || (location.protocol + '//' + location.hostname + ':' + port);
  $(id).setAttribute('href', base.replace(/\/$/, '') + (path || '/'));
}

function showLesson(lesson) {
  showAct(lesson.act);
  const links = lesson.links || {};
  link('link-kitchen-screen', links.kitchenScreen, DEFAULT_PORTS.kitchenScreen);
  link('link-analytics-dashboard', links.analyticsDashboard, DEFAULT_PORTS.analyticsDashboard);
  link('link-report-replayer', links.reportReplayer, DEFAULT_PORTS.reportReplayer);
  link('link-backlog-monitor', links.backlogMonitor, DEFAULT_PORTS.backlogMonitor);
  // The tools only where they run (the control room's server asks them): ./demo up has no Grafana and no Kafka UI,
  // and Prometheus keeps its alerts page at /alerts, or /classic/alerts in Debian's 2.x.
  const tools = lesson.tools || {};
  $('tool-grafana').hidden = !tools.grafana;
  link('link-grafana', links.grafana, DEFAULT_PORTS.grafana);
  $('tool-alerts').hidden = !tools.prometheusAlerts;
  link('link-alerts', links.prometheus, DEFAULT_PORTS.prometheus, tools.prometheusAlerts || '/alerts');
  $('tool-kafka-ui').hidden = !tools.kafkaUi;
  link('link-kafka-ui', links.kafkaUi, DEFAULT_PORTS.kafkaUi);
  // the orders' traces: the order service's, newest first
  $('tool-zipkin').hidden = !tools.zipkin;
  link('link-zipkin', links.zipkin, DEFAULT_PORTS.zipkin, '/zipkin/?serviceName=order-service&spanName=place%20order');

  const services = $('services');
  services.replaceChildren(...lesson.services.map(s => {
    const item = element('li', s.name + ': ' + s.state, 'service ' + s.state.replace(' ', '-'));
    item.dataset.service = s.name;
    return item;
  }));

  const body = document.querySelector('#readers tbody');
  const rows = lesson.readers.map(r => {
    const row = element('tr');
    row.dataset.reader = r.name;
    row.append(element('td', r.name), element('td', r.up ? number(r.total) : 'down', 'number'),
      element('td', '', 'number'), element('td', '', 'number'));
    return row;
  });
  lastAges = {};
  for (const b of lesson.backlogs) {
    const row = element('tr');
    row.dataset.reader = b.reader;
    const age = b.oldestUnreadAgeSeconds;
    lastAges[b.reader] = age;
    row.append(element('td', b.reader), element('td', '', 'number'), element('td', number(b.unread), 'number'),
      element('td', age === null || age === undefined ? (b.unread > 0 ? 'unknown' : '—') : age.toFixed(1) + ' s', 'number'));
    if (age > 60) row.className = 'late';
    rows.push(row);
  }
  body.replaceChildren(...rows);

  const o = lesson.orderService;
  $('order-service').textContent = o
    ? 'order service: ' + number(o.placed) + ' placed since it started · heap ' + Math.round(o.heap.usedBytes / 1048576)
      + ' of ' + Math.round(o.heap.maxBytes / 1048576) + ' MB · feed ' + number(o.feed.buffered) + ' buffered, '
      + number(o.feed.dropped) + ' dropped, ' + number(o.feed.rejected) + ' refused'
    : 'order service: does not answer';

  const alerts = $('alert-list');
  if (!lesson.alerts.prometheus) {
    alerts.replaceChildren(element('li', 'Prometheus does not answer: no alerts known', 'quiet'));
  } else if (lesson.alerts.firing.length === 0) {
    alerts.replaceChildren(element('li', 'none', 'quiet'));
  } else {
    alerts.replaceChildren(...lesson.alerts.firing.map(a =>
      element('li', a.name + ' (' + a.severity + '): ' + a.summary, 'alert ' + a.severity)));
  }
  followRush(lesson.rush);
  watchOthers(lesson);
}

// ------------------------------------------------------------------------------------------- the rush
const charts = {};

function chart(id, datasets, axes) {
  return new Chart($(id), {
    type: 'line',
    data: { datasets: datasets.map((d, i) => Object.assign({ data: [], borderWidth: 2, pointRadius: 0,
      borderColor: ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e'][i % 4] }, d)) },
    options: { animation: false, parsing: false, maintainAspectRatio: false,
      scales: Object.assign({ x: { type: 'linear', title: { display: true, text: 'seconds into the rush' } },
        y: { beginAtZero: true } }, axes || {}) }
  });
}

charts.rate = chart('chart-rate', [{ label: 'placed/s' }, { label: 'asked/s', borderDash: [4, 4] }]);
charts.readers = chart('chart-readers', [{ label: 'placed' }, { label: 'kitchen screen' }, { label: 'dashboard' }]);
charts.memory = chart('chart-memory', [{ label: 'heap used' }, { label: 'heap max', borderDash: [4, 4] },
  { label: 'feed' }, { label: 'feed budget', borderDash: [2, 2] }]);
charts.backlog = chart('chart-backlog', [{ label: "dashboard's backlog" },
  { label: 'oldest unread age (s)', yAxisID: 'age' }], { age: { position: 'right', beginAtZero: true } });

function oldestAge() {
  let oldest = null;
  for (const [reader, age] of Object.entries(lastAges)) {
    if (reader.includes('dead-letter') || age === null || age === undefined) continue;
    oldest = oldest === null ? age : Math.max(oldest, age);
  }
  return oldest;
}

function plotRow(row, previous, budgetBytes, age) {
  const t = row.seconds;
  if (previous && t > previous.seconds) {
    charts.rate.data.datasets[0].data.push({ x: t, y: (row.placed - previous.placed) / (t - previous.seconds) });
  }
  charts.rate.data.datasets[1].data.push({ x: t, y: row.targetRate });
  charts.readers.data.datasets[0].data.push({ x: t, y: row.placed });
  charts.readers.data.datasets[1].data.push({ x: t, y: row.kitchen < 0 ? null : row.kitchen });
  charts.readers.data.datasets[2].data.push({ x: t, y: row.dashboard < 0 ? null : row.dashboard });
  charts.memory.data.datasets[0].data.push({ x: t, y: megabytes(row.heapUsedBytes) });
  charts.memory.data.datasets[1].data.push({ x: t, y: megabytes(row.heapMaxBytes) });
  charts.memory.data.datasets[2].data.push({ x: t, y: megabytes(row.feedBufferedBytes) });
  charts.memory.data.datasets[3].data.push({ x: t, y: budgetBytes === null ? null : budgetBytes / 1e6 });
  charts.backlog.data.datasets[0].data.push({ x: t, y: row.backlog < 0 ? null : row.backlog });
  charts.backlog.data.datasets[1].data.push({ x: t, y: age === undefined ? null : age });
}

function redrawCharts() {
  Object.values(charts).forEach(c => c.update('none'));
}

function liveRow(row) {
  const tr = element('tr');
  row.cells.forEach(cell => tr.append(element('td', cell)));
  return tr;
}

function showRows() {
  const body = document.querySelector('#live tbody');
  const rows = shown.rows.slice(-LIVE_ROWS_SHOWN).map(liveRow);
  body.replaceChildren(...rows);
  const last = shown.rows[shown.rows.length - 1];
  $('live-notes').textContent = last ? last.notes.join(' · ') : '';
  const died = last && last.notes.find(note => note.includes('DIED'));
  if (died && !shown.death) {
    $('death').hidden = false;
    $('death').textContent = died;
  }
}

function showRush(view) {
  // the ages seen while the rush ran (the backlog monitor's, not the rush's): kept when the page reloads the rush
  const ages = shown && shown.id === view.id ? shown.ages : {};
  shown = { id: view.id, state: view.state, rows: view.rows, budgetBytes: view.budgetBytes, death: view.death, ages };
  rushRunning = view.state === 'running';
  $('rush-state').textContent = view.id + ': ' + view.state;
  $('rush-state').dataset.state = view.state;
  $('rush-description').textContent = view.description || '';
  document.querySelector('#live thead').replaceChildren(element('tr'));
  view.header.forEach(h => document.querySelector('#live thead tr').append(element('th', h)));
  Object.values(charts).forEach(c => c.data.datasets.forEach(d => { d.data = []; }));
  view.rows.forEach((row, i) => plotRow(row, i > 0 ? view.rows[i - 1] : null, view.budgetBytes, ages[row.seconds]));
  redrawCharts();
  $('death').hidden = !view.death;
  $('death').textContent = view.death || '';
  showRows();
  showResult(view);
  if (view.error) $('rush-problem').textContent = 'the rush failed: ' + view.error;
  setControls();
}

function showResult(view) {
  const ended = view.state !== 'running' && Array.isArray(view.closingTable);
  $('result-panel').hidden = !ended;
  if (!ended) return;
  const console = view.console || [];
  const from = console.findIndex(line => line.startsWith('Orders:'));
  const to = console.findIndex(line => line === view.heading);
  $('summary').textContent = from < 0 ? '' : console.slice(from, to < 0 ? undefined : to).join('\n').trim();
  $('heading').textContent = view.heading;
  const r = view.readersAtEnd;
  $('readers-at-end').hidden = !r;
  if (r) {
    $('readers-at-end').textContent = 'After the rush: the kitchen screen got ' + number(r.kitchen) + ' and the dashboard '
      + number(r.dashboard) + ' of the ' + number(r.placed) + ' orders placed'
      + (r.everyOrder ? (r.sharedQueue ? ': between them, every order once' : ': each reader every order') : '');
    for (const [key, value] of Object.entries(r)) $('readers-at-end').dataset[key] = String(value);
  }
  const a = view.feedAccounting;
  $('accounting').hidden = !a;
  if (a) {
    $('accounting').textContent = "The feed's accounting: " + number(a.placed) + ' placed = ' + number(a.delivered)
      + ' delivered to the job + ' + number(a.dropped) + ' dropped + ' + number(a.buffered) + ' still buffered − '
      + number(a.bufferedAtStart) + ' buffered before the rush' + (a.balanced ? ': every order accounted for' : ': does NOT add up');
    for (const [key, value] of Object.entries(a)) $('accounting').dataset[key] = String(value);
  }
  const body = document.querySelector('#closing tbody');
  body.replaceChildren(...view.closingTable.map(line => {
    const tr = element('tr');
    tr.dataset.line = line.name;
    tr.append(element('td', line.name), element('td', line.unit), element('td', line.measured, 'number measured'),
      element('td', line.predicted, 'number predicted'), element('td', line.difference, 'number difference'),
      element('td', line.verdict, 'verdict ' + (line.verdict || 'none')), element('td', line.note, 'note'));
    return tr;
  }));
}

async function loadRush(id) {
  loading = true;
  try {
    const response = await fetch('/api/rushes/' + encodeURIComponent(id), { headers: { Accept: 'application/json' } });
    if (response.ok) showRush(await response.json());
  } finally {
    loading = false;
  }
}

function followRush(summary) {
  if (!summary || loading) return;
  // another client's orders hold the charts: the room's own rush takes them back when it runs, not before
  if (watched && summary.state !== 'running') return;
  if (!shown || shown.id !== summary.id || (summary.state !== shown.state && summary.state !== 'running')) {
    loadRush(summary.id);
    return;
  }
  const last = shown.rows[shown.rows.length - 1];
  const row = summary.latest;
  if (row && (!last || row.seconds > last.seconds)) {
    shown.rows.push(row);
    shown.ages[row.seconds] = oldestAge();
    plotRow(row, last, shown.budgetBytes, shown.ages[row.seconds]);
    redrawCharts();
    showRows();
  }
}

// ------------------------------------------------------------------------------------------- a rush from elsewhere
// Orders placed while this room runs no rush (./demo rush, docker compose run load-generator, any client) are charted
// from the lesson itself, once a second, until none came for WATCH_QUIET_SECONDS; this room's own rush, when one
// starts, takes the charts back. No asked rate and no closing table: only the room's own rush knows those.
const WATCH_QUIET_SECONDS = 10;
let watched = null;    // {startedAt, base, rows, quietSince, ended}
let lastLesson = null;

function readerTotal(lesson, name) {
  const reader = lesson.readers.find(r => r.name === name);
  return reader && reader.up ? reader.total : -1;
}

function lessonRow(lesson, base, startedAt) {
  const o = lesson.orderService;
  const kitchen = readerTotal(lesson, 'kitchen-screen');
  const dashboard = readerTotal(lesson, 'analytics-dashboard');
  return {
    seconds: Date.parse(lesson.at) / 1000 - startedAt,
    placed: o.placed - base.placed,
    targetRate: null,
    kitchen: kitchen < 0 || base.kitchen < 0 ? -1 : kitchen - base.kitchen,
    dashboard: dashboard < 0 || base.dashboard < 0 ? -1 : dashboard - base.dashboard,
    heapUsedBytes: o.heap.usedBytes,
    heapMaxBytes: o.heap.maxBytes,
    feedBufferedBytes: o.feed.bufferedBytes,
    backlog: lesson.dashboardBacklog === null || lesson.dashboardBacklog === undefined ? -1 : lesson.dashboardBacklog
  };
}

function watchOthers(lesson) {
  const previous = lastLesson;
  lastLesson = lesson;
  if (rushRunning || (lesson.rush && lesson.rush.state === 'running')) {
    watched = null;
    return;
  }
  const o = lesson.orderService;
  if (!o || !previous || !previous.orderService) return;
  const growing = o.placed > previous.orderService.placed;
  if (!watched || watched.ended) {
    if (!growing) return;
    const before = previous.orderService;
    watched = { startedAt: Date.parse(previous.at) / 1000, rows: [], quietSince: null, ended: false,
      base: { placed: before.placed, kitchen: readerTotal(previous, 'kitchen-screen'),
        dashboard: readerTotal(previous, 'analytics-dashboard') } };
    shown = null;
    Object.values(charts).forEach(c => c.data.datasets.forEach(d => { d.data = []; }));
    $('result-panel').hidden = true;
    $('death').hidden = true;
    document.querySelector('#live tbody').replaceChildren();
    $('live-notes').textContent = '';
    watched.rows.push(lessonRow(previous, watched.base, watched.startedAt));
    plotRow(watched.rows[0], null, null, oldestAge());
  }
  const row = lessonRow(lesson, watched.base, watched.startedAt);
  plotRow(row, watched.rows[watched.rows.length - 1], null, oldestAge());
  watched.rows.push(row);
  redrawCharts();
  watched.quietSince = growing ? null : (watched.quietSince === null ? row.seconds : watched.quietSince);
  watched.ended = watched.quietSince !== null && row.seconds - watched.quietSince >= WATCH_QUIET_SECONDS;
  $('rush-state').textContent = 'orders from another client: ' + (watched.ended ? 'ended' : 'watching');
  $('rush-state').dataset.state = watched.ended ? 'watched' : 'watching';
  $('rush-description').textContent = number(row.placed) + ' orders placed by another client (./demo rush, '
    + 'docker compose run load-generator, a script) since ' + new Date(watched.startedAt * 1000).toLocaleTimeString()
    + ', charted from the stack itself.';
}

// ------------------------------------------------------------------------------------------- the stream
function connect() {
  const source = new EventSource('/api/lesson/stream');
  source.addEventListener('open', () => { $('connection').textContent = 'live'; });
  source.addEventListener('lesson', event => showLesson(JSON.parse(event.data)));
  source.addEventListener('error', () => { $('connection').textContent = 'reconnecting'; });
}

setControls();
connect();
