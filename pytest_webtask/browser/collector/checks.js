// checks.js: typed checks (replay and record time share them).
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
  // -- typed checks (replay and record time share them) -----------------------------------

  // A subtree whose text can show: rendered, and no opacity 0 on it or above.
  function textShows(el) {
    return !!el && el.isConnected && rendersContent(el) && opaque(el) &&
      !clipsAway(el, getComputedStyle(el));
  }

  function isControl(el) {
    const tag = el.tagName.toLowerCase();
    if (['a', 'button', 'input', 'select', 'textarea'].includes(tag)) return true;
    const role = el.getAttribute('role');
    return !!role && INTERACTIVE_ROLES.has(role);
  }

  // The nodes a person sees inside el, as the page state walks them: its shadow root's, a
  // slot's assigned nodes, an iframe's body (same origin).
  function shownKids(el, tag) {
    if (tag === 'iframe') {
      let doc = null;
      try { doc = el.contentDocument; } catch (e) { doc = null; }
      return doc && doc.body ? [doc.body] : [];
    }
    if (tag === 'slot') {
      const assigned = el.assignedNodes({ flatten: true });
      return assigned.length ? assigned : list(el.childNodes);
    }
    return list(el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes);
  }

  // The visible texts under root a person (and the page state) would read as one piece: each
  // visible element's whole rendered text, and each run of text between element boundaries
  // (inline pieces joined as rendered: "<b>2</b> items left" -> "2 items left"). Hidden
  // parts are left out, as innerText does. Document order.
  // One at a time, each computed only when it is read (a generator).
  function* textsIn(root) {
    const seen = new Set();
    const fresh = (t) => { if (!t || seen.has(t)) return false; seen.add(t); return true; };
    function* visit(el) {
      if (!textShows(el)) return;
      const tag = el.tagName.toLowerCase();
      if (SKIP.has(tag)) return;
      if (tag === 'select' || tag === 'textarea' || tag === 'input') return; // values, not text
      const whole = renderedText(el); // the page state's own merge: what the model was shown
      if (fresh(whole)) yield whole;
      const ownShows = getComputedStyle(el).visibility === 'visible'; // its own text nodes
      let run = '';
      const cut = () => { const t = norm(run); run = ''; return fresh(t) ? [t] : []; }; // a run ends
      for (const c of shownKids(el, tag)) {
        if (c.nodeType === 3) { if (ownShows) run += c.nodeValue; continue; }
        if (c.nodeType !== 1) continue;
        const ctag = c.tagName.toLowerCase();
        if (ctag === 'br') { yield* cut(); continue; }
        if (SKIP.has(ctag) || !textShows(c)) continue; // not rendered: adds nothing, splits nothing
        if (getComputedStyle(c).display.startsWith('inline') && !isControl(c)) run += c.innerText || '';
        else yield* cut();
        yield* visit(c);
      }
      yield* cut();
    }
    yield* visit(root);
  }

  // The texts under root for the checks of one call: read as far as a check needs (a text
  // that shows early on a long page ends the walk there), each computed once.
  function lazyTexts(root) {
    const read = [];
    const walk = textsIn(root);
    let done = false;
    const next = () => {
      if (done) return false;
      const step = walk.next();
      if (step.done) { done = true; return false; }
      read.push(step.value);
      return true;
    };
    return {
      find(pred) {
        const hit = read.find(pred);
        if (hit !== undefined) return hit;
        while (next()) if (pred(read[read.length - 1])) return read[read.length - 1];
        return undefined;
      },
      all() { while (next()); return read; },
    };
  }

  // Does root show anything: a text, or a visible picture or control?
  const CONTENT_TAGS = new Set(['IMG', 'SVG', 'CANVAS', 'VIDEO', 'IFRAME', 'INPUT', 'BUTTON', 'SELECT', 'TEXTAREA']);
  function hasContent(root, cands) {
    if ((cands || lazyTexts(root)).find(() => true) !== undefined) return true;
    return deepAll(root).some((el) => CONTENT_TAGS.has(el.tagName.toUpperCase()) && visible(el));
  }

  // Does one text match the check's text (exactly, as a part, or its pattern whole)?
  function matcher(c) {
    if (c.match === 'pattern') {
      let re;
      try { re = new RegExp('^(?:' + c.pattern + ')$'); } catch (e) { return () => false; }
      return (t) => re.test(t);
    }
    if (c.match === 'contains') return (t) => t.includes(c.text);
    return (t) => t === c.text;
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
    // a dropdown's options are no text of the page (its innerText lists them all)
    if (root.tagName === 'SELECT') {
      return "no such text is visible: a dropdown's options are not text of the page (it has " +
        q(clip(valueOf(root), 120)) + ' chosen); cite what the page shows outside it';
    }
    // the scope's text as the page state merges it (its innerText would add every option
    // of a dropdown inside it); none at all: it holds only controls
    if (!candidates.length) return 'no such text is visible; it shows no text, only controls';
    return 'no such text is visible; the page shows: ' + q(clip(candidates[0], 300));
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
      const inner = soleList(c);
      if (inner) return itemsOf(inner);
      items = list(c.children);
    }
    return items.filter((k) => tag === 'SELECT' || visible(k));
  }

  // The one outermost visible list inside c (a section around its ul), else null.
  function soleList(c) {
    const lists = list(c.querySelectorAll('ul, ol, table, [role=list], [role=listbox], [role=grid], [role=table]')).filter(visible);
    const outer = lists.filter((l) => !lists.some((o) => o !== l && o.contains(l)));
    return outer.length === 1 ? outer[0] : null;
  }

  // The items an each check reads in a container: a list's (itemsOf), that of the one list
  // inside it; else the largest run of like elements with a text (cards in a grid, their
  // wrapper aside): same-tag visible siblings, two at least, no controls. null when none is
  // the largest (two runs as long): which items were meant is not said.
  const NOT_ITEMS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION']);
  function eachItems(c) {
    if (isList(c) || soleList(c)) return itemsOf(c);
    let best = [];
    let tie = false;
    for (const el of [c, ...list(c.querySelectorAll('*'))]) {
      const runs = new Map();
      for (const k of list(el.children)) {
        // (a text of its own: the page state's run counts lines with a text; a count that
        // differs is refused by the guard, so a cheap test will do)
        if (NOT_ITEMS.has(k.tagName) || !norm(k.textContent) || !visible(k)) continue;
        runs.set(k.tagName, (runs.get(k.tagName) || []).concat([k]));
      }
      for (const run of runs.values()) {
        if (run.length < 2 || run.length < best.length) continue;
        tie = run.length === best.length;
        if (!tie) best = run;
      }
    }
    return best.length && !tie ? best : null;
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
        const same = list(n.parentElement.children).filter((k) => k.tagName === n.tagName && visible(k));
        if (same.length > 1) { item = n; break; }
      }
    }
    if (!item) return null;
    let container = item.parentElement;
    if (item.tagName === 'TR' || item.getAttribute('role') === 'row') container = item.closest('table, [role=table], [role=grid]') || container;
    const items = (container && isList(container)) ? itemsOf(container)
      : list(item.parentElement.children).filter((k) => k.tagName === item.tagName && visible(k));
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
    return found.filter((x) => visible(x) && (!scope || scope.contains(x)));
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

  // Typed checks, each with its element and container found by their fingerprints in the
  // same call (one round trip for all the checks of a step). Returns, per check, {ok, got}
  // (got: what the page has instead) or, when its element or container is not found,
  // {ok: false, element|within: findTarget's account of why}.
  function checks(items, vacuous) {
    const texts = new Map();  // the visible texts of a root, read once per call
    const textsOf = (root) => {
      if (!texts.has(root)) texts.set(root, lazyTexts(root));
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
        const c = item.check;
        const outcome = c.expect === 'text' && c.match === 'exact' && !c.pattern && c.text ? norm(c.text) : null;
        const found = findTarget(outcome ? Object.assign({}, item.element, { outcome }) : item.element);
        if (item.check.expect === 'hidden') {
          // still there, or several look-alikes, does not hold; gone or invisible holds
          // where the page shows something (as an absence of text does)
          if (found.el) return { ok: false, got: 'it is visible' };
          if (found.same) return { ok: false, element: found };
          const gone = Object.assign({}, item.check, { text: null, pattern: null, match: 'exact' });
          return checkOn(gone, null, scope, textsOf, vacuous);
        }
        if (!found.el) return { ok: false, element: found };
        el = found.el;
      }
      return checkOn(item.check, el, scope, textsOf, vacuous);
    });
  }

  // One typed check on this frame's page, on the element and container found before (by a
  // resolve token). Returns {ok, got}: got says what the page has, for a failure message.
  function check(c, elSel, scopeSel, vacuous) {
    const el = deepFind(elSel);
    const scope = deepFind(scopeSel);
    if (elSel && !el) return { ok: false, got: 'the element is no longer on the page' };
    if (scopeSel && !scope) return { ok: false, got: 'the container is no longer on the page' };
    return checkOn(c, el, scope, lazyTexts, vacuous);
  }

  function checkOn(c, el, scope, textsOf, vacuous) {
    if (el && scope && !scope.contains(el)) return { ok: false, got: 'the element is not inside the container' };
    const root = scope || document.body || document.documentElement;
    switch (c.expect) {
      case 'visible':
        return { ok: !!el && visible(el), got: 'it is not visible' };
      case 'text': {
        if (el) {
          const t = renderedText(el);
          return { ok: matcher(c)(t), got: 'its text is ' + q(clip(t, 300)) };
        }
        const cands = textsOf(root);
        const ok = cands.find(matcher(c)) !== undefined;
        return { ok, got: ok ? '' : closest(cands.all(), c.text, root) };
      }
      case 'hidden': {
        if (el && visible(el)) return { ok: false, got: 'it is visible' };
        let cands = null;
        if (!el && (c.text !== null && c.text !== undefined || c.pattern)) {
          cands = textsOf(root);
          const hit = cands.find(matcher(c));
          if (hit !== undefined) return { ok: false, got: 'it is visible: ' + q(clip(hit, 200)) };
        }
        // absent, or not visible: that proves something only where the page shows something
        // (a blank page lacks everything; an emptied list in a page is a real outcome); on
        // the page before a step it held, vacuously
        const page = document.body || document.documentElement;
        if (!vacuous && !hasContent(page, scope ? null : cands)) {
          return { ok: false, got: 'the page shows nothing, so an absence proves nothing' };
        }
        return { ok: true, got: '' };
      }
      case 'count': {
        const n = el ? likeElements(el, scope).length : itemsOf(scope).length;
        return { ok: n === c.count, got: 'there are ' + n, n };
      }
      case 'each': {
        // every item (every element like el) shows the text, and there is one: an empty list
        // shows nothing of what its items say
        const items = el ? likeElements(el, scope) : eachItems(scope);
        if (items === null) {
          return { ok: false, got: 'it holds no list, and no one run of like elements (cards): ' +
            'cite within the list, or "element": one item\'s id' };
        }
        if (!items.length) return { ok: false, got: 'there is no item', n: 0 };
        const ok = matcher(c);
        const odd = items.findIndex((k) => !ok(renderedText(k)));
        return { ok: odd < 0, n: items.length, got: odd < 0 ? '' : 'item ' + (odd + 1) + ' of ' +
          items.length + ' shows ' + q(clip(renderedText(items[odd]), 200)) };
      }
      case 'nth': {
        const pos = itemPosition(el);
        return { ok: !!pos && pos.index === c.index,
          got: pos ? 'it is in item ' + pos.index + ' of ' + pos.count : 'it is not in a list' };
      }
      case 'order': {
        const cands = textsOf(root).all();
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
        return { ok: matcher({ text: c.value, match: c.match, pattern: c.pattern })(v), got: 'its value is ' + q(clip(v, 200)) };
      }
      default:
        throw new Error('webtask collector: unknown check ' + c.expect);
    }
  }

