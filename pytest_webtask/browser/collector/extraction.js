// extraction.js: extraction: bindings found again, details, controls, the planner's probes.
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
  // -- extraction bindings: named CSS selectors found again (DESIGN decision 17) ----------
  // A binding's CSS is what the model wrote; its fingerprint (``BindingFingerprint``) is what
  // that CSS matched when recorded: tag, role, accessible name, test id, stable attributes,
  // parent, position, match count. On replay the CSS is tried first and must still fit the
  // fingerprint; when it matches nothing or no longer fits, candidates built from the
  // fingerprint are tried in order, and the first one whose matches fit is used.
  // State that changes while the page is used, and ids that point elsewhere, say nothing
  // about which element this is.
  const VOLATILE = new Set(['aria-expanded', 'aria-selected', 'aria-pressed', 'aria-checked',
    'aria-hidden', 'aria-busy', 'aria-disabled', 'aria-current', 'aria-labelledby',
    'aria-describedby', 'aria-controls', 'aria-owns', 'aria-activedescendant']);
  const stableAttr = (name) => !name.startsWith('data-webtask') && !VOLATILE.has(name) &&
    (name.startsWith('data-') || name.startsWith('aria-') || name === 'role' || name === 'type' ||
     name === 'name');
  const NAMED_BY_TEXT = new Set(['button', 'link', 'tab', 'menuitem', 'option']);
  const reEscape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const cssValue = (s) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  const attrSel = (name, value) => value === null ? `[${name}]` : `[${name}="${cssValue(value)}"]`;
  // A value worth pinning: short and not data (JSON, sentences).
  const pinnable = (v) => v.length <= 40 && !/[{}\[\]]/.test(v);
  // A binding's accessible name matches with its digits generalised ("Page 2 of 9"); recipes
  // before issue 36 stored that pattern itself (^...$).
  const namePattern = (name) => /^\^.*\$$/.test(name) ? name : '^' + reEscape(name).replace(/\d+/g, '\\d+') + '$';
  // Elements with the binding's test id, in any of TEST_IDS; recipes before issue 36 stored
  // the attribute selector itself ([data-testid="row"]).
  const testIdSel = (v) => v.startsWith('[') ? v : TEST_IDS.map((a) => attrSel(a, v)).join(', ');
  const nameOf = (el) => accessibleName(el) || '';
  const bindSig = (el) => {
    if (!el || el === document.body) return 'body';
    let out = el.tagName.toLowerCase();
    if (el.id && !/\d{3,}/.test(el.id)) return out + attrSel('id', el.id);
    for (const a of list(el.attributes)) if (stableAttr(a.name) && pinnable(a.value)) out += attrSel(a.name, a.value);
    return out;
  };
  const bindPath = (root, el) => {
    const steps = [];
    for (let e = el; e && e !== root && e !== document.body && e.parentElement; e = e.parentElement) {
      const same = list(e.parentElement.children).filter((c) => c.tagName === e.tagName);
      steps.unshift(e.tagName.toLowerCase() + (same.length > 1 ? `:nth-of-type(${same.indexOf(e) + 1})` : ''));
    }
    return steps;
  };

  // What `els` (the matches of a binding's CSS inside `root`) have in common: a
  // BindingFingerprint. Values are kept only when several matches share them (or for a
  // single element), so a list seen with one item does not pin that item's own values.
  // A name is kept only for controls (named): an item's or a field's name is its data.
  function bindDescribe(els, root, css, single, named) {
    const first = els[0];
    const attrs = {}, has = [];
    for (const a of list(first.attributes)) {
      if (!stableAttr(a.name)) continue;
      const shared = (single || els.length > 1) && els.every((e) => e.getAttribute(a.name) === a.value);
      if (shared && pinnable(a.value)) attrs[a.name] = a.value;
      else if (els.every((e) => e.hasAttribute(a.name))) has.push(a.name);
    }
    const tid = TEST_IDS.find((n) => attrs[n]);
    const one = els.length === 1;
    const name = named && one && (first.getAttribute('aria-label') || NAMED_BY_TEXT.has(roleOf(first))) ? nameOf(first) : '';
    const parents = new Set(els.map((e) => e.parentElement));
    return {
      css, tag: first.tagName.toLowerCase(), role: roleOf(first),
      name: name && name.length <= 80 ? name : null,
      test_id: tid ? attrs[tid] : null,
      id: one && first.id && !/\d{3,}/.test(first.id) ? first.id : null,
      attrs, has, parent: parents.size === 1 ? bindSig(first.parentElement) : null,
      path: one ? bindPath(root === document ? document.body : root, first) : null,
      count: els.length,
    };
  }

  // Why `els` are not what the binding's fingerprint describes, or '' when they are.
  function bindMisfit(els, fp) {
    const attrs = fp.attrs || {}, has = fp.has || [];
    for (const el of els) {
      const tag = el.tagName.toLowerCase();
      if (tag !== fp.tag) return `is a <${tag}>, was a <${fp.tag}>`;
      if ((roleOf(el) || '') !== (fp.role || '')) return `has role "${roleOf(el) || ''}", had "${fp.role || ''}"`;
      for (const k of [...Object.keys(attrs), ...has]) {
        if (!el.hasAttribute(k)) return `has no ${k} attribute any more`;
      }
      for (const [k, v] of Object.entries(attrs)) {
        if (el.getAttribute(k) !== v) return `has ${k}="${el.getAttribute(k)}", had "${v}"`;
      }
      if (fp.name && !new RegExp(namePattern(fp.name), 'i').test(nameOf(el))) return `is named "${nameOf(el)}", did match /${namePattern(fp.name)}/`;
    }
    return '';
  }

  function bindCandidates(fp, inDocument) {
    const out = [];
    const attrs = fp.attrs || {}, has = fp.has || [];
    const own = fp.tag + Object.entries(attrs).map(([k, v]) => attrSel(k, v)).join('') +
      has.map((k) => attrSel(k, null)).join('');
    if (fp.test_id) out.push(['test id', testIdSel(fp.test_id)]);
    if (fp.id) out.push(['id', fp.tag + attrSel('id', fp.id)]);
    if (Object.keys(attrs).length || has.length) out.push(['attributes', own]);
    if (fp.parent) {
      out.push(['parent', `${fp.parent} > ${own}`]);
      out.push(['ancestor', `${fp.parent} ${own}`]);
    }
    if (fp.path && fp.path.length) {
      out.push(['position', (inDocument ? 'body > ' : ':scope > ') + fp.path.join(' > ')]);
      if (fp.path.length > 1) out.push(['position', fp.path.slice(-2).join(' > ')]);
    }
    return out;
  }

  const bindQuery = (root, sel, mustSee) => {
    let els;
    try { els = list(root.querySelectorAll(sel)); } catch (e) { return null; }
    return mustSee ? els.filter(visible) : els;
  };

  // A binding found again -> {sel, via, count[, fp]} with the selector to use now, or
  // {sel: null, tried: [...]}. o: {key, css, fp, single, visible, named, describe}.
  function bindResolve(root, o) {
    const tried = [];
    const els = bindQuery(root, o.css, o.visible);
    if (els === null) return { sel: null, tried: [`${o.css}: not a valid CSS selector`] };
    if (els.length) {
      const why = o.fp ? bindMisfit(els, o.fp) : '';
      if (!why) {
        const out = { sel: o.css, via: 'css', count: els.length };
        if (o.describe) out.fp = bindDescribe(els, root, o.css, o.single, o.named);
        return out;
      }
      tried.push(`the CSS ${o.css} matches ${els.length}, but the first that differs ${why}`);
    } else tried.push(`the CSS ${o.css} matches nothing${o.visible ? ' visible' : ''}`);
    if (!o.fp) return { sel: null, tried };
    for (const [via, sel] of bindCandidates(o.fp, root === document)) {
      const found = bindQuery(root, sel, o.visible);
      if (!found || !found.length) { tried.push(`${via} ${sel}: nothing`); continue; }
      if (o.single && found.length > 1) { tried.push(`${via} ${sel}: ${found.length} matches`); continue; }
      if (!o.single && found.some((e) => e.parentElement !== found[0].parentElement)) {
        tried.push(`${via} ${sel}: matches in more than one list`); continue;
      }
      const why = bindMisfit(found, o.fp);
      if (why) { tried.push(`${via} ${sel}: ${why}`); continue; }
      return { sel, via, count: found.length };
    }
    if (o.fp.name && o.single) {
      const named = bindQuery(root, o.fp.role ? `${o.fp.tag}, [role="${o.fp.role}"]` : o.fp.tag, o.visible)
        .filter((e) => !bindMisfit([e], o.fp));
      if (named.length === 1) {
        named[0].setAttribute('data-webtask-bind', o.key);
        return { sel: `[data-webtask-bind="${cssValue(o.key)}"]`, via: 'role and name', count: 1 };
      }
      tried.push(`role ${o.fp.role} named /${namePattern(o.fp.name)}/: ${named.length} matches`);
    }
    return { sel: null, tried };
  }

  // An extraction's details, in one call: the panel found as a binding (in the item's scope
  // for inline details), then each field's and each content selector's text, each found as a
  // binding inside the panel. a: {scope, panel, fields: {name: o}, content: [o]}.
  function readDetails(a) {
    const root = a.scope || document;
    const found = bindResolve(root, a.panel);
    if (!found.sel) return { panel: found };
    const panel = list(root.querySelectorAll(found.sel)).find(visible);
    if (!panel) return { panel: { sel: null, tried: [found.sel + ': not visible any more'] } };
    const read = (el) => norm(el.innerText || el.textContent);
    const one = (o) => {
      if (panel.matches(o.css)) return { sel: o.css, via: 'css', el: panel };
      const r = bindResolve(panel, o);
      if (r.sel) r.el = panel.querySelector(r.sel);
      return r;
    };
    const fields = {}, missing = {}, learned = {};
    for (const [name, o] of Object.entries(a.fields)) {
      const r = one(o);
      if (r.el) { fields[name] = read(r.el); learned[name] = { sel: r.sel, via: r.via, fp: r.fp }; }
      else missing[name] = r.tried || [];
    }
    const content = a.content.map((o) => { const r = one(o); return r.el ? read(r.el) : null; });
    return { panel: found, text: read(panel), fields, missing, learned, content };
  }

  // An extraction's control (next page, load more): "ready" when enabled, "gone" when hidden
  // or detached, false while disabled or busy.
  function ready(sel) {
    const el = document.querySelector(sel);
    if (!el || !visible(el)) return 'gone';
    const off = el.disabled || el.getAttribute('aria-disabled') === 'true' ||
      el.getAttribute('aria-busy') === 'true';
    return off ? false : 'ready';
  }

  // An extraction's list: the items matching ``item`` in the first match of ``list`` (else the
  // page), how many, and each one's key (href or data-id, and text): {count, keys}.
  function items(a) {
    const root = a.list ? document.querySelector(a.list) : document;
    const els = root ? list(root.querySelectorAll(a.item)) : [];
    const key = (e) => (e.getAttribute('href') || e.dataset.id || '') + '|' + norm(e.innerText || e.textContent || '');
    return { count: els.length, keys: a.all ? els.map(key) : els.slice(0, 1).map(key) };
  }

  // -- the extraction planner's looks at the page (StrategyPlanner's tools) ------------------
  // A short selector for an element: tag#id, else its test id, else tag.firstClass, else its
  // explicit role, else tag.
  function shortSelector(el) {
    const tag = el.tagName.toLowerCase();
    if (el.id && /^[A-Za-z][\w-]*$/.test(el.id)) return tag + '#' + el.id;
    const tid = testIdAttr(el);
    if (tid) return `${tag}[${tid}="${el.getAttribute(tid)}"]`;
    const cls = list(el.classList).find((c) => /^[A-Za-z][\w-]*$/.test(c));
    if (cls) return tag + '.' + cls;
    return el.getAttribute('role') ? `${tag}[role="${el.getAttribute('role')}"]` : tag;
  }
  // Role, aria-* and data-* attributes, which often outlive class names: [role=dialog].
  const probeAttrs = (el) => list(el.attributes)
    .filter((a) => (a.name === 'role' || a.name.startsWith('aria-') || a.name.startsWith('data-') ||
                    a.name === 'disabled') && !a.name.startsWith('data-webtask'))
    .map((a) => a.value === '' ? ` [${a.name}]` : ` [${a.name}=${clip(a.value, 30)}]`).join('');
  const skipped = (el) => SKIP.has(el.tagName.toLowerCase());

  function probe(a) {
    const op = a.probe;
    if (op === 'outline') {
      // The page as tags with id/class, role/aria/data attributes and short text: what a CSS
      // selector can be written from.
      const lines = [];
      let size = 0;
      const walk = (el, depth) => {
        if (skipped(el) || size > a.max) return;
        if (el !== document.body && !visible(el) && !el.children.length) return;
        const own = list(el.childNodes).filter((n) => n.nodeType === 3).map((n) => norm(n.nodeValue)).join(' ');
        const line = '  '.repeat(depth) + shortSelector(el) + probeAttrs(el) + (el.getAttribute('href') ? ' [href=' + el.getAttribute('href') + ']' : '') +
          (el.hidden ? ' [hidden]' : '') + (own ? ' "' + clip(own, 60) + '"' : '');
        lines.push(line);
        size += line.length + 1;
        for (const c of list(el.children)) walk(c, depth + 1);
      };
      walk(document.body, 0);
      return lines.join('\n') + (size > a.max ? '\n[outline truncated]' : '');
    }
    if (op === 'seen') {
      for (const el of list(document.querySelectorAll('*'))) if (visible(el)) el.setAttribute('data-webtask-seen', '');
      return document.querySelectorAll('*').length;
    }
    if (op === 'appeared') {
      // Visible elements that were not visible before the click, outermost only. New siblings
      // that look like the ones already there mean the list grew (load more); others inside
      // the clicked element's parent are an inline expansion. a.keep: look again later.
      const fresh = list(document.querySelectorAll('body *')).filter((el) =>
        !skipped(el) && visible(el) && !el.hasAttribute('data-webtask-seen') && norm(el.innerText));
      const top = fresh.filter((el) => !fresh.some((o) => o !== el && o.contains(el)));
      const clicked = document.querySelector('[data-webtask-clicked]');
      const out = [];
      const grown = new Map();
      for (const el of top) {
        const like = el.parentElement && list(el.parentElement.children).find((o) =>
          o !== el && o.hasAttribute('data-webtask-seen') && shortSelector(o) === shortSelector(el));
        if (like) { const k = shortSelector(el); grown.set(k, (grown.get(k) || []).concat([el])); continue; }
        out.push({ selector: shortSelector(el), text: clip(norm(el.innerText), 200), grew: 0,
          inside: !!(clicked && clicked.parentElement && clicked.parentElement.contains(el)) });
      }
      for (const [k, els] of grown) {
        out.unshift({ selector: k, text: clip(norm(els[0].innerText), 120), grew: els.length, inside: false });
      }
      if (!a.keep) {
        for (const el of list(document.querySelectorAll('[data-webtask-seen]'))) el.removeAttribute('data-webtask-seen');
        if (clicked) clicked.removeAttribute('data-webtask-clicked');
      }
      return out.slice(0, 5);
    }
    if (op === 'inspect') {
      const els = list(document.querySelectorAll(a.sel));
      const el = els.find(visible) || els[0];
      if (!el) return null;
      const seen = new Set();
      const content = [];
      const add = (s, d) => {
        if (seen.has(s)) return;
        seen.add(s);
        content.push({ selector: s, text: clip(norm(d.innerText || d.textContent), 60) });
      };
      for (const d of list(el.querySelectorAll('*'))) {
        for (const c of list(d.classList)) if (/^[A-Za-z][\w-]*$/.test(c)) add(a.sel + ' .' + c, d);
        for (const at of list(d.attributes)) {
          if (at.name.startsWith('data-webtask')) continue;
          if (TEST_IDS.includes(at.name) || at.name === 'role' || at.name === 'aria-label') add(`${a.sel} [${at.name}="${at.value}"]`, d);
          else if (at.name.startsWith('data-')) add(`${a.sel} [${at.name}]`, d);
        }
      }
      return { count: els.length, visibleCount: els.filter(visible).length, text: clip(norm(el.innerText || el.textContent), 300),
        children: el.children.length, tag: shortSelector(el) + probeAttrs(el), content: content.slice(0, 16) };
    }
    if (op === 'pagination') {
      const words = /^(next|next page|more|load more|show more|›|»|>)$/i;
      return list(document.querySelectorAll('a, button')).filter((el) => visible(el) && words.test(norm(el.innerText)))
        .slice(0, 3).map((el) => ({ selector: shortSelector(el), text: norm(el.innerText) }));
    }
    if (op === 'classes') {
      // Visible elements with text on this page, as tag.class selectors that match them.
      const out = [];
      const seen = new Set();
      for (const el of list(document.querySelectorAll('body *'))) {
        if (skipped(el) || !visible(el) || !norm(el.innerText)) continue;
        const s = shortSelector(el);
        if (s.includes('.') || s.includes('#')) {
          if (!seen.has(s)) { seen.add(s); out.push({ selector: s, text: clip(norm(el.innerText), 60) }); }
        }
      }
      return out.slice(0, 20);
    }
    if (op === 'height') return { height: document.body.scrollHeight, count: document.querySelectorAll('body *').length };
    throw new Error('webtask collector: unknown probe ' + op);
  }

