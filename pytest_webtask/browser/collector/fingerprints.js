// fingerprints.js: fingerprints and finding: what a recipe stores of an element, and the replay's cascade that finds it again.
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
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
      test_id: testId(el),
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
      test_id: testId(el),
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

  // The fingerprint cascade of a replay, in one round trip. Strategies are tried in order
  // (each computed only when the ones before decided nothing); a strategy decides when it has
  // visible candidates that are still the same element (``differences`` finds none): one is
  // the answer, several an ambiguity (unless exactly one keeps the recorded CSS path).
  // Returns {el} or, for the message, {how, same: [fingerprints], count} (ambiguous) or
  // {seen: [[how, fingerprint, differences]]} (the closest visible candidates, none the same).
  const FOUND_BY_TAG = ['section', 'article', 'aside', 'header', 'footer', 'nav', 'form', 'ul', 'ol', 'dl', 'table'];
  const FOUND_BY_ROLE = ['main', 'navigation', 'banner', 'contentinfo', 'complementary', 'region', 'form', 'search', 'list', 'table', 'grid', 'tablist', 'menu', 'menubar', 'listbox', 'tree', 'dialog', 'article', 'group'];
  // Does ``el`` sit where the CSS path ``css`` (as ``cssPath`` writes it: tags joined by
  // " > ", each maybe with :nth-of-type, the first maybe an #id) says, once the plain
  // wrappers around it and its ancestors (a div or span with no role) are skipped? Tags
  // only: positions among siblings move when wrappers are added.
  function pathOnceUnwrapped(el, css) {
    const parts = css.split('>').map((p) => p.trim()).filter(Boolean);
    const anchor = parts.length && parts[0].startsWith('#') ? parts.shift().slice(1) : null;
    const tags = parts.map((p) => p.replace(/[:.#\[].*$/, '').toLowerCase());
    const plain = (node) => ['DIV', 'SPAN'].includes(node.tagName) && !roleOf(node);
    let node = el;
    for (let i = tags.length - 1; i >= 0; node = node.parentElement) {
      if (!node) return false;
      if (node.tagName.toLowerCase() === tags[i]) i--;
      else if (node === el || !plain(node)) return false;
    }
    if (anchor === null) return true;
    while (node && plain(node) && node.id !== anchor) node = node.parentElement;
    return !!node && node.id === anchor;
  }

  function findTarget(fp) {
    let all = null;
    const every = () => all || (all = deepAll(document));
    const tagged = (el) => el.tagName.toLowerCase() === fp.tag;
    const strategies = [];
    const by = (name, pred) => strategies.push([name, () => every().filter(pred)]);
    if (fp.test_id) by('test id', (el) => TEST_IDS.some((a) => el.getAttribute(a) === fp.test_id));
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
    // An element whose own text is the check's outcome (left out of its fingerprint, so a
    // changed text fails as one): when its CSS path and XPath broke (wrappers added), the
    // one visible element of its tag and role showing the text checked is it.
    if (fp.outcome && !fp.name && !fp.text) by('role and the text checked', (el) => tagged(el) && (!fp.role || roleOf(el) === fp.role) && norm(el.innerText || el.textContent || '') === fp.outcome);
    // A container cited by its role alone (a claim "within main"): wrappers added around it
    // break its CSS path and XPath, not what it is. The one visible element of that tag and
    // role is it; several are ambiguous (a failure that says so), never a guess.
    if (fp.role && !fp.name && FOUND_BY_ROLE.includes(fp.role)) by('role alone', (el) => tagged(el) && roleOf(el) === fp.role);
    // the same for a sectioning element with no role of its own (a section with no name)
    else if (!fp.role && !fp.name && FOUND_BY_TAG.includes(fp.tag)) by('tag alone', (el) => tagged(el) && !roleOf(el));
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
      const shownOnes = candidates().slice(0, 50).filter(visible);
      let same = [];
      for (const el of shownOnes) {
        const diff = differences(fp, identityOf(el), shownOnes.length > 1, how);
        if (diff.length) { if (seen.length < 3) seen.push([how, described(el), diff]); }
        else same.push(el);
      }
      if (same.length > 1) {
        const byCss = same.filter((el) => cssPath(el) === fp.css);
        if (byCss.length) same = byCss;
      }
      // Several containers of that role (two unnamed forms): the one whose recorded CSS
      // path it still has once plain wrappers (a div or span with no role) are skipped. A
      // wrapper added around it keeps it; a form inside a table's cell is not one under a
      // section. Still several (or none): ambiguous, as before, never a guess.
      if (same.length > 1 && fp.css && (how === 'role alone' || how === 'tag alone')) {
        const byPath = same.filter((el) => pathOnceUnwrapped(el, fp.css));
        if (byPath.length === 1) same = byPath;
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

