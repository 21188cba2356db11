// The kitchen screen: a snapshot on connect, then batches of new orders and the counts, by server-sent events.
(function () {
  'use strict';
  const MAX_PER_KITCHEN = 20;
  const kitchens = document.getElementById('kitchens');

  function text(id, value) { document.getElementById(id).textContent = value; }

  function column(kitchenId) {
    let section = document.querySelector('.kitchen[data-kitchen="' + CSS.escape(kitchenId) + '"]');
    if (!section) {
      section = document.createElement('section');
      section.className = 'kitchen';
      section.dataset.kitchen = kitchenId;
      const title = document.createElement('h3');
      title.textContent = 'Kitchen ' + kitchenId;
      const list = document.createElement('div');
      list.className = 'orders';
      section.append(title, list);
      const others = Array.from(kitchens.children);
      const after = others.find(other => other.dataset.kitchen > kitchenId);
      kitchens.insertBefore(section, after || null);
    }
    return section.querySelector('.orders');
  }

  function orderCard(order, fresh) {
    const card = document.createElement('div');
    card.className = 'order' + (fresh ? ' new' : '');
    card.dataset.orderId = order.orderId;
    const number = document.createElement('div');
    number.className = 'number';
    number.textContent = '#' + order.sequence + ' ' + order.orderId;
    const items = document.createElement('div');
    items.textContent = order.summary;
    const meta = document.createElement('div');
    meta.className = 'meta';
    meta.textContent = new Date(order.placedAt).toLocaleTimeString() + ' · ' + order.source + ' · '
      + order.latencyMillis + ' ms · ' + order.customerId;
    if (order.trace) {
      // a traced order: its trace in Zipkin
      const trace = document.createElement('a');
      trace.className = 'trace';
      trace.href = order.trace;
      trace.target = '_blank';
      trace.rel = 'noopener';
      trace.textContent = 'trace';
      meta.append(' · ', trace);
    }
    card.append(number, items, meta);
    return card;
  }

  function show(order, fresh) {
    const list = column(order.kitchenId);
    list.insertBefore(orderCard(order, fresh), list.firstChild);
    while (list.children.length > MAX_PER_KITCHEN) {
      list.removeChild(list.lastChild);
    }
  }

  function stats(s) {
    text('placed', s.placed);
    text('reached', s.reached);
    text('missing', s.missing);
    text('received', Object.entries(s.received).map(([k, v]) => k + ' ' + v).join(' · '));
    text('late', s.late);
    text('duplicates', s.duplicatesIgnored);
    text('imported', s.imported);
    text('dead', s.deadLettered);
    text('latency-last', s.latency.count ? s.latency.lastMillis : '–');
    text('latency-mean', s.latency.count ? Math.round(s.latency.meanMillis) : '–');
    text('latency-max', s.latency.count ? Math.round(s.latency.maxMillis) : '–');
    document.getElementById('order-service').hidden = s.orderServiceReachable;
    const missing = document.getElementById('missing-orders');
    missing.replaceChildren(...s.missingOrders.map(m => {
      const item = document.createElement('li');
      item.textContent = '#' + m.sequence + ' missing';
      item.title = 'run ' + m.run;
      return item;
    }));
  }

  const events = new EventSource('stream');
  events.addEventListener('open', () => text('connection', 'live'));
  events.addEventListener('error', () => text('connection', 'reconnecting…'));
  events.addEventListener('snapshot', e => {
    const snapshot = JSON.parse(e.data);
    kitchens.replaceChildren();
    Object.values(snapshot.columns).forEach(orders => orders.slice().reverse().forEach(o => show(o, false)));
    stats(snapshot.stats);
  });
  events.addEventListener('update', e => {
    const update = JSON.parse(e.data);
    update.orders.forEach(o => show(o, true));
    stats(update.stats);
  });
})();
