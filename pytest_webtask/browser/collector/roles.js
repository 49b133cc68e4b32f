// roles.js: names and roles: the one implicit-role table, test ids, labels, accessible names.
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
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

  // An element's test id: the value of the first of TEST_IDS it has, or null.
  function testIdAttr(el) {
    for (const a of TEST_IDS) { const v = el.getAttribute(a); if (v) return a; }
    return null;
  }
  function testId(el) { const a = testIdAttr(el); return a ? el.getAttribute(a) : null; }

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
    return text || norm(el.getAttribute('title') || '') || generatedContent(el) || null;
  }

  // What a stylesheet draws in an element (".destroy:after { content: '✖' }"): its name
  // when nothing else names it, as in the accessible name computation (CSS generated content).
  function generatedContent(el) {
    const parts = [];
    for (const which of ['::before', '::after']) {
      let c = '';
      try { c = getComputedStyle(el, which).content || ''; } catch (e) { c = ''; }
      const m = /^"((?:[^"\\]|\\.)*)"$/.exec(c);
      if (m) parts.push(m[1].replace(/\\(.)/g, '$1'));
    }
    // an icon font's private-use glyphs say nothing to a reader
    return norm(parts.join(' ').replace(/[\uE000-\uF8FF]/g, '')) || null;
  }


  // A small text-less element under a pointer that starts above it, with a box smaller than
  // its parent's: an icon in a clickable row (a mail's trash and star, a row's delete cross),
  // a target of its own. Any of its text (an icon font's glyph is drawn, not text) or a child
  // element (but an svg's drawing) makes it part of the row instead.
  const ICON_TAGS = new Set(['span', 'i', 'img', 'svg', 'div', 'em', 'b']);
  function iconTarget(el, tag) {
    if (!ICON_TAGS.has(tag) || (el.firstElementChild && tag !== 'svg') ||
        (el.textContent || '').trim()) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 4 || r.height < 4 || r.width > 64 || r.height > 64) return false;
    const p = el.parentElement ? el.parentElement.getBoundingClientRect() : null;
    return !p || r.width < p.width || r.height < p.height;
  }
