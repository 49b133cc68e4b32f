// The in-page half of LLMBrowser. One page.evaluate(script, {op, ...}) per call.
// op "collect": page state text + element ids, in one pass over the DOM (open shadow roots
//               and same-origin iframes included).
// op "find":     the elements of the last collect matching a text and/or a role, as lines.
// op "text":     the rendered text of the page, or of the element at a CSS selector
//               (renderedText: the page state's own merge, for text checks).
// op "describe": the fingerprint of one element id from the last collect.
// op "state":    which of the given ids are still attached, and the snapshot number.
// op "settle":   resolve once the DOM has been quiet for `quiet` ms (at most `max` ms).
// op "boxes":    draw (or remove) numbered boxes over the elements, for screenshots.
// op "resolve":  a replay's fingerprint cascade (in this frame): the element it decides on gets
//                a token to act on, else why none did.
// op "target":   the element the cascade decides on, or null (the selector engine, engine.py).
// op "check":    evaluate one typed check (text, hidden, count, nth, order, state, value) on
//                the element and container found before (by id, or by a resolve token).
// op "checks":   evaluate typed checks, each finding its element and container by their
//                fingerprints in the same call.
// op "freeze":   the page as static HTML (form state kept), to check it again later.
(args) => {
  const ID_ATTR = 'data-webtask-id';
  const FRAME_ATTR = 'data-webtask-frame';
  const SECRET_ATTR = 'data-webtask-secret';  // a field a secret was typed into
  const w = window;
  const state = w.__webtask || (w.__webtask = { els: [], frames: [], byId: new Map(), snap: 0 });

  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link',
    'title', 'base', 'path', 'defs', 'br', 'wbr']);
  const INTERACTIVE_TAGS = new Set(['a', 'button', 'input', 'select', 'textarea', 'summary',
    'label']);
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'switch', 'textbox', 'combobox', 'searchbox',
    'slider', 'spinbutton', 'treeitem', 'gridcell']);
  // Structural tags kept in the tree even without attributes; other wrappers are collapsed.
  const KEEP = new Set(['form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'li',
    'table', 'tr', 'td', 'th', 'nav', 'main', 'header', 'footer', 'section', 'article',
    'aside', 'dialog', 'img', 'fieldset', 'legend', 'iframe', 'dl', 'dt', 'dd']);
  const IMPLICIT_ROLE = { a: 'link', button: 'button', select: 'combobox', textarea: 'textbox',
    summary: 'button', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading',
    h5: 'heading', h6: 'heading', li: 'listitem', img: 'img', dialog: 'dialog', form: 'form',
    nav: 'navigation', main: 'main', table: 'table', option: 'option' };
  const INPUT_ROLE = { checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button',
    reset: 'button', image: 'button', range: 'slider', number: 'spinbutton', search: 'searchbox',
    email: 'textbox', tel: 'textbox', text: 'textbox', url: 'textbox', password: null,
    file: null, hidden: null };

  // Secrets ([value, "{name}"] pairs, longest first) are masked before anything is cut to
  // size, so no part of one survives in a clipped value or a truncated page.
  const SECRETS = args.secrets || [];
  const hide = (s) => { for (const [v, p] of SECRETS) s = s.split(v).join(p); return s; };
  const norm = (s) => hide(s || '').replace(/\s+/g, ' ').trim();
  // A node list as an array, by index: a polyfilled DOM may return lists that are not
  // iterable (or nothing at all).
  const list = (nl) => { const out = []; for (let i = 0; nl && i < nl.length; i++) out.push(nl[i]); return out; };
  const clip = (s, n) => { s = hide(s); return s.length > n ? s.slice(0, n - 1) + '…' : s; };
  const q = (s) => JSON.stringify(s);

  function roleOf(el) {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(' ')[0];
    const tag = el.tagName.toLowerCase();
    if (tag === 'input') {
      const t = (el.getAttribute('type') || 'text').toLowerCase();
      return t in INPUT_ROLE ? INPUT_ROLE[t] : 'textbox';
    }
    if (tag === 'a' && !el.hasAttribute('href')) return null;
    return IMPLICIT_ROLE[tag] || null;
  }

  function labelText(el) {
    const doc = el.ownerDocument;
    const root = el.getRootNode();
    if (el.labels && el.labels.length) return norm(el.labels[0].innerText || el.labels[0].textContent);
    if (el.id && root.querySelector) {
      const l = root.querySelector('label[for="' + CSS.escape(el.id) + '"]');
      if (l) return norm(l.innerText || l.textContent);
    }
    return null;
  }

  function accessibleName(el) {
    const aria = el.getAttribute('aria-label');
    if (aria && norm(aria)) return norm(aria);
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const root = el.getRootNode();
      const txt = by.split(/\s+/).map((id) => {
        const n = root.getElementById ? root.getElementById(id) : el.ownerDocument.getElementById(id);
        return n ? norm(n.innerText || n.textContent) : '';
      }).join(' ').trim();
      if (txt) return txt;
    }
    const tag = el.tagName.toLowerCase();
    if (tag === 'input' || tag === 'select' || tag === 'textarea') {
      const l = labelText(el);
      if (l) return l;
      const t = (el.getAttribute('type') || '').toLowerCase();
      if (['submit', 'button', 'reset'].includes(t)) return norm(el.value) || null;
      return norm(el.getAttribute('title') || el.getAttribute('placeholder') || '') || null;
    }
    if (tag === 'img') return norm(el.getAttribute('alt') || el.getAttribute('title') || '') || null;
    const text = norm(el.innerText || el.textContent || '');
    return text || norm(el.getAttribute('title') || '') || null;
  }

  function cssPath(el) {
    // Path within el's own root; hosts of shadow roots are joined with a descendant space,
    // which Playwright's CSS engine pierces.
    const parts = [];
    let node = el;
    while (node && node.nodeType === 1) {
      const tag = node.tagName.toLowerCase();
      if (node.id && /^[A-Za-z][\w-]*$/.test(node.id)) { parts.unshift('#' + node.id); break; }
      let part = tag;
      const parent = node.parentElement;
      if (parent) {
        const same = Array.from(parent.children).filter((c) => c.tagName === node.tagName);
        if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(node) + 1) + ')';
      } else if (node.getRootNode() instanceof ShadowRoot) {
        parts.unshift(part);
        return cssPath(node.getRootNode().host) + ' ' + parts.join(' > ');
      }
      parts.unshift(part);
      if (tag === 'html') break;
      node = parent;
    }
    return parts.join(' > ');
  }

  function xPath(el) {
    if (el.getRootNode() instanceof ShadowRoot) return null; // XPath cannot enter shadow roots
    const parts = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      let i = 1;
      for (let s = node.previousElementSibling; s; s = s.previousElementSibling) {
        if (s.tagName === node.tagName) i++;
      }
      parts.unshift(node.tagName.toLowerCase() + '[' + i + ']');
    }
    return '/' + parts.join('/');
  }

  function frameChain(el) {
    const chain = [];
    let win = el.ownerDocument.defaultView;
    while (win && win !== w && win.frameElement) {
      chain.unshift(cssPath(win.frameElement));
      win = win.parent;
    }
    return chain;
  }

  function fingerprint(el, withNear = true) {
    const tag = el.tagName.toLowerCase();
    const text = norm(el.innerText || el.textContent || '');
    const fp = {
      tag,
      role: roleOf(el),
      name: accessibleName(el),
      text: text ? clip(text, 120) : null,
      label: ['input', 'select', 'textarea'].includes(tag) ? labelText(el) : null,
      placeholder: el.getAttribute('placeholder'),
      test_id: el.getAttribute('data-testid') || el.getAttribute('data-test-id') || el.getAttribute('data-test'),
      id: el.id || null,
      name_attr: el.getAttribute('name'),
      type: tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : null,
      css: cssPath(el),
      xpath: xPath(el),
      frame: frameChain(el),
    };
    if (fp.name) fp.name = clip(fp.name, 120);
    if (withNear) fp.near = nearText(el, fp.name);
    return fp;
  }

  // The identity fields of an element's fingerprint (the same values), without the ways to
  // find it again (CSS path, XPath, frames) or its text: what a replay compares.
  function identity(el, withNear) {
    const tag = el.tagName.toLowerCase();
    const name = accessibleName(el);
    const id = {
      tag,
      role: roleOf(el),
      name: name ? clip(name, 120) : name,
      label: ['input', 'select', 'textarea'].includes(tag) ? labelText(el) : null,
      placeholder: el.getAttribute('placeholder'),
      test_id: el.getAttribute('data-testid') || el.getAttribute('data-test-id') || el.getAttribute('data-test'),
      type: tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : null,
    };
    if (withNear) id.near = nearText(el, id.name);
    return id;
  }

  // When other elements share this one's tag and name (twenty "Add to cart" buttons), the
  // first line of text of the largest container around it that holds no more of them than
  // its parent does: its product card, say ("Blue Oxford Shirt").
  const lookAlikes = new Map();
  function nearText(el, name) {
    const root = el.getRootNode();
    const tag = el.tagName;
    const want = name || '';
    const count = (scope) => {
      // look-alikes under a container, counted once per call (the DOM holds still during
      // one): the buttons of twenty cards share every ancestor above their own card
      const key = tag + '\u0000' + want;
      let known = lookAlikes.get(scope);
      if (!known) lookAlikes.set(scope, known = new Map());
      if (!known.has(key)) {
        known.set(key, Array.from(scope.querySelectorAll(tag))
          .filter((o) => clip(accessibleName(o) || '', 120) === want).length);
      }
      return known.get(key);
    };
    if (!root.querySelectorAll || !el.parentElement) return null;
    const total = count(root);
    if (total <= 1) return null;
    let inner = el.parentElement;
    const own = count(inner);
    if (own === total) return null;
    for (let node = inner.parentElement; node && node !== el.ownerDocument.body; node = node.parentElement) {
      if (count(node) !== own) break;
      inner = node;
    }
    const lines = (inner.innerText || '').split('\n').map(norm).filter((l) => l && l !== want);
    return lines.length ? clip(lines[0], 80) : null;
  }

  function isVisible(el) {
    if (el.tagName === 'INPUT' && (el.getAttribute('type') || '').toLowerCase() === 'file') return true;
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    const st = getComputedStyle(el);
    return st.visibility === 'visible' && (st.opacity !== '0' || styledControl(el));
  }

  // A checkbox or radio made invisible on purpose (opacity 0, clipped) with a visible label
  // or picture in its place: people and Playwright can still use it, so it is listed.
  function styledControl(el) {
    if (el.tagName !== 'INPUT' || !['checkbox', 'radio'].includes((el.type || '').toLowerCase())) return false;
    const label = (el.labels && el.labels[0]) || el.parentElement;
    if (!label) return false;
    const st = getComputedStyle(label);
    return st.visibility === 'visible' && st.opacity !== '0' && label.getBoundingClientRect().width > 0;
  }

  function isInteractive(el, tag, style, parentPointer) {
    if (INTERACTIVE_TAGS.has(tag)) {
      if (tag === 'a') return el.hasAttribute('href') || el.hasAttribute('onclick') || style.cursor === 'pointer';
      if (tag === 'label') {
        // A label earns its own id only when its control cannot be clicked directly
        // (a hidden checkbox behind a styled label, a file input behind a button-like label).
        const c = el.control;
        if (!c) return false;
        const r = c.getBoundingClientRect();
        return c.type === 'file' || r.width === 0 || r.height === 0 || getComputedStyle(c).opacity === '0';
      }
      return true;
    }
    const role = el.getAttribute('role');
    if (role && INTERACTIVE_ROLES.has(role)) return true;
    if (el.hasAttribute('onclick') || el.isContentEditable && el.getAttribute('contenteditable') !== null) return true;
    if (el.getAttribute('draggable') === 'true') return true;
    const ti = el.getAttribute('tabindex');
    if (ti !== null && +ti >= 0) return true;
    // A click handler added with addEventListener leaves no attribute; the pointer cursor is
    // the best outward sign. Only where the cursor starts, not on every child inheriting it.
    return style.cursor === 'pointer' && !parentPointer;
  }

  const CONTAINER_TAGS = new Set(['ul', 'ol', 'table', 'form', 'section', 'aside', 'nav',
    'main', 'article', 'dialog']);
  const CONTAINER_ROLES = new Set(['list', 'listbox', 'grid', 'table', 'dialog', 'alertdialog',
    'region', 'tabpanel', 'menu', 'tree']);
  function isContainer(el, tag) {
    return CONTAINER_TAGS.has(tag) || CONTAINER_ROLES.has(el.getAttribute('role') || '');
  }

  function keyAttrs(el, tag, own) {
    const out = [];
    const add = (k, v, n = 80) => { if (v !== null && v !== undefined && v !== '') out.push(k + '=' + q(clip(String(v), n))); };
    const role = el.getAttribute('role');
    if (role) add('role', role);
    if (tag === 'input') {
      const t = (el.getAttribute('type') || 'text').toLowerCase();
      if (t !== 'text') add('type', t);
      add('name', el.getAttribute('name'));
      add('placeholder', el.getAttribute('placeholder'));
      if (t === 'checkbox' || t === 'radio') { if (el.checked) out.push('checked'); add('value', el.getAttribute('value'), 40); }
      else if (el.hasAttribute(SECRET_ATTR) && el.value) add('value', '••••');
      else if (t !== 'password' && t !== 'file' && el.value) add('value', el.value, 60);
      if (t === 'password' && el.value) add('value', '••••');
    } else if (tag === 'textarea') {
      add('name', el.getAttribute('name'));
      add('placeholder', el.getAttribute('placeholder'));
      if (el.value) add('value', el.hasAttribute(SECRET_ATTR) ? '••••' : el.value, 60);
    } else if (tag === 'select') {
      add('name', el.getAttribute('name'));
      const opts = Array.from(el.options).map((o) => norm(o.text));
      add('options', opts.join('|'), 200);
      if (el.selectedIndex >= 0 && el.options[el.selectedIndex]) add('selected', norm(el.options[el.selectedIndex].text));
    } else if (tag === 'button') {
      const t = el.getAttribute('type');
      if (t && t !== 'submit') add('type', t);
    } else if (tag === 'a') {
      const href = el.getAttribute('href');
      if (href && !href.startsWith('javascript:')) add('href', href, 60);
    } else if (tag === 'img') {
      add('alt', el.getAttribute('alt'));
    }
    if (el.getAttribute('aria-label')) add('aria-label', el.getAttribute('aria-label'));
    if (el.getAttribute('title') && tag !== 'img') add('title', el.getAttribute('title'));
    // its accessible name (a label, aria-labelledby) when nothing else on its line shows it;
    // an element with text of its own and no labelledby is named by that text (no innerText
    // read: layout-bound, the costliest call on a large page)
    if (own !== undefined && (!own || el.hasAttribute('aria-labelledby') ||
        tag === 'input' || tag === 'select' || tag === 'textarea')) {
      const name = accessibleName(el);
      const flat = (v) => norm(v).replace(/\s/g, '').toLowerCase();
      const shown = [own, el.getAttribute('aria-label'), el.getAttribute('title'),
        el.getAttribute('placeholder'), el.getAttribute('alt'), tag === 'input' ? el.value : ''];
      if (name && !shown.some((v) => v && flat(v).includes(flat(name)))) add('label', name);
    }
    const checked = el.getAttribute('aria-checked');
    if (checked === 'true' || checked === 'mixed') out.push(checked === 'true' ? 'checked' : 'mixed');
    if (el.getAttribute('aria-pressed') === 'true') out.push('pressed');
    if (el.getAttribute('draggable') === 'true') out.push('draggable');
    const revealed = state.hover && state.hover.get(el);
    if (revealed) add('hover-reveals', revealed.join('|'));
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') out.push('disabled');
    if (el.getAttribute('aria-expanded')) add('expanded', el.getAttribute('aria-expanded'));
    if (el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-current')) out.push('current');
    return out.length ? ' (' + out.join(' ') + ')' : '';
  }

  // -- text as rendered: innerText's whitespace rules, shared by the page state and checks --

  // A text node as a run: its collapsed text, and whether whitespace touched either side,
  // so inline pieces merge as they render: "$" + "0.99" -> "$0.99", "in" + "blue" ->
  // "in blue". A whitespace-only node is an empty run that still separates its neighbours.
  function textRun(node) {
    const raw = node.nodeValue;
    return { s: norm(raw), pre: /^\s/.test(raw), post: /\s$/.test(raw) };
  }

  // Boxes that break a line in innerText; inline, inline-block and display:contents do not.
  function breaksLine(style) {
    return !style.display.startsWith('inline') && style.display !== 'contents';
  }

  function isText(n) { return n && n.s !== undefined; }

  function joinRuns(a, b) {
    if (!a.s) return { s: b.s, pre: a.pre || a.post || b.pre, post: b.post };
    if (!b.s) return { s: a.s, pre: a.pre, post: a.post || b.pre || b.post };
    return { s: a.s + (a.post || b.pre ? ' ' : '') + b.s, pre: a.pre, post: b.post };
  }

  // The children a walk enters: a closed <details> shows only its summary.
  function shownChildren(el, tag) {
    if (tag === 'details' && !el.open) {
      return Array.from(el.children).filter((c) => c.tagName === 'SUMMARY').slice(0, 1);
    }
    return el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes;
  }

  // Is this element rendered at all (not display:none, not hidden content)?
  function rendered(el, tag, style) {
    if (SKIP.has(tag)) return false;
    const isFile = tag === 'input' && (el.getAttribute('type') || '').toLowerCase() === 'file';
    if (style.display === 'none' && !isFile) return false;
    if (tag === 'input' && (el.getAttribute('type') || '').toLowerCase() === 'hidden') return false;
    return true;
  }

  // The visible text of a subtree as one line, merged by the page state's rules (the same
  // string the page state shows for an element whose subtree is collapsed onto one line).
  function renderedText(root) {
    let acc = { s: '', pre: false, post: false };
    const add = (run) => { acc = joinRuns(acc, run); };
    const visit = (node, visible) => {
      if (node.nodeType === 3) { if (visible) add(textRun(node)); return; }
      if (node.nodeType !== 1) return;
      const el = node;
      const tag = el.tagName.toLowerCase();
      const style = getComputedStyle(el);
      if (!rendered(el, tag, style) || tag === 'select' || tag === 'textarea') return;
      const vis = style.visibility === 'visible' && style.opacity !== '0';
      const block = breaksLine(style);
      if (block) add({ s: '', pre: true, post: true });
      if (tag === 'iframe') {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc && doc.body) visit(doc.body, true);
      } else if (tag === 'slot') {
        const assigned = el.assignedNodes({ flatten: true });
        for (const c of (assigned.length ? assigned : el.childNodes)) visit(c, vis);
      } else {
        for (const c of shownChildren(el, tag)) visit(c, vis);
      }
      if (block) add({ s: '', pre: true, post: true });
    };
    visit(root, true);
    return acc.s;
  }

  // Controls a stylesheet shows only while their container is hovered ("li:hover .destroy
  // {display: inline-block}"), by container: not rendered now, so the page state names them
  // on the container's line, and the model knows to hover it first.
  function hoverReveals(doc) {
    const hosts = new Map();
    const shows = (st) => (st.display && st.display !== 'none') || st.visibility === 'visible' ||
      (st.opacity && st.opacity !== '0');
    const rules = [];
    const collectRules = (list) => {
      for (const r of list) {
        if (r.cssRules && !r.selectorText) collectRules(r.cssRules); // @media, @supports
        else if (r.selectorText && r.selectorText.includes(':hover') && shows(r.style)) rules.push(r);
      }
    };
    for (const sheet of doc.styleSheets) {
      try { collectRules(sheet.cssRules); } catch (e) { /* a cross-origin sheet */ }
    }
    for (const rule of rules) {
      for (const sel of rule.selectorText.split(',')) {
        const at = sel.indexOf(':hover');
        if (at < 0) continue;
        const hostSel = sel.slice(0, at).trim();
        const rest = sel.slice(at + 6);
        if (!hostSel || !/^\s/.test(rest)) continue; // the hovered element shows a descendant
        let targets = [];
        try { targets = Array.from(doc.querySelectorAll(sel.replace(/:hover/g, ''))); } catch (e) { continue; }
        for (const t of targets) {
          const st = getComputedStyle(t);
          if (st.display !== 'none' && st.visibility !== 'hidden') continue; // shown already
          let host = null;
          try { host = t.parentElement && t.parentElement.closest(hostSel); } catch (e) { host = null; }
          if (!host) continue;
          const name = clip(accessibleName(t) || t.getAttribute('title') || t.tagName.toLowerCase(), 40);
          const list = hosts.get(host) || [];
          if (!list.includes(name) && list.length < 5) list.push(name);
          hosts.set(host, list);
        }
      }
    }
    return hosts;
  }

  function collect(opts) {
    state.hover = hoverReveals(document);
    for (const el of state.els) { try { el.removeAttribute(ID_ATTR); } catch (e) { /* gone */ } }
    for (const f of state.frames) { try { f.removeAttribute(FRAME_ATTR); } catch (e) { /* gone */ } }
    state.els = []; state.frames = []; state.byId = new Map(); state.snap += 1;
    const counters = {};
    const elements = {};
    const maxText = opts.maxText || 200;

    function register(el, tag, frames) {
      const n = counters[tag] || 0;
      counters[tag] = n + 1;
      const id = tag + '-' + n;
      el.setAttribute(ID_ATTR, id);
      state.els.push(el);
      state.byId.set(id, el);
      elements[id] = { frames };
      return id;
    }

    // Returns a list of nodes: strings (text) or {head, kids}.
    function walk(node, frames, parentVisible, parentPointer) {
      if (node.nodeType === 3) return parentVisible ? [textRun(node)] : [];
      if (node.nodeType !== 1) return [];
      const el = node;
      const tag = el.tagName.toLowerCase();
      if (SKIP.has(tag)) return [];
      const style = getComputedStyle(el);
      const isFile = tag === 'input' && (el.getAttribute('type') || '').toLowerCase() === 'file';
      if (!rendered(el, tag, style)) return [];
      const selfVisible = style.visibility === 'visible' && (style.opacity !== '0' || styledControl(el));
      const pointer = style.cursor === 'pointer';

      let kids = [];
      if (tag === 'iframe') {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc && doc.body) {
          const fid = 'f' + state.frames.length;
          el.setAttribute(FRAME_ATTR, fid);
          state.frames.push(el);
          kids = walk(doc.body, frames.concat([fid]), true, false);
        }
      } else if (tag === 'slot') {
        for (const c of el.assignedNodes({ flatten: true })) kids.push(...walk(c, frames, selfVisible, pointer));
        if (!el.assignedNodes().length) for (const c of el.childNodes) kids.push(...walk(c, frames, selfVisible, pointer));
      } else {
        for (const c of shownChildren(el, tag)) kids.push(...walk(c, frames, selfVisible, pointer));
      }
      if (tag === 'select' || tag === 'textarea') kids = []; // options shown as an attribute
      const ids = kids.reduce((sum, k) => sum + (k.ids || 0), 0);

      let interactive = false;
      if (selfVisible || isFile) {
        if (isInteractive(el, tag, style, parentPointer)) {
          const r = el.getBoundingClientRect();
          interactive = isFile || (r.width > 0 && r.height > 0);
        }
      }
      const own = interactive ? kids.filter(isText).map((k) => k.s).join(' ') : undefined;
      const attrs = (interactive || KEEP.has(tag) || el.getAttribute('role')) ? keyAttrs(el, tag, own) : '';
      // Where it is, for long pages: only the top document's boxes (frames follow their iframe).
      const box = frames.length ? null : el.getBoundingClientRect();
      const pos = box && (box.width || box.height) ? [box.top, box.bottom] : null;
      if (interactive) {
        return [{ head: register(el, tag, frames) + attrs, kids, pos, ids: ids + 1, tag }];
      }
      if (KEEP.has(tag) || attrs) {
        if (!kids.length && !attrs && tag !== 'img') return [];
        // Containers get ids too, so evidence can name a scope ("within": "ul-0").
        const head = isContainer(el, tag) ? register(el, tag, frames) : tag;
        return [{ head: head + attrs, kids, pos, ids: ids + (head === tag ? 0 : 1), tag }];
      }
      // collapse a plain wrapper into its parent; a block wrapper separates its text
      if (kids.length && breaksLine(style)) {
        kids.unshift({ s: '', pre: true, post: true });
        kids.push({ s: '', pre: true, post: true });
      }
      return kids;
    }

    // Merge neighbouring text runs into one string each (joinRuns, as renderedText does);
    // drop empty ones; clip long ones.
    function merge(nodes) {
      const out = [];
      for (const n of nodes) {
        const prev = out[out.length - 1];
        if (isText(n) && isText(prev)) out[out.length - 1] = joinRuns(prev, n);
        else out.push(n);
      }
      return out.filter((n) => !isText(n) || n.s)
        .map((n) => (isText(n) ? clip(n.s, maxText) : { ...n, kids: merge(n.kids) }));
    }

    const body = document.body || document.documentElement;
    const tree = merge(walk(body, [], true, false));

    const budget = opts.maxChars || 40000;
    // A page over the budget shows what is in and near the viewport (up to a screen above
    // and below, less if that is still over) in full, and a count of the rest; every element still gets its id, so ids
    // do not change with scrolling and find can reach any of them.
    let out = renderTree(tree, budget, null);
    let windowed = false;
    for (const margin of [1, 0.5, 0.25, 0]) {
      if (!out.truncated) break;
      windowed = true;
      out = renderTree(tree, budget, [-margin * innerHeight, (1 + margin) * innerHeight]);
    }
    let text = out.lines.join('\n');
    if (out.truncated) {
      text += '\n[page state truncated: ' + out.truncated + ' more lines not shown (budget ' + budget +
        ' characters); scroll, or use find]';
    }
    if (!out.lines.length) text = '(the page shows nothing)';
    return { text, elements, snap: state.snap, url: location.href, title: document.title,
      truncated: out.truncated, windowed };
  }

  const PLURAL = { tr: 'rows', li: 'items', article: 'articles', section: 'sections', p: 'paragraphs',
    a: 'links', button: 'buttons', input: 'inputs', img: 'images', h1: 'headings', h2: 'headings',
    h3: 'headings', h4: 'headings', dt: 'terms', dd: 'definitions' };

  // Lines for a tree; with a window [top, bottom] (viewport pixels), nodes wholly outside
  // it become one summary line per run of them.
  function renderTree(tree, budget, win) {
    const lines = [];
    let size = 0;
    let truncated = 0;
    function emit(line) {
      if (size + line.length + 1 > budget) { truncated++; return; }
      lines.push(line);
      size += line.length + 1;
    }
    const side = (n) => (!win || typeof n === 'string' || !n.pos ? null
      : n.pos[1] < win[0] ? 'above' : n.pos[0] > win[1] ? 'below' : null);
    function render(nodes, depth) {
      const pad = '  '.repeat(depth);
      let skip = null;
      const flush = () => {
        if (!skip) return;
        const tags = new Set(skip.tags);
        const noun = tags.size === 1 ? (PLURAL[skip.tags[0]] || 'elements') : 'elements';
        emit(pad + '- [' + skip.count + ' more ' + noun + ' ' + skip.side +
          (skip.ids ? ', holding ' + skip.ids + ' element ids' : '') +
          ': scroll ' + (skip.side === 'above' ? 'up' : 'down') + ', or use find]');
        skip = null;
      };
      for (const n of nodes) {
        const away = side(n);
        if (away) {
          if (skip && skip.side !== away) flush();
          skip = skip || { side: away, count: 0, ids: 0, tags: [] };
          skip.count++; skip.ids += n.ids || 0; skip.tags.push(n.tag);
          continue;
        }
        flush();
        if (typeof n === 'string') { emit(pad + '- ' + q(n)); continue; }
        if (n.kids.length === 1 && typeof n.kids[0] === 'string') {
          emit(pad + '- ' + n.head + ' ' + q(n.kids[0]));
        } else if (n.kids.length === 1 && !n.head.includes('-') && !n.head.includes(' ')) {
          // a bare structural node around one element: one line, "h3 > a-2 ..."
          render([{ ...n.kids[0], head: n.head + ' > ' + n.kids[0].head }], depth);
        } else {
          emit(pad + '- ' + n.head);
          render(n.kids, depth + 1);
        }
      }
      flush();
    }
    render(tree, 0);
    return { lines, truncated };
  }

  // Elements of the last collect whose role is ``role`` and whose name, text, label,
  // placeholder or value, or the text of their row, item or card, holds ``text``
  // (case-insensitive). Best first: the whole name, then whole words in the element, whole
  // words in its row, then part of a word; document order among equals. One line each.
  function find(text, role, limit) {
    const want = norm(text).toLowerCase();
    const words = new RegExp('(^|\\W)' + want.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '($|\\W)');
    const rowOf = (el) => el.closest('tr, li, [role=row], [role=listitem], article, section, form') || el.parentElement;
    const rowText = new Map();
    const textOf = (b) => { if (!rowText.has(b)) rowText.set(b, renderedText(b).toLowerCase()); return rowText.get(b); };
    const score = (el) => {
      if (!want) return 1;
      const own = [accessibleName(el), renderedText(el), labelText(el), el.getAttribute('placeholder'),
        el.value, el.getAttribute('title')].filter((v) => v).map((v) => norm(String(v)).toLowerCase());
      if (own.includes(want)) return 5;
      if (own.some((v) => words.test(v))) return 4;
      const row = rowOf(el);
      const around = row ? textOf(row) : '';
      if (words.test(around)) return 3;
      if (own.some((v) => v.includes(want))) return 2;
      return around.includes(want) ? 1 : 0;
    };
    const hits = [];
    let n = 0;
    for (const [id, el] of state.byId) {
      n++;
      if (!el.isConnected || (role && roleOf(el) !== role && el.tagName.toLowerCase() !== role)) continue;
      // containers have ids only to scope evidence: find looks for what can be acted on
      if (!role && isContainer(el, el.tagName.toLowerCase()) && !isInteractive(el, el.tagName.toLowerCase(), getComputedStyle(el), false)) continue;
      const sc = score(el);
      if (sc) hits.push([sc, n, id, el]);
    }
    hits.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    const lines = hits.slice(0, limit).map(([, , id, el]) => {
      const tag = el.tagName.toLowerCase();
      const t = renderedText(el);
      const b = el.closest('tr, li, [role=row], [role=listitem], article');
      const ctx = b && b !== el ? renderedText(b) : '';
      return '- ' + id + keyAttrs(el, tag, t) + (t ? ' ' + q(clip(t, 80)) : '') +
        (ctx && ctx !== t ? ' in ' + q(clip(ctx, 80)) : '');
    });
    return { lines, total: hits.length };
  }

  function settle(quiet, max) {
    return new Promise((resolve) => {
      let timer = null;
      const ours = (m) => m.type === 'attributes' && m.attributeName.startsWith('data-webtask-');
      const obs = new MutationObserver((muts) => {
        if (muts.every(ours)) return;
        clearTimeout(timer);
        timer = setTimeout(done, quiet);
      });
      const cap = setTimeout(() => { obs.disconnect(); clearTimeout(timer); resolve(false); }, max);
      function done() { obs.disconnect(); clearTimeout(cap); resolve(true); }
      obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      timer = setTimeout(done, quiet);
    });
  }

  function boxes(show) {
    const old = document.getElementById('__webtask_boxes');
    if (old) old.remove();
    if (!show) return 0;
    const layer = document.createElement('div');
    layer.id = '__webtask_boxes';
    layer.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647';
    let n = 0;
    for (const [id, el] of state.byId) {
      if (el.ownerDocument !== document) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 0 || r.bottom < 0 || r.top > innerHeight) continue;
      const b = document.createElement('div');
      b.style.cssText = `position:fixed;left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;outline:2px solid #e0245e;`;
      const tagEl = document.createElement('span');
      tagEl.textContent = id;
      tagEl.style.cssText = 'position:absolute;left:0;top:-14px;font:11px monospace;background:#e0245e;color:#fff;padding:0 2px';
      b.appendChild(tagEl);
      layer.appendChild(b);
      n++;
    }
    document.documentElement.appendChild(layer);
    return n;
  }

  // Every element of the document, open shadow roots included (iframes are not entered).
  function deepAll(root) {
    const out = [];
    const walk = (node) => {
      for (const el of list(node.querySelectorAll('*'))) {
        out.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(root);
    return out;
  }

  // The fingerprint cascade of a replay, in one round trip. Strategies are tried in order
  // (each computed only when the ones before decided nothing); a strategy decides when it has
  // visible candidates that are still the same element (``differences`` finds none): one is
  // the answer, several an ambiguity (unless exactly one keeps the recorded CSS path).
  // Returns {el} or, for the message, {how, same: [fingerprints], count} (ambiguous) or
  // {seen: [[how, fingerprint, differences]]} (the closest visible candidates, none the same).
  function findTarget(fp) {
    let all = null;
    const every = () => all || (all = deepAll(document));
    const tagged = (el) => el.tagName.toLowerCase() === fp.tag;
    const strategies = [];
    const by = (name, pred) => strategies.push([name, () => every().filter(pred)]);
    if (fp.test_id) by('test id', (el) => [el.getAttribute('data-testid'), el.getAttribute('data-test-id'), el.getAttribute('data-test')].includes(fp.test_id));
    if (fp.role && fp.name) by('role and name', (el) => roleOf(el) === fp.role && clip(accessibleName(el) || '', 120) === fp.name);
    if (fp.label) by('label', (el) => ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName) && labelText(el) === fp.label);
    if (fp.placeholder) by('placeholder', (el) => el.getAttribute('placeholder') === fp.placeholder);
    if (fp.id) by('id', (el) => tagged(el) && el.id === fp.id);
    if (fp.name_attr) by('name attribute', (el) => tagged(el) && el.getAttribute('name') === fp.name_attr);
    if (fp.text && fp.text.length < 120) by('text', (el) => tagged(el) && norm(el.innerText || el.textContent || '') === fp.text);
    // An element with no name of its own (a row's checkbox) is found by its role and the
    // text of the container it sits in.
    if (fp.near && !fp.name) by('role and neighbour text', (el) => tagged(el) && roleOf(el) === fp.role && nearText(el, accessibleName(el)) === fp.near);
    if (fp.css) {
      strategies.push(['CSS path', () => { try { return list(document.querySelectorAll(fp.css)); } catch (e) { return []; } }]);
    }
    if (fp.xpath) {
      strategies.push(['XPath', () => {
        const found = [];
        try {
          const snap = document.evaluate(fp.xpath, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
          for (let i = 0; i < snap.snapshotLength; i++) found.push(snap.snapshotItem(i));
        } catch (e) { /* not a valid XPath here */ }
        return found;
      }]);
    }
    // What identifies a candidate (what ``differences`` compares), once per element; its
    // whole fingerprint only for the few a failure message shows.
    const ids = new Map();
    const identityOf = (el) => {
      if (!ids.has(el)) ids.set(el, identity(el, !!fp.near));
      return ids.get(el);
    };
    const described = (el) => fingerprint(el, !!fp.near);
    const seen = [];
    for (const [how, candidates] of strategies) {
      const visible = candidates().slice(0, 50).filter(isVisible);
      let same = [];
      for (const el of visible) {
        const diff = differences(fp, identityOf(el), visible.length > 1, how);
        if (diff.length) { if (seen.length < 3) seen.push([how, described(el), diff]); }
        else same.push(el);
      }
      if (same.length > 1) {
        const byCss = same.filter((el) => cssPath(el) === fp.css);
        if (byCss.length) same = byCss;
      }
      if (same.length === 1) return { el: same[0] };
      if (same.length) return { how, same: same.slice(0, 3).map(described), count: same.length };
    }
    return { seen };
  }

  // Identity fields: a change in any of them means it is not the same element. Ids, classes,
  // CSS paths and XPaths are only ways to find an element; they may change harmlessly.
  const IDENTITY = ['tag', 'type', 'role', 'name', 'test_id', 'label', 'placeholder'];
  // Strategies that identify the element by itself: a candidate found by one of them is not
  // rejected for lacking a name or label it had at record time (the name may have come from a
  // neighbour, a label the new markup doesn't have).
  const SELF_IDENTIFYING = ['test id', 'id', 'name attribute'];
  const spaced = (s) => (s || '').replace(/\s+/g, ' ').trim();
  // A value as Python's repr shows it, so messages read the same as the rest of the plugin's.
  const pyRepr = (s) => {
    if (s === null || s === undefined) return 'None';
    const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
    return quote + s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t')
      .split(quote).join('\\' + quote) + quote;
  };

  // What differs in identity between the recorded element and a candidate. ``several``:
  // other candidates are visible too, so the element must be near the same text again.
  function differences(want, have, several, foundBy) {
    const out = [];
    for (const field of IDENTITY) {
      const w = want[field];
      if (w === null || w === undefined) continue;
      const h = have[field];
      if ((h === null || h === undefined) && (field === 'name' || field === 'label') && SELF_IDENTIFYING.includes(foundBy)) continue;
      if (spaced(w) !== spaced(h)) out.push(field + ' ' + pyRepr(h) + ' instead of ' + pyRepr(w));
    }
    if (want.near && (have.near || several) && spaced(want.near) !== spaced(have.near)) {
      out.push('it is near ' + pyRepr(have.near) + ', not ' + pyRepr(want.near));
    }
    return out;
  }

  // A replay's target: the element findTarget decides on gets a data-webtask-target (or, for
  // slot "scope", data-webtask-scope) token Playwright can act on. ``keep``: the previous
  // call's token stays valid (a drag's source while finding its target).
  function resolve(fp, slot, keep) {
    const attr = slot === 'scope' ? 'data-webtask-scope' : 'data-webtask-target';
    state.targets = state.targets || {};
    if (!keep) {
      for (const el of state.targets[attr] || []) { try { el.removeAttribute(attr); } catch (e) { /* gone */ } }
      state.targets[attr] = [];
    }
    state.targets[attr] = state.targets[attr] || [];
    const found = findTarget(fp);
    if (!found.el) return found;
    state.tok = (state.tok || 0) + 1;
    const token = 't' + state.tok;
    found.el.setAttribute(attr, token);
    state.targets[attr].push(found.el);
    return { token };
  }

  // -- typed checks (replay and record time share them) -----------------------------------

  function shown(el) {
    if (!el || !el.isConnected) return false;
    if (el.checkVisibility) return el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    return isVisible(el);
  }

  function isControl(el) {
    const tag = el.tagName.toLowerCase();
    if (['a', 'button', 'input', 'select', 'textarea'].includes(tag)) return true;
    const role = el.getAttribute('role');
    return !!role && INTERACTIVE_ROLES.has(role);
  }

  // The visible texts under root a person (and the page state) would read as one piece: each
  // visible element's whole rendered text, and each run of text between element boundaries
  // (inline pieces joined as rendered: "<b>2</b> items left" -> "2 items left"). Hidden
  // parts are left out, as innerText does. Document order.
  function textCandidates(root) {
    const out = [];
    const seen = new Set();
    const push = (t) => { if (t && !seen.has(t)) { seen.add(t); out.push(t); } };
    const visit = (el) => {
      if (!shown(el)) return;
      const tag = el.tagName.toLowerCase();
      if (SKIP.has(tag)) return;
      if (tag === 'select' || tag === 'textarea' || tag === 'input') return; // values, not text
      push(renderedText(el)); // the page state's own merge: what the model was shown
      let run = '';
      const flush = () => { push(norm(run)); run = ''; };
      for (const c of list(el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes)) {
        if (c.nodeType === 3) { run += c.nodeValue; continue; }
        if (c.nodeType !== 1) continue;
        const ctag = c.tagName.toLowerCase();
        if (ctag === 'br') { flush(); continue; }
        if (SKIP.has(ctag) || !shown(c)) continue; // not rendered: adds nothing, splits nothing
        if (getComputedStyle(c).display.startsWith('inline') && !isControl(c)) run += c.innerText || '';
        else flush();
        visit(c);
      }
      flush();
    };
    visit(root);
    return out;
  }

  function matches(candidates, c) {
    if (c.match === 'pattern') {
      let re;
      try { re = new RegExp('^(?:' + c.pattern + ')$'); } catch (e) { return false; }
      return candidates.some((t) => re.test(t));
    }
    if (c.match === 'contains') return candidates.some((t) => t.includes(c.text));
    return candidates.includes(c.text);
  }

  // What the page shows instead: texts sharing the expected text's longest word, or the start
  // of the scope's text.
  function closest(candidates, want, root) {
    const word = (want || '').split(/\W+/).sort((a, b) => b.length - a.length)[0] || '';
    if (word.length > 2) {
      const lw = word.toLowerCase();
      const near = candidates.filter((t) => t.toLowerCase().includes(lw))
        .sort((a, b) => a.length - b.length).slice(0, 3);
      if (near.length) return 'the closest visible texts are ' + near.map((t) => q(clip(t, 120))).join(', ');
    }
    return 'no such text is visible; the page shows: ' + q(clip(norm(root.innerText || ''), 300));
  }

  const LIST_TAGS = new Set(['UL', 'OL', 'MENU', 'TABLE', 'TBODY', 'SELECT', 'DL']);
  function isList(el) {
    const role = el.getAttribute('role');
    return LIST_TAGS.has(el.tagName) || ['list', 'listbox', 'grid', 'table', 'tree', 'menu'].includes(role || '');
  }

  // The visible items of a list-like container: list items, table body rows, options; for
  // another container holding exactly one list, that list's items; else its children.
  function itemsOf(c) {
    const tag = c.tagName;
    const role = c.getAttribute('role') || '';
    let items;
    if (tag === 'UL' || tag === 'OL' || tag === 'MENU') items = list(c.children).filter((k) => k.tagName === 'LI');
    else if (tag === 'TABLE' || tag === 'TBODY' || role === 'table' || role === 'grid') {
      items = list(c.querySelectorAll('tr, [role=row]')).filter((r) => !list(r.children).every((x) => x.tagName === 'TH' || x.getAttribute('role') === 'columnheader'));
    } else if (tag === 'SELECT' || role === 'listbox') items = list(c.querySelectorAll('option, [role=option]'));
    else if (role === 'list') items = list(c.querySelectorAll('[role=listitem]'));
    else if (tag === 'DL') items = list(c.children).filter((k) => k.tagName === 'DT');
    else {
      const lists = list(c.querySelectorAll('ul, ol, table, [role=list], [role=listbox], [role=grid], [role=table]')).filter(shown);
      const outer = lists.filter((l) => !lists.some((o) => o !== l && o.contains(l)));
      if (outer.length === 1) return itemsOf(outer[0]);
      items = list(c.children);
    }
    return items.filter((k) => tag === 'SELECT' || shown(k));
  }

  // The item of a list that holds el, and its position: the nearest list item, table row or
  // option around it; else the nearest ancestor repeated among its siblings.
  function itemPosition(el) {
    let item = null;
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const role = n.getAttribute('role') || '';
      if (n.tagName === 'LI' || n.tagName === 'TR' || n.tagName === 'OPTION' || ['listitem', 'row', 'option', 'treeitem'].includes(role)) { item = n; break; }
    }
    if (!item) {
      for (let n = el; n && n.parentElement; n = n.parentElement) {
        const same = list(n.parentElement.children).filter((k) => k.tagName === n.tagName && shown(k));
        if (same.length > 1) { item = n; break; }
      }
    }
    if (!item) return null;
    let container = item.parentElement;
    if (item.tagName === 'TR' || item.getAttribute('role') === 'row') container = item.closest('table, [role=table], [role=grid]') || container;
    const items = (container && isList(container)) ? itemsOf(container)
      : list(item.parentElement.children).filter((k) => k.tagName === item.tagName && shown(k));
    const index = items.indexOf(item);
    return index < 0 ? null : { index: index + 1, count: items.length };
  }

  // Elements like el: at the same place in the same kind of structure (its CSS path without
  // positions), visible, inside scope when given.
  function likeElements(el, scope) {
    const parts = [];
    // tags only: ids and positions tell the items of a list apart, which is not the point
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) parts.unshift(n.tagName.toLowerCase());
    let found = [];
    try { found = list(el.getRootNode().querySelectorAll(parts.join(' > '))); } catch (e) { found = [el]; }
    return found.filter((x) => shown(x) && isVisible(x) && (!scope || scope.contains(x)));
  }

  function stateOf(el) {
    const aria = (name) => el.getAttribute('aria-' + name);
    const box = el.tagName === 'INPUT' && ['checkbox', 'radio'].includes((el.type || '').toLowerCase());
    const checked = box ? el.checked === true : aria('checked') === 'true';
    const checkable = box || aria('checked') !== null;
    let disabled = false;
    try { disabled = el.matches(':disabled'); } catch (e) { disabled = !!el.disabled; }
    disabled = disabled || !!el.closest('[aria-disabled="true"]');
    const details = el.tagName === 'SUMMARY' ? el.parentElement : (el.tagName === 'DETAILS' ? el : null);
    const expanded = aria('expanded') === 'true' || !!(details && details.open);
    const collapsible = aria('expanded') !== null || !!details;
    const selected = el.selected === true || aria('selected') === 'true' || (aria('current') !== null && aria('current') !== 'false');
    return { checked, unchecked: checkable && !checked, disabled, enabled: !disabled,
      expanded, collapsed: collapsible && !expanded, selected };
  }

  function describeState(s) {
    const on = ['checked', 'unchecked', 'disabled', 'enabled', 'expanded', 'collapsed', 'selected'].filter((k) => s[k]);
    return on.length ? on.join(', ') : 'in no particular state';
  }

  function valueOf(el) {
    if (el.tagName === 'SELECT') {
      const o = el.options[el.selectedIndex];
      return o ? norm(o.text) : '';
    }
    if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') return el.value;
    return norm(el.innerText || el.textContent || '');
  }

  function deepFind(sel) {
    if (!sel) return null;
    const direct = document.querySelector(sel);
    if (direct) return direct;
    return deepAll(document).find((el) => el.matches(sel)) || null;
  }

  // Typed checks, each with its element and container found by their fingerprints in the
  // same call (one round trip for all the checks of a step). Returns, per check, {ok, got}
  // (got: what the page has instead) or, when its element or container is not found,
  // {ok: false, element|within: findTarget's account of why}.
  function checks(items) {
    const texts = new Map();  // the visible texts of a root, read once per call
    const textsOf = (root) => {
      if (!texts.has(root)) texts.set(root, textCandidates(root));
      return texts.get(root);
    };
    return items.map((item) => {
      let scope = null;
      let el = null;
      if (item.within) {
        const found = findTarget(item.within);
        if (!found.el) return { ok: false, within: found };
        scope = found.el;
      }
      if (item.element) {
        const found = findTarget(item.element);
        if (item.check.expect === 'hidden') {
          // gone or invisible holds; still there, or several look-alikes, does not
          if (found.el) return { ok: false, got: 'it is visible' };
          if (found.same) return { ok: false, element: found };
          return { ok: true, got: '' };
        }
        if (!found.el) return { ok: false, element: found };
        el = found.el;
      }
      return checkOn(item.check, el, scope, textsOf);
    });
  }

  // One typed check on this frame's page, on the element and container found before (by a
  // resolve token). Returns {ok, got}: got says what the page has, for a failure message.
  function check(c, elSel, scopeSel) {
    const el = deepFind(elSel);
    const scope = deepFind(scopeSel);
    if (elSel && !el) return { ok: false, got: 'the element is no longer on the page' };
    if (scopeSel && !scope) return { ok: false, got: 'the container is no longer on the page' };
    return checkOn(c, el, scope, textCandidates);
  }

  function checkOn(c, el, scope, textsOf) {
    if (el && scope && !scope.contains(el)) return { ok: false, got: 'the element is not inside the container' };
    const root = scope || document.body || document.documentElement;
    switch (c.expect) {
      case 'visible':
        return { ok: !!el && shown(el), got: 'it is not visible' };
      case 'text': {
        if (el) {
          const t = renderedText(el);
          return { ok: matches([t], c), got: 'its text is ' + q(clip(t, 300)) };
        }
        const cands = textsOf(root);
        const ok = matches(cands, c);
        return { ok, got: ok ? '' : closest(cands, c.text, root) };
      }
      case 'hidden': {
        if (el) return { ok: !shown(el), got: 'it is visible' };
        const cands = textsOf(root);
        const hit = cands.find((t) => matches([t], c));
        return { ok: hit === undefined, got: hit === undefined ? '' : 'it is visible: ' + q(clip(hit, 200)) };
      }
      case 'count': {
        const n = el ? likeElements(el, scope).length : itemsOf(scope).length;
        return { ok: n === c.count, got: 'there are ' + n };
      }
      case 'nth': {
        const pos = itemPosition(el);
        return { ok: !!pos && pos.index === c.index,
          got: pos ? 'it is in item ' + pos.index + ' of ' + pos.count : 'it is not in a list' };
      }
      case 'order': {
        const cands = textsOf(root);
        let from = 0;
        const at = [];
        for (const want of c.texts) {
          const i = cands.findIndex((t, k) => k >= from && t === want);
          at.push(i);
          if (i < 0) {
            const anywhere = cands.indexOf(want);
            return { ok: false, got: anywhere < 0 ? q(want) + ' is not visible'
              : q(want) + ' comes before ' + q(c.texts[at.length - 2]) };
          }
          from = i + 1;
        }
        return { ok: true, got: '' };
      }
      case 'state': {
        const s = stateOf(el);
        return { ok: s[c.state] === true, got: 'it is ' + describeState(s) };
      }
      case 'value': {
        const v = valueOf(el);
        return { ok: matches([v], { text: c.value, match: c.match, pattern: c.pattern }), got: 'its value is ' + q(clip(v, 200)) };
      }
      default:
        throw new Error('webtask collector: unknown check ' + c.expect);
    }
  }

  // The page as HTML with its form state written into attributes, scripts removed and a
  // base URL, so a static copy can be checked later: "did this check hold before the step?"
  function freeze() {
    const copy = document.documentElement.cloneNode(true);
    const live = list(document.documentElement.querySelectorAll('input, textarea, select'));
    const dead = list(copy.querySelectorAll('input, textarea, select'));
    live.forEach((el, i) => {
      const c = dead[i];
      if (!c) return;
      if (el.tagName === 'SELECT') {
        list(el.options).forEach((o, k) => { if (o.selected) c.options[k].setAttribute('selected', ''); else c.options[k].removeAttribute('selected'); });
      } else if (el.tagName === 'TEXTAREA') c.textContent = el.value;
      else if (['checkbox', 'radio'].includes((el.type || '').toLowerCase())) { if (el.checked) c.setAttribute('checked', ''); else c.removeAttribute('checked'); }
      else if ((el.type || '').toLowerCase() !== 'file') c.setAttribute('value', el.value);
    });
    for (const el of list(copy.querySelectorAll('script, [data-webtask-id], [data-webtask-frame]'))) {
      if (el.tagName === 'SCRIPT') el.remove();
      else { el.removeAttribute(ID_ATTR); el.removeAttribute(FRAME_ATTR); }
    }
    for (const el of list(copy.querySelectorAll('*'))) {
      for (const a of list(el.attributes)) if (/^on/i.test(a.name)) el.removeAttribute(a.name);
    }
    const head = copy.querySelector('head') || copy;
    const base = document.createElement('base');
    base.setAttribute('href', location.href);
    head.insertBefore(base, head.firstChild);
    return '<!DOCTYPE html>' + copy.outerHTML;
  }

  // Give an id to the one visible element showing exactly ``text`` (the innermost one), for
  // tools aimed at text the page state shows without an id (a label edited by double-click).
  function mark(text) {
    const want = norm(text);
    const hits = deepAll(document).filter((el) => !SKIP.has(el.tagName.toLowerCase()) &&
      isVisible(el) && renderedText(el) === want);
    const inner = hits.filter((el) => !hits.some((o) => o !== el && el.contains(o)));
    if (inner.length !== 1) return { count: inner.length };
    const el = inner[0];
    const id = 'text-' + state.els.length;
    el.setAttribute(ID_ATTR, id);
    state.els.push(el);
    state.byId.set(id, el);
    return { id, count: 1 };
  }

  switch (args.op) {
    case 'mark': return mark(args.text || '');
    case 'resolve': return resolve(args.fp, args.slot, !!args.keep);
    case 'target': return findTarget(args.fp).el || null; // the selector engine's answer
    case 'check': return check(args.check, args.el, args.scope);
    case 'checks': return checks(args.checks);
    case 'freeze': return freeze();
    case 'element': { // a cited element as a claim reads it: a checkable's state, a field's value, else its text
      const el = deepFind(args.el);
      if (!el) throw new Error('element ' + args.el + ' is no longer on the page');
      const tag = el.tagName.toLowerCase();
      const type = tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : '';
      const checkable = type === 'checkbox' || type === 'radio' || el.getAttribute('aria-checked') !== null;
      const text = checkable ? (stateOf(el).checked ? 'checked' : 'unchecked')
        : (['input', 'textarea', 'select'].includes(tag) ? valueOf(el) : renderedText(el));
      return { tag, type, text };
    }
    case 'collect': return collect(args);
    case 'find': return find(args.text || '', args.role || '', args.limit || 20);
    case 'describe': {
      const el = state.byId.get(args.id);
      if (!el || !el.isConnected) return null;
      return fingerprint(el);
    }
    case 'state': {
      const detached = (args.ids || []).filter((id) => { const el = state.byId.get(id); return !el || !el.isConnected; });
      return { snap: state.snap, detached };
    }
    case 'settle': return settle(args.quiet || 100, args.max || 2000);
    case 'boxes': return boxes(!!args.show);
    default: throw new Error('webtask collector: unknown op ' + args.op);
  }
}
