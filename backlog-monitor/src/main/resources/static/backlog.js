'use strict';
// Live table and chart of every reader's backlog, fed by server-sent events from /stream.
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

function render(snapshot) {
  document.getElementById('sources').innerHTML = Object.entries(snapshot.sources)
    .map(([name, up]) => `<span class="${up ? 'up' : 'down'}">${name}: ${up ? 'up' : 'DOWN (its readers are not shown)'}</span>`)
    .join(' · ');
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
  body.innerHTML = '';
  for (const r of snapshot.readers) {
    const row = document.createElement('tr');
    if ((r.oldestUnreadAgeSeconds || 0) > 60) row.className = 'late';
    row.innerHTML = `<td>${r.reader}</td><td class="number">${r.unread.toLocaleString()}</td>`
      + `<td class="number">${formatAge(r.oldestUnreadAgeSeconds)}</td><td><canvas class="spark"></canvas></td>`;
    body.appendChild(row);
    sparkline(row.querySelector('canvas'), history.get(r.reader));
  }

  ageChart.data.datasets = [...history.entries()].map(([name, points], i) => ({
    label: name, borderColor: colors[i % colors.length], backgroundColor: colors[i % colors.length],
    data: points.map(p => ({ x: -(now - p.t) / 1000, y: p.age }))
  }));
  ageChart.update();
}

const source = new EventSource('/stream');
source.addEventListener('backlog', event => render(JSON.parse(event.data)));
