'use strict';
// Replays (live, from /stream), the kept reports, and a report's charts. Text from the service (a replay's
// error, dates, zones, paths) goes into the page with textContent or DOM attributes only, never as markup.
const charts = {};
let knownDone = new Set();

function number(n) { return n === null || n === undefined ? '' : Number(n).toLocaleString(); }
function duration(s) {
  if (s === null || s === undefined) return '…';
  return s < 60 ? s.toFixed(1) + ' s' : Math.floor(s / 60) + ' min ' + Math.round(s % 60) + ' s';
}

function cell(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function renderReplays(replays) {
  const body = document.querySelector('#replays tbody');
  body.replaceChildren();
  let finished = false;
  for (const r of replays) {
    const row = document.createElement('tr');
    const progress = document.createElement('progress');
    progress.max = 100;
    progress.value = Number(r.percent) || 0;
    const progressCell = cell('td');
    progressCell.append(progress, ' ' + r.percent + '%');
    row.append(cell('td', r.id), cell('td', r.date), cell('td', r.zone),
      cell('td', r.state + (r.error ? ': ' + r.error : ''), String(r.state)), progressCell,
      cell('td', number(r.read) + ' / ' + number(r.expected), 'number'), cell('td', number(Math.round(r.ratePerSecond)), 'number'),
      cell('td', duration(r.secondsLeft)), cell('td', number(r.ordersFound), 'number'), cell('td', number(r.poisonRecords), 'number'));
    body.appendChild(row);
    if (r.state === 'DONE' && !knownDone.has(r.id)) { knownDone.add(r.id); finished = true; }
  }
  if (finished) loadReports();
}

let shown = null;

// a report's links are paths of this service: anything else (another site, javascript:) is not followed
function sameSite(path) {
  const url = new URL(String(path), location.href);
  return url.origin === location.origin ? url.href : '#';
}

async function loadReports() {
  const reports = await (await fetch('/api/reports')).json();
  // the page opens on the newest report, or on ?date=…&zone=… when given
  const params = new URLSearchParams(location.search);
  const wanted = params.get('date')
    ? reports.find(r => r.date === params.get('date') && r.zone === (params.get('zone') || r.zone)) : reports[0];
  if (wanted && shown === null) showReport(wanted.json);
  const body = document.querySelector('#reports tbody');
  body.replaceChildren();
  for (const r of reports) {
    const row = document.createElement('tr');
    const charts = cell('a', 'charts');
    charts.href = '#';
    charts.addEventListener('click', e => { e.preventDefault(); showReport(r.json); });
    const json = cell('a', 'JSON');
    json.href = sameSite(r.json);
    const csv = cell('a', 'CSV');
    csv.href = sameSite(r.csv);
    const links = cell('td');
    links.append(charts, ' · ', json, ' · ', csv);
    row.append(cell('td', r.date), cell('td', r.zone), cell('td', number(r.totalOrders), 'number'),
      cell('td', number(r.totalPortions), 'number'), cell('td', r.finishedAt), links);
    body.appendChild(row);
  }
}

function bar(id, labels, values, label) {
  if (charts[id]) charts[id].destroy();
  charts[id] = new Chart(document.getElementById(id), {
    type: 'bar',
    data: { labels, datasets: [{ label, data: values, backgroundColor: '#1f77b4' }] },
    options: { animation: false, plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true } } }
  });
}

async function showReport(url) {
  shown = url;
  const report = await (await fetch(url)).json();
  document.getElementById('report').hidden = false;
  document.getElementById('report-title').textContent = `Orders of ${report.date} (${report.zone})`;
  document.getElementById('report-figures').textContent =
    `${number(report.totalOrders)} orders, ${number(report.totalPortions)} portions, ${number(report.distinctCustomers)} customers; `
    + `busiest hour ${report.busiestHour ?? '–'}; ${report.averageItemsPerOrder.toFixed(2)} items per order; `
    + `first ${report.firstOrderAt ?? '–'}, last ${report.lastOrderAt ?? '–'}.`;
  // sorted: a JS object lists integer-like keys ("10".."23") before the others ("00".."09")
  const hours = Object.keys(report.ordersPerHour).sort();
  bar('per-hour', hours, hours.map(h => report.ordersPerHour[h]), 'orders');
  bar('per-kitchen', Object.keys(report.ordersPerKitchen), Object.values(report.ordersPerKitchen), 'orders');
  bar('per-dish', Object.keys(report.portionsPerDish), Object.values(report.portionsPerDish), 'portions');
}

document.getElementById('start').addEventListener('submit', async e => {
  e.preventDefault();
  const form = new FormData(e.target);
  const response = await fetch('/admin/replays', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ date: form.get('date'), zone: form.get('zone') || null })
  });
  const body = await response.json().catch(() => ({}));
  document.getElementById('start-result').textContent =
    response.ok ? `started ${body.id}` : `${response.status}: ${body.detail || body.title || 'refused'}`;
});

document.querySelector('#start input[name=date]').value =
  new Date(Date.now() - 86400000).toISOString().substring(0, 10);
loadReports();
new EventSource('/stream').addEventListener('replays', e => renderReplays(JSON.parse(e.data)));
