'use strict';
// Live table and chart of every reader's backlog, fed by server-sent events from /stream.
// A reader's name is anyone's to choose (any client may create a consumer group): text from the
// stream goes into the page with textContent only, never as markup.
const HISTORY = 120;
const history = new Map(); // reader -> [{t, unread, age}]
const colors = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
const ageChart = new Chart(document.getElementById('ages'), {
  type: 'line',
  data: { labels: [], datasets: [] },
  options: { animation: false, parsing: false, scales: { x: { type: 'linear', title: { display: true, text: 'seconds ago' } },
    y: { beginAtZero: true } }, elements: { point: { radius: 0 } } }
});

function formatAge(seconds) {
  if (seconds === null || seconds === undefined) return 'unknown';
  if (seconds < 60) return seconds.toFixed(1) + ' s';
  const m = Math.floor(seconds / 60);
  return m + ' min ' + Math.round(seconds - m * 60) + ' s';
}

function sparkline(canvas, points) {
  const ctx = canvas.getContext('2d');
  const w = canvas.width = 160, h = canvas.height = 28;
  ctx.clearRect(0, 0, w, h);
  if (points.length < 2) return;
  const max = Math.max(1, ...points.map(p => p.unread));
  ctx.beginPath();
  points.forEach((p, i) => {
    const x = (i / (HISTORY - 1)) * w, y = h - 2 - (p.unread / max) * (h - 4);
    i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y);
  });
  ctx.strokeStyle = '#1f77b4';
  ctx.stroke();
}

function cell(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function render(snapshot) {
  const sources = [];
  for (const [name, up] of Object.entries(snapshot.sources)) {
    if (sources.length > 0) sources.push(' · ');
    sources.push(cell('span', name + ': ' + (up ? 'up' : 'DOWN (its readers are not shown)'), up ? 'up' : 'down'));
  }
  document.getElementById('sources').replaceChildren(...sources);
  const now = Date.parse(snapshot.at);
  const seen = new Set();
  for (const r of snapshot.readers) {
    seen.add(r.reader);
    const points = history.get(r.reader) || [];
    points.push({ t: now, unread: r.unread, age: r.oldestUnreadAgeSeconds });
    while (points.length > HISTORY) points.shift();
    history.set(r.reader, points);
  }
  for (const name of [...history.keys()]) if (!seen.has(name)) history.delete(name);

  const body = document.querySelector('#readers tbody');
  body.replaceChildren();
  for (const r of snapshot.readers) {
    const row = document.createElement('tr');
    if ((r.oldestUnreadAgeSeconds || 0) > 60) row.className = 'late';
    const spark = cell('canvas', null, 'spark');
    const sparkCell = cell('td');
    sparkCell.append(spark);
    row.append(cell('td', r.reader), cell('td', Number(r.unread).toLocaleString(), 'number'),
      cell('td', formatAge(r.oldestUnreadAgeSeconds), 'number'), sparkCell);
    body.appendChild(row);
    sparkline(spark, history.get(r.reader));
  }

  ageChart.data.datasets = [...history.entries()].map(([name, points], i) => ({
    label: name, borderColor: colors[i % colors.length], backgroundColor: colors[i % colors.length],
    data: points.map(p => ({ x: -(now - p.t) / 1000, y: p.age }))
  }));
  ageChart.update();
}

const source = new EventSource('/stream');
source.addEventListener('backlog', event => render(JSON.parse(event.data)));
