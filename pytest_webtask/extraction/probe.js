// In-page helpers of the StrategyPlanner's tools. page.evaluate(script, {op, ...}).
(args) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const clip = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    const st = getComputedStyle(el);
    return st.visibility === 'visible' && st.display !== 'none';
  };
  const TEST_IDS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
  // A short selector for an element: tag#id, else its test id, else tag.firstClass, else
  // its explicit role, else tag.
  const simple = (el) => {
    const tag = el.tagName.toLowerCase();
    if (el.id && /^[A-Za-z][\w-]*$/.test(el.id)) return tag + '#' + el.id;
    const tid = TEST_IDS.find((n) => el.getAttribute(n));
    if (tid) return `${tag}[${tid}="${el.getAttribute(tid)}"]`;
    const cls = Array.from(el.classList).find((c) => /^[A-Za-z][\w-]*$/.test(c));
    if (cls) return tag + '.' + cls;
    return el.getAttribute('role') ? `${tag}[role="${el.getAttribute('role')}"]` : tag;
  };
  // Role, aria-* and data-* attributes, which often outlive class names: [role=dialog].
  const attrs = (el) => Array.from(el.attributes)
    .filter((a) => (a.name === 'role' || a.name.startsWith('aria-') || a.name.startsWith('data-') ||
                    a.name === 'disabled') && !a.name.startsWith('data-webtask'))
    .map((a) => a.value === '' ? ` [${a.name}]` : ` [${a.name}=${clip(a.value, 30)}]`).join('');
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD']);

  if (args.op === 'outline') {
    // The page as tags with id/class, role/aria/data attributes and short text: what a CSS
    // selector can be written from.
    const lines = [];
    let size = 0;
    const walk = (el, depth) => {
      if (SKIP.has(el.tagName) || size > args.max) return;
      if (el !== document.body && !visible(el) && !el.children.length) return;
      const own = Array.from(el.childNodes).filter((n) => n.nodeType === 3).map((n) => norm(n.nodeValue)).join(' ');
      const line = '  '.repeat(depth) + simple(el) + attrs(el) + (el.getAttribute('href') ? ' [href=' + el.getAttribute('href') + ']' : '') +
        (el.hidden ? ' [hidden]' : '') + (own ? ' "' + clip(own, 60) + '"' : '');
      lines.push(line);
      size += line.length + 1;
      for (const c of el.children) walk(c, depth + 1);
    };
    walk(document.body, 0);
    return lines.join('\n') + (size > args.max ? '\n[outline truncated]' : '');
  }
  if (args.op === 'mark') {
    for (const el of document.querySelectorAll('*')) if (visible(el)) el.setAttribute('data-webtask-seen', '');
    return document.querySelectorAll('*').length;
  }
  if (args.op === 'appeared') {
    // Visible elements that were not visible before the click, outermost only. New siblings
    // that look like the ones already there mean the list grew (load more); others inside
    // the clicked element's parent are an inline expansion. args.keep: look again later.
    const fresh = Array.from(document.querySelectorAll('body *')).filter((el) =>
      !SKIP.has(el.tagName) && visible(el) && !el.hasAttribute('data-webtask-seen') && norm(el.innerText));
    const top = fresh.filter((el) => !fresh.some((o) => o !== el && o.contains(el)));
    const clicked = document.querySelector('[data-webtask-clicked]');
    const out = [];
    const grown = new Map();
    for (const el of top) {
      const like = el.parentElement && Array.from(el.parentElement.children).find((o) =>
        o !== el && o.hasAttribute('data-webtask-seen') && simple(o) === simple(el));
      if (like) { const k = simple(el); grown.set(k, (grown.get(k) || []).concat([el])); continue; }
      out.push({ selector: simple(el), text: clip(norm(el.innerText), 200), grew: 0,
        inside: !!(clicked && clicked.parentElement && clicked.parentElement.contains(el)) });
    }
    for (const [k, els] of grown) {
      out.unshift({ selector: k, text: clip(norm(els[0].innerText), 120), grew: els.length, inside: false });
    }
    if (!args.keep) {
      for (const el of document.querySelectorAll('[data-webtask-seen]')) el.removeAttribute('data-webtask-seen');
      if (clicked) clicked.removeAttribute('data-webtask-clicked');
    }
    return out.slice(0, 5);
  }
  if (args.op === 'describe') {
    const els = Array.from(document.querySelectorAll(args.sel));
    const el = els.find(visible) || els[0];
    if (!el) return null;
    const seen = new Set();
    const content = [];
    const add = (s, d) => {
      if (seen.has(s)) return;
      seen.add(s);
      content.push({ selector: s, text: clip(norm(d.innerText || d.textContent), 60) });
    };
    for (const d of el.querySelectorAll('*')) {
      for (const c of d.classList) if (/^[A-Za-z][\w-]*$/.test(c)) add(args.sel + ' .' + c, d);
      for (const a of d.attributes) {
        if (a.name.startsWith('data-webtask')) continue;
        if (TEST_IDS.includes(a.name) || a.name === 'role' || a.name === 'aria-label') add(`${args.sel} [${a.name}="${a.value}"]`, d);
        else if (a.name.startsWith('data-')) add(`${args.sel} [${a.name}]`, d);
      }
    }
    return { count: els.length, visibleCount: els.filter(visible).length, text: clip(norm(el.innerText || el.textContent), 300),
      children: el.children.length, tag: simple(el) + attrs(el), content: content.slice(0, 16) };
  }
  if (args.op === 'pagination') {
    const words = /^(next|next page|more|load more|show more|›|»|>)$/i;
    return Array.from(document.querySelectorAll('a, button')).filter((el) => visible(el) && words.test(norm(el.innerText)))
      .slice(0, 3).map((el) => ({ selector: simple(el), text: norm(el.innerText) }));
  }
  if (args.op === 'classes') {
    // Visible elements with text on this page, as tag.class selectors that match them.
    const out = [];
    const seen = new Set();
    for (const el of document.querySelectorAll('body *')) {
      if (SKIP.has(el.tagName) || !visible(el) || !norm(el.innerText)) continue;
      const s = simple(el);
      if (s.includes('.') || s.includes('#')) {
        if (!seen.has(s)) { seen.add(s); out.push({ selector: s, text: clip(norm(el.innerText), 60) }); }
      }
    }
    return out.slice(0, 20);
  }
  if (args.op === 'height') return { height: document.body.scrollHeight, count: document.querySelectorAll('body *').length };
  throw new Error('probe: unknown op ' + args.op);
}
