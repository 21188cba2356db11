// The analytics dashboard: stats and today's report by server-sent events, drawn with Chart.js.
(function () {
  'use strict';

  function text(id, value) { document.getElementById(id).textContent = value; }

  function barChart(id, color, horizontal) {
    return new Chart(document.getElementById(id), {
      type: 'bar',
      data: { labels: [], datasets: [{ label: id.replace('-chart', ''), data: [], backgroundColor: color }] },
      options: {
        animation: false,
        indexAxis: horizontal ? 'y' : 'x',
        plugins: { legend: { display: false } },
        scales: { x: { beginAtZero: true }, y: { beginAtZero: true } }
      }
    });
  }

  const charts = {
    kitchens: barChart('kitchens-chart', '#2e86de', false),
    dishes: barChart('dishes-chart', '#e67e22', true),
    hours: barChart('hours-chart', '#27ae60', false)
  };
  window.lunchRushCharts = charts;

  function draw(chart, counts) {
    chart.data.labels = Object.keys(counts);
    chart.data.datasets[0].data = Object.values(counts);
    chart.update();
  }

  function update(u) {
    const s = u.stats;
    text('received-total', s.total);
    text('rate', s.processedPerSecond.toFixed(1));
    text('capacity', s.capacityPerSecond);
    text('dead', s.deadLettered);
    text('received', Object.entries(s.received).map(([k, v]) => k + ' ' + v).join(' · '));
    text('total-orders', u.today.totalOrders);
    text('day', u.today.date);
    text('zone', u.today.zone);
    draw(charts.kitchens, u.today.ordersPerKitchen);
    draw(charts.dishes, u.today.portionsPerDish);
    draw(charts.hours, u.today.ordersPerHour);
  }

  const events = new EventSource('stream');
  events.addEventListener('open', () => text('connection', 'live'));
  events.addEventListener('error', () => text('connection', 'reconnecting…'));
  events.addEventListener('update', e => update(JSON.parse(e.data)));
})();
