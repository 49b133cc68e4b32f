// Binding fingerprints. A binding's CSS selector is what the model wrote;
// its fingerprint is what that selector matched at record time (tag, role, accessible name,
// test id, stable attributes, parent, position). On replay the CSS is tried first and must
// still fit the fingerprint; when it matches nothing or no longer fits, candidates built from
// the fingerprint are tried in order, and the first one whose matches fit is used.
// Defines WT; the scripts that use it are built around it in resolver.py.
const WT = (() => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    const st = getComputedStyle(el);
    return st.visibility !== 'hidden' && st.display !== 'none';
  };
  const IMPLICIT = { A: 'link', BUTTON: 'button', LI: 'listitem', UL: 'list', OL: 'list',
    NAV: 'navigation', DIALOG: 'dialog', ARTICLE: 'article', TABLE: 'table', TR: 'row',
    TD: 'cell', SELECT: 'combobox', TEXTAREA: 'textbox', ASIDE: 'complementary', MAIN: 'main',
    FORM: 'form', IMG: 'img', H1: 'heading', H2: 'heading', H3: 'heading', H4: 'heading',
    H5: 'heading', H6: 'heading', SUMMARY: 'button' };
  const role = (el) => el.getAttribute('role') ||
    (el.tagName === 'A' && !el.hasAttribute('href') ? '' : IMPLICIT[el.tagName] || '');
  const TEST_IDS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
  // State that changes while the page is used, and ids that point elsewhere, say nothing
  // about which element this is.
  const VOLATILE = new Set(['aria-expanded', 'aria-selected', 'aria-pressed', 'aria-checked',
    'aria-hidden', 'aria-busy', 'aria-disabled', 'aria-current', 'aria-labelledby',
    'aria-describedby', 'aria-controls', 'aria-owns', 'aria-activedescendant']);
  const stable = (name) => !name.startsWith('data-webtask') && !VOLATILE.has(name) &&
    (name.startsWith('data-') || name.startsWith('aria-') || name === 'role' || name === 'type' ||
     name === 'name');
  const NAMED_BY_TEXT = new Set(['button', 'link', 'tab', 'menuitem', 'option']);
  const accName = (el) => {
    const label = el.getAttribute('aria-label');
    if (label) return norm(label);
    const by = el.getAttribute('aria-labelledby');
    if (by) return norm(by.split(/\s+/).map((id) => document.getElementById(id))
      .filter(Boolean).map((e) => e.innerText || e.textContent).join(' '));
    if (NAMED_BY_TEXT.has(role(el))) return norm(el.innerText || el.textContent);
    return norm(el.getAttribute('title'));
  };
  const reEscape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const cssValue = (s) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  const attrSel = (name, value) => value === null ? `[${name}]` : `[${name}="${cssValue(value)}"]`;
  // A value worth pinning: short and not data (JSON, sentences).
  const pinnable = (v) => v.length <= 40 && !/[{}\[\]]/.test(v);
  const sig = (el) => {
    if (!el || el === document.body) return 'body';
    let out = el.tagName.toLowerCase();
    if (el.id && !/\d{3,}/.test(el.id)) return out + attrSel('id', el.id);
    for (const a of el.attributes) if (stable(a.name) && pinnable(a.value)) out += attrSel(a.name, a.value);
    return out;
  };
  const path = (root, el) => {
    const steps = [];
    for (let e = el; e && e !== root && e !== document.body && e.parentElement; e = e.parentElement) {
      const same = Array.from(e.parentElement.children).filter((c) => c.tagName === e.tagName);
      steps.unshift(e.tagName.toLowerCase() + (same.length > 1 ? `:nth-of-type(${same.indexOf(e) + 1})` : ''));
    }
    return steps;
  };

  // What `els` (the matches of a binding's CSS inside `root`) have in common.
  // Values are kept only when several matches share them (or for a single element), so a
  // list seen with one item does not pin that item's own values.
  // A name is kept only for controls (o.named): an item's or a field's name is its data.
  const describe = (els, root, css, single, named) => {
    const first = els[0];
    const attrs = {}, has = [];
    for (const a of first.attributes) {
      if (!stable(a.name)) continue;
      const shared = (single || els.length > 1) && els.every((e) => e.getAttribute(a.name) === a.value);
      if (shared && pinnable(a.value)) attrs[a.name] = a.value;
      else if (els.every((e) => e.hasAttribute(a.name))) has.push(a.name);
    }
    const tid = TEST_IDS.find((n) => attrs[n]);
    const one = els.length === 1;
    const name = named && one && (first.getAttribute('aria-label') || NAMED_BY_TEXT.has(role(first))) ? accName(first) : '';
    const parents = new Set(els.map((e) => e.parentElement));
    return {
      css, tag: first.tagName.toLowerCase(), role: role(first),
      name: name && name.length <= 80 ? '^' + reEscape(name).replace(/\d+/g, '\\d+') + '$' : null,
      test_id: tid ? attrSel(tid, attrs[tid]) : null,
      id: one && first.id && !/\d{3,}/.test(first.id) ? first.id : null,
      attrs, has, parent: parents.size === 1 ? sig(first.parentElement) : null,
      path: one ? path(root === document ? document.body : root, first) : null,
      count: els.length,
    };
  };

  // Why `els` are not what the fingerprint describes, or '' when they are.
  const misfit = (els, fp) => {
    for (const el of els) {
      const tag = el.tagName.toLowerCase();
      if (tag !== fp.tag) return `is a <${tag}>, was a <${fp.tag}>`;
      if (role(el) !== fp.role) return `has role "${role(el)}", had "${fp.role}"`;
      for (const k of [...Object.keys(fp.attrs), ...fp.has]) {
        if (!el.hasAttribute(k)) return `has no ${k} attribute any more`;
      }
      for (const [k, v] of Object.entries(fp.attrs)) {
        if (el.getAttribute(k) !== v) return `has ${k}="${el.getAttribute(k)}", had "${v}"`;
      }
      if (fp.name && !new RegExp(fp.name, 'i').test(accName(el))) return `is named "${accName(el)}", did match /${fp.name}/`;
    }
    return '';
  };

  const candidates = (fp, inDocument) => {
    const out = [];
    const own = fp.tag + Object.entries(fp.attrs).map(([k, v]) => attrSel(k, v)).join('') +
      fp.has.map((k) => attrSel(k, null)).join('');
    if (fp.test_id) out.push(['test id', fp.test_id]);
    if (fp.id) out.push(['id', fp.tag + attrSel('id', fp.id)]);
    if (Object.keys(fp.attrs).length || fp.has.length) out.push(['attributes', own]);
    if (fp.parent) {
      out.push(['parent', `${fp.parent} > ${own}`]);
      out.push(['ancestor', `${fp.parent} ${own}`]);
    }
    if (fp.path && fp.path.length) {
      out.push(['position', (inDocument ? 'body > ' : ':scope > ') + fp.path.join(' > ')]);
      if (fp.path.length > 1) out.push(['position', fp.path.slice(-2).join(' > ')]);
    }
    return out;
  };

  const query = (root, sel, mustSee) => {
    let els;
    try { els = Array.from(root.querySelectorAll(sel)); } catch (e) { return null; }
    return mustSee ? els.filter(visible) : els;
  };

  // -> {sel, via, count} with the selector to use now, or {sel: null, tried: [...]}.
  // o: {css, fp, single, visible, named, key, describe}.
  const resolve = (root, o) => {
    const tried = [];
    const els = query(root, o.css, o.visible);
    if (els === null) return { sel: null, tried: [`${o.css}: not a valid CSS selector`] };
    if (els.length) {
      const why = o.fp ? misfit(els, o.fp) : '';
      if (!why) {
        const out = { sel: o.css, via: 'css', count: els.length };
        if (o.describe) out.fp = describe(els, root, o.css, o.single, o.named);
        return out;
      }
      tried.push(`the CSS ${o.css} matches ${els.length}, but the first that differs ${why}`);
    } else tried.push(`the CSS ${o.css} matches nothing${o.visible ? ' visible' : ''}`);
    if (!o.fp) return { sel: null, tried };
    for (const [via, sel] of candidates(o.fp, root === document)) {
      const found = query(root, sel, o.visible);
      if (!found || !found.length) { tried.push(`${via} ${sel}: nothing`); continue; }
      if (o.single && found.length > 1) { tried.push(`${via} ${sel}: ${found.length} matches`); continue; }
      if (!o.single && found.some((e) => e.parentElement !== found[0].parentElement)) {
        tried.push(`${via} ${sel}: matches in more than one list`); continue;
      }
      const why = misfit(found, o.fp);
      if (why) { tried.push(`${via} ${sel}: ${why}`); continue; }
      return { sel, via, count: found.length };
    }
    if (o.fp.name && o.single) {
      const named = query(root, `${o.fp.tag}, [role="${o.fp.role}"]`, o.visible)
        .filter((e) => !misfit([e], o.fp));
      if (named.length === 1) {
        named[0].setAttribute('data-webtask-bind', o.key);
        return { sel: `[data-webtask-bind="${cssValue(o.key)}"]`, via: 'role and name', count: 1 };
      }
      tried.push(`role ${o.fp.role} named /${o.fp.name}/: ${named.length} matches`);
    }
    return { sel: null, tried };
  };

  return { norm, visible, resolve, describe };
})();
