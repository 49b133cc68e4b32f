// hints.js: hints for the model: what hovering shows, find, mark and reveal.
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
  // Controls a stylesheet shows only while their container is hovered ("li:hover .destroy
  // {display: inline-block}"), by container: not rendered now, so the page state names them
  // on the container's line (which gets an id to hover), and the model knows to hover it
  // first. The document's sheets and every open shadow root's own (a custom element's
  // <style>, adopted sheets): ".view:hover .destroy" inside todo-item, ":host(:hover) .x".
  // Returns the map of containers to what they reveal, the function that adds the shadow
  // root of an element the walk enters (given the enclosing scope's rules, it returns the
  // rules of what is inside), the document's rules (the scope the walk starts in) and the
  // set of elements a hover rule gives the pointer cursor (clickable, as a pointer cursor
  // of their own says).
  // A document's or shadow root's hover rules, kept with the stylesheets they were read from.
  const hoverRules = new WeakMap();
  const REVEALED_CONTROLS = 'a[href], button, input:not([type=hidden]), select, textarea, [role=menuitem], [role=link], [role=button], [role=tab], [role=option]';
  const MAX_HOVER_POINTERS = 400;  // elements one hover rule makes clickable, at most
  function hoverReveals(doc) {
    const hosts = new Map();
    const pointers = new Set();  // elements a hover rule gives the pointer cursor
    // a ShadowDOM polyfill (Polymer 0.5's), or null on every other page
    const poly = w.ShadowDOMPolyfill && w.ShadowDOMPolyfill.wrapIfNeeded ? w.ShadowDOMPolyfill : null;
    const shows = (st) => (st.display && st.display !== 'none') || st.visibility === 'visible' ||
      (st.opacity && st.opacity !== '0');
    const sheetsOf = (root) => {
      const sheets = Array.from(root.styleSheets || []);
      try { sheets.push(...(root.adoptedStyleSheets || [])); } catch (e) { /* none */ }
      return sheets;
    };
    // A root's hover rules are read again only when its set of stylesheets changed (another
    // sheet, or rules added or taken out at the top of one): the rest of a reading's scan is
    // the DOM's, which changes between readings.
    const rulesOf = (root) => {
      const sheets = sheetsOf(root);
      const sizes = sheets.map((sheet) => { try { return sheet.cssRules.length; } catch (e) { return -1; } });
      const cached = hoverRules.get(root);
      if (cached && cached.sheets.length === sheets.length &&
          cached.sheets.every((sheet, i) => sheet === sheets[i] && cached.sizes[i] === sizes[i])) {
        return cached.rules;
      }
      const rules = readRules(root, sheets);
      hoverRules.set(root, { sheets, sizes, rules });
      return rules;
    };
    const readRules = (root, sheets) => {
      const rules = [];
      const collectRules = (list) => {
        for (const r of list) {
          if (r.cssRules && !r.selectorText) collectRules(r.cssRules); // @media, @supports
          else if (r.selectorText && r.selectorText.includes(':hover') &&
                   (shows(r.style) || r.style.cursor === 'pointer')) rules.push(r);
        }
      };
      for (const sheet of sheets) {
        try { collectRules(sheet.cssRules); } catch (e) { /* a cross-origin sheet */ }
      }
      return rules;
    };
    const reveal = (host, t) => {
      const st = getComputedStyle(t);
      if (st.display !== 'none' && st.visibility !== 'hidden') return; // shown already
      // a revealed list of links (a menu) is named by its controls, each apart: its own
      // text runs them together ("HomeCatalogueOpening hours")
      const inner = Array.from(t.querySelectorAll(REVEALED_CONTROLS));
      const names = (inner.length ? inner.slice(0, 5) : [t]).map((c) =>
        clip(accessibleName(c) || c.getAttribute('title') || c.tagName.toLowerCase(), 40));
      // keyed by the node the page state walks: a ShadowDOM polyfill's queries return its
      // wrappers of the document's nodes
      const key = poly && poly.unwrapIfNeeded ? poly.unwrapIfNeeded(host) : host;
      const list = hosts.get(key) || [];
      for (const name of names) if (!list.includes(name) && list.length < 5) list.push(name);
      hosts.set(key, list);
    };
    const scan = (root, rules) => {
      for (const rule of rules) {
        for (const sel of rule.selectorText.split(',')) {
          // ":host(:hover) .destroy": the shadow root's host shows a descendant
          const own = root.host && /^\s*:host\(([^)]*):hover([^)]*)\)\s+(\S.*)$/.exec(sel);
          if (own && shows(rule.style)) {
            const rest = (own[1] + own[2]).trim();
            try { if (rest && !root.host.matches(rest)) continue; } catch (e) { continue; }
            let targets = [];
            try { targets = Array.from(root.querySelectorAll(own[3].replace(/:hover/g, ''))); } catch (e) { continue; }
            for (const t of targets) reveal(root.host, t);
            continue;
          }
          const at = sel.indexOf(':hover');
          if (at < 0) continue;
          const hostSel = sel.slice(0, at).trim();
          const rest = sel.slice(at + 6);
          if (rule.style.cursor === 'pointer' && hostSel && !rest.trim()) {
            // ".controls span:hover {cursor: pointer}": the hovered element itself is one
            // to click (a handler added by a script leaves no other sign)
            let found = [];
            try { found = Array.from(root.querySelectorAll(hostSel)).slice(0, MAX_HOVER_POINTERS); } catch (e) { continue; }
            for (const t of found) {
              const node = poly && poly.unwrapIfNeeded ? poly.unwrapIfNeeded(t) : t;
              // a list that takes the pointer (".controls ul:hover"): its items are what is
              // clicked (a menu's entries), each with a line and an id of its own
              const items = /^(UL|OL|MENU)$/.test(node.tagName)
                ? Array.from(node.children).filter((c) => c.tagName === 'LI') : [];
              for (const item of items.length ? items.slice(0, MAX_HOVER_POINTERS) : [node]) pointers.add(item);
            }
            continue;
          }
          if (!shows(rule.style)) continue;
          if (!hostSel || !/^\s/.test(rest)) continue; // the hovered element shows a descendant
          let targets = [];
          try { targets = Array.from(root.querySelectorAll(sel.replace(/:hover/g, ''))); } catch (e) { continue; }
          for (const t of targets) {
            const host = hoverHostOf(t, hostSel);
            if (host) reveal(host, t);
          }
        }
      }
    };
    // The document's own rules now; an open shadow root's when the walk enters its host
    // (``enterHost``, before the walk reads what is inside): the walk finds the shadow roots,
    // with no pass of its own over the document. (A polyfilled DOM's shadow roots may lack
    // what a real one has: skip what fails.) A root with no style sheets of its own is a
    // polyfill's (webcomponents' ShadowDOM shim, as in Polymer 0.5's TodoMVC): its elements'
    // styles were rewritten into the document's sheets ("[is=td-item] .view:hover
    // .destroy"), so the enclosing scope's rules (``inherited``) apply; the rules it used are
    // returned, the scope of what the walk finds inside.
    const enter = (root, inherited) => {
      let rules = inherited;
      if (root === doc || root.styleSheets !== undefined) {
        try { rules = rulesOf(root); } catch (e) { rules = []; }
      }
      try { scan(root, rules); } catch (e) { /* not a real root */ }
      return rules;
    };
    const enterHost = (el, inherited) => {
      const root = shadowOf(el, poly);
      return root ? enter(root, inherited) : inherited;
    };
    return [hosts, enterHost, enter(doc, []), pointers];
  }

  // The nearest ancestor of t matching sel, up through shadow hosts; closest() where the
  // DOM has it (a polyfill's wrappers may not).
  function hoverHostOf(t, sel) {
    let node = t.parentNode;
    for (let i = 0; node && i < 200; i += 1) {
      if (node.nodeType === 1) {
        try { if (node.matches(sel)) return node; } catch (e) { return null; }
        node = node.parentNode;
      } else node = node.host || null;  // a shadow root: on to its host
    }
    return null;
  }

  // The shadow root of an element the walk reaches: its own open one, or, on a page under a
  // ShadowDOM polyfill (which renders shadow trees into the document, so the walk reads the
  // rendered nodes), the polyfill's root of that node's wrapper. ``poly``: the polyfill, or
  // null on every other page (asked once per reading).
  function shadowOf(el, poly) {
    if (el.shadowRoot) return el.shadowRoot;
    if (!poly) return null;
    try { return poly.wrapIfNeeded(el).shadowRoot || null; } catch (e) { return null; }
  }

  // Elements matching ``text`` (case-insensitive) and/or ``role``, best first, one line each.
  // Two kinds: the elements of the last reading (what can be acted on; containers only when
  // a role is asked), and, for a text, any visible element whose own text holds it (a text
  // node's parent: a label, a cell, a card title), which gets an id (text-N) that later
  // readings keep while it is visible, so the pointer tools can use it. Ranked by its own
  // text (its name, text, label, placeholder, value or title): the whole of it, whole words,
  // part of a word; then, last, controls whose row (list item, table row, card: never a form
  // or section around the whole app) holds the text. Among equals, an element comes before
  // those holding it (a mail row before the list around it), then document order.
  const ROW = 'tr, li, [role=row], [role=listitem], [role=option], [role=treeitem], article';
  function find(text, role, limit) {
    const want = norm(text).toLowerCase();
    const words = new RegExp('(^|\\W)' + want.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '($|\\W)');
    const ownScore = (vals) => {
      if (vals.includes(want)) return 6;
      if (vals.some((v) => words.test(v))) return 5;
      return vals.some((v) => v.includes(want)) ? 4 : 0;
    };
    // The row of an element with no row tag or role: the nearest of its parent and the
    // two above it (a control in a cell, in a part of a row) that holds the text, never the
    // page, a container, something holding a list (an app's wrapper around its field and
    // its list) or more than twelve elements with ids; and never an ancestor where the text
    // is another item's: a sibling on the way alike an item (same tag, a class in common)
    // that holds it, or a child list of alike items that does (a mail list's clickable rows:
    // Bob's row is not "in" the list holding Ada's; nor is a search icon above it). Alike
    // siblings that do not hold it (a row's Edit and Delete buttons) are no list of rows.
    const LISTS = 'ul, ol, table, [role=list], [role=listbox], [role=grid], [role=table], [role=tree]';
    const ROW_CONTROLS = 12;  // an element holding more elements with ids is a list, not a row
    const rowText = new Map();
    const textOf = (b) => { if (!rowText.has(b)) rowText.set(b, renderedText(b).toLowerCase()); return rowText.get(b); };
    const classes = (n) => (n.getAttribute('class') || '').split(/\s+/).filter((x) => x);
    const alike = (n, m) => {
      if (n.tagName !== m.tagName) return false;
      const a = classes(n), b = classes(m);
      return a.length === 0 ? b.length === 0 : a.some((x) => b.includes(x));
    };
    // items are what can be acted on (an element with an id, or one holding such): cells of
    // text alike each other are one row's parts, not a list
    const marks = new Map();
    const marked = (n) => once(marks, n, () => n.hasAttribute(ID_ATTR) || !!n.querySelector('[' + ID_ATTR + ']'));
    const listLike = new Map();  // an element whose children include two alike items: a list
    const isListLike = (n) => once(listLike, n, () => {
      const kids = list(n.children).filter(marked);
      return kids.some((k, i) => kids.some((m, j) => j > i && alike(k, m)));
    });
    const holds = (n) => once(holdsWant, n, () => norm(n.textContent).toLowerCase().includes(want));
    const rows = new Map();  // element -> [score, row]
    // what an ancestor holds, read once for all the elements under it
    const holdsList = new Map();
    const holdsWant = new Map();
    const controlsIn = new Map();
    const once = (cache, key, read) => { if (!cache.has(key)) cache.set(key, read()); return cache.get(key); };
    const rowOf = (el) => {
      if (!rows.has(el)) rows.set(el, (() => {
        const tagged = el.closest(ROW);
        if (tagged) {
          const t = textOf(tagged);
          return [words.test(t) ? 2 : (t.includes(want) ? 1 : 0), tagged];
        }
        for (let c = el, up = 0; up < 3; up++) {
          const a = c.parentElement;
          if (!a || ['BODY', 'HTML'].includes(a.tagName) || isContainer(a, a.tagName.toLowerCase()) ||
              once(holdsList, a, () => !!a.querySelector(LISTS)) ||
              once(controlsIn, a, () => a.querySelectorAll('[' + ID_ATTR + ']').length) > ROW_CONTROLS) {
            return [0, null];
          }
          const others = list(a.children).filter((n) => n !== c);
          const item = (n) => marked(n) && (alike(n, c) || others.some((m) => m !== n && marked(m) && alike(m, n)));
          if (others.some((n) => holds(n) && (item(n) || isListLike(n)))) return [0, null];
          if (holds(a)) {
            const t = textOf(a);
            if (words.test(t)) return [2, a];
            if (t.includes(want)) return [1, a];
          }
          c = a;
        }
        return [0, null];
      })());
      return rows.get(el);
    };
    const lower = (vals) => vals.filter((v) => v).map((v) => norm(String(v)).toLowerCase());
    const score = (el) => {
      if (!want) return 1;
      const own = ownScore(lower([accessibleName(el), renderedText(el), labelText(el),
        el.getAttribute('placeholder'), el.value, el.getAttribute('title')]));
      return own || rowOf(el)[0];
    };
    const all = deepAllFrames(document);
    const order = new Map(all.map((el, i) => [el, i]));
    const hits = [];
    const registered = new Set();
    for (const [id, el] of state.byId) {
      registered.add(el);
      if (!el.isConnected || (role && roleOf(el) !== role && el.tagName.toLowerCase() !== role)) continue;
      // containers have ids only to scope evidence: find looks for what can be acted on
      if (!role && isContainer(el, el.tagName.toLowerCase()) && !isInteractive(el, el.tagName.toLowerCase(), getComputedStyle(el), false)) continue;
      const sc = score(el);
      if (sc) hits.push([sc, order.has(el) ? order.get(el) : all.length, id, el]);
    }
    if (want) {
      const owners = [];
      for (const el of all) {
        const tag = el.tagName.toLowerCase();
        if (registered.has(el) || SKIP.has(tag) || ['input', 'select', 'textarea', 'option'].includes(tag)) continue;
        if (role && roleOf(el) !== role && tag !== role) continue;
        if (!list(el.childNodes).some((c) => c.nodeType === 3 && c.nodeValue.trim())) continue;
        if (!norm(el.textContent).toLowerCase().includes(want)) continue; // cheap first test
        if (!visible(el)) continue;
        const sc = ownScore([renderedText(el).toLowerCase()]);
        if (sc) owners.push([sc, el]);
      }
      // the innermost owner of the text, and none inside a control (a button's span)
      const inside = (el) => {
        for (let n = el.parentElement || hostOf(el); n; n = n.parentElement || hostOf(n)) {
          if (registered.has(n) && !isContainer(n, n.tagName.toLowerCase())) return true;
        }
        return false;
      };
      for (const [sc, el] of owners) {
        if (owners.some(([, o]) => o !== el && el.contains(o)) || inside(el)) continue;
        if (framesOf(el) === null) continue; // in an iframe the last reading did not enter
        hits.push([sc, order.get(el), null, el]);
      }
    }
    // at one score, an element before those holding it (a mail row before the list around it)
    const outer = new Set();
    if (hits.length <= 400) {
      for (const h of hits) if (hits.some((o) => o !== h && o[0] === h[0] && h[3] !== o[3] && h[3].contains(o[3]))) outer.add(h);
    }
    hits.sort((a, b) => b[0] - a[0] || outer.has(a) - outer.has(b) || a[1] - b[1]);
    const ids = {};
    const scores = hits.slice(0, limit).map((h) => h[0]);  // to merge other documents' finds
    const lines = hits.slice(0, limit).map(([, , known, el]) => {
      let id = known;
      if (id === null) {
        id = state.found.get(el) || ('text-' + state.texts++);
        el.setAttribute(ID_ATTR, id);
        state.els.push(el);
        state.byId.set(id, el);
        state.found.set(el, id);
        ids[id] = { frames: framesOf(el) };
      }
      const tag = el.tagName.toLowerCase();
      const t = renderedText(el);
      const b = el.closest(ROW) || (rows.has(el) ? rows.get(el)[1] : null);
      const ctx = b && b !== el ? renderedText(b) : '';
      return '- ' + id + keyAttrs(el, tag, t) + (t ? ' ' + q(clip(t, 80)) : '') +
        (ctx && ctx !== t ? ' in ' + q(clip(ctx, 80)) : '');
    });
    return { lines, scores, total: hits.length, ids };
  }

  // Give an id to the one visible element showing exactly ``text`` (the innermost one), for
  // tools aimed at text the page state shows without an id (a label edited by double-click).
  function mark(text) {
    const want = norm(text);
    const hits = deepAll(document).filter((el) => !SKIP.has(el.tagName.toLowerCase()) &&
      visible(el) && renderedText(el) === want);
    const inner = hits.filter((el) => !hits.some((o) => o !== el && el.contains(o)));
    if (inner.length !== 1) return { count: inner.length };
    const el = inner[0];
    const had = el.getAttribute(ID_ATTR);
    const id = had && state.byId.get(had) === el ? had : (state.found.get(el) || 'text-' + state.texts++);
    el.setAttribute(ID_ATTR, id);
    state.els.push(el);
    state.byId.set(id, el);
    if (id.startsWith('text-')) state.found.set(el, id);
    return { id, count: 1 };
  }

  // The control that shows a hidden text: for each text (a task's quoted words) that no
  // visible element shows but a hidden one holds, the visible element with an id (from the
  // last collect) that would show it: the tab or header whose aria-controls or href="#id"
  // names a container of it, a closed <details>' summary, a tab panel's labelling tab.
  function reveal(texts, task) {
    const out = [];
    const own = norm(task).toLowerCase();  // a page that shows the task itself: not a holder
    const shown = (el) => el && el.isConnected && visible(el) && el.getAttribute(ID_ATTR);
    const idOf = (el) => {
      if (!el) return null;
      if (shown(el)) return el.getAttribute(ID_ATTR);
      const inner = list(el.querySelectorAll('[' + ID_ATTR + ']')).find(shown);
      if (inner) return inner.getAttribute(ID_ATTR);
      const outer = el.parentElement && el.parentElement.closest('[' + ID_ATTR + ']');
      return outer && shown(outer) ? outer.getAttribute(ID_ATTR) : null;
    };
    const controlOf = (el) => {
      for (let a = el; a && a !== document.body; a = a.parentElement) {
        if (a.tagName === 'DETAILS' && !a.open) {
          const summary = a.querySelector(':scope > summary');
          if (idOf(summary)) return idOf(summary);
        }
        if (a.id) {
          const esc = CSS.escape(a.id);
          for (const c of list(document.querySelectorAll('[aria-controls~="' + esc + '"], [href="#' + esc + '"], [data-target="#' + esc + '"], [data-bs-target="#' + esc + '"]'))) {
            const id = idOf(c);
            if (id) return id;
          }
        }
        const by = a.getAttribute('aria-labelledby');
        if (by && (a.getAttribute('role') === 'tabpanel' || a.getAttribute('role') === 'region')) {
          const id = idOf(document.getElementById(by.split(' ')[0]));
          if (id) return id;
        }
      }
      return null;
    };
    // one walk over the text nodes (not every element's textContent: a long page)
    const nodes = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (parent && !SKIP.has(parent.tagName.toLowerCase())) nodes.push(n);
    }
    for (const text of texts) {
      const want = norm(text).toLowerCase();
      if (!want) continue;
      const holders = nodes.filter((n) => norm(n.nodeValue).toLowerCase().includes(want))
        .map((n) => n.parentElement)
        .filter((el) => !(own && norm(el.textContent).toLowerCase().includes(own)));
      if (!holders.length || holders.some((el) => visible(el))) continue;
      const id = controlOf(holders[0]);
      if (id) out.push({ text, id });
    }
    return out;
  }

