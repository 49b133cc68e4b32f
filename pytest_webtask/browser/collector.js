// The in-page half of LLMBrowser. One page.evaluate(script, {op, ...}) per call.
// Every op sees the page through one visibility rule, Playwright's (``visible``).
// op "collect": page state text + element ids, in one pass over the DOM (open shadow roots
//               and same-origin iframes included). An iframe of another origin cannot be
//               entered from here: it gets a frame id and a line "@frame:<id>" where its
//               content goes, and is listed in ``away`` for the caller to read in its own
//               context (``counters``, ``frameStart``: where that reading's ids go on).
// op "find":     elements matching a text and/or a role, as lines: those of the last collect,
//               and elements whose own text matches (they get a text-N id, kept while visible).
// op "mark":     an id for the one visible element whose whole text is the given text.
// op "reveal":   for texts only hidden elements hold, the id of the control that shows each.
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
//                the element and container found before (by id, or by a resolve token);
//                ``vacuous``: an absence on a page that shows nothing holds (the page before
//                a step), else it does not.
// op "checks":   evaluate typed checks, each finding its element and container by their
//                fingerprints in the same call.
// op "freeze":   the page as static HTML (form state, shadow roots, iframes, CSSOM kept), to
//                check it again later.
// op "bind":     an extraction binding found again (its CSS, else its fingerprint's candidates),
//                described when asked (recording): {sel, via, count[, fp]} or {sel: null, tried}.
// op "details":  an extraction's details panel and fields, each found as a binding, read.
// op "ready":    an extraction's control: "ready" (enabled), "gone" (hidden or detached) or false.
// op "items":    an extraction's list: how many items, and their keys.
// op "probe":    the extraction planner's looks at the page (``probe``: outline, seen, appeared,
//                inspect, pagination, classes, height).
// Every op finds elements with the same parts: ``visible`` (one visibility rule), ``roleOf``
// (one implicit-role table), ``testId`` (one list of test-id attributes, ``TEST_IDS``) and a
// resolver (``findTarget`` for a do/check step's fingerprint, ``bindResolve`` for an
// extraction binding's). No other script of the package finds elements (tests/test_layout.py).
(args) => {
  const ID_ATTR = 'data-webtask-id';
  const FRAME_ATTR = 'data-webtask-frame';
  const SECRET_ATTR = 'data-webtask-secret';  // a field a secret was typed into
  const w = window;
  const state = w.__webtask || (w.__webtask = { els: [], frames: [], byId: new Map(), snap: 0 });
  // Elements find gave an id to (text-N), which keep it in later readings while visible.
  state.found = state.found || new Map();
  state.texts = state.texts || 0;

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
  // The one implicit-role table (ARIA's, for the tags a fingerprint meets).
  const IMPLICIT_ROLE = { a: 'link', button: 'button', select: 'combobox', textarea: 'textbox',
    summary: 'button', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading',
    h5: 'heading', h6: 'heading', li: 'listitem', ul: 'list', ol: 'list', img: 'img',
    dialog: 'dialog', form: 'form', nav: 'navigation', main: 'main', aside: 'complementary',
    article: 'article', table: 'table', tr: 'row', td: 'cell', option: 'option' };
  // The one list of test-id attributes, in the order they are read.
  const TEST_IDS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
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

  // -- the one visibility rule (DESIGN decision 13) ----------------------------------------
  // An element is visible as Playwright's isElementVisible says: checkVisibility() (not
  // display:none, no content-visibility:hidden or closed <details> around it), visibility
  // visible, and a non-empty box; a display:contents element by its children. Two additions
  // for people: opacity 0 on it or an ancestor hides it (a styled checkbox made transparent
  // over its picture excepted), and a file input counts as visible (set_input_files needs no
  // visible input). The page state, find, the replay's element check and every typed check
  // use this one function.
  function visible(el) {
    if (!el || !el.isConnected || el.nodeType !== 1) return false;
    if (el.tagName === 'INPUT' && (el.getAttribute('type') || '').toLowerCase() === 'file') return true;
    const st = getComputedStyle(el);
    if (st.display === 'contents') {
      for (const c of list(el.childNodes)) {
        if (c.nodeType === 1 && visible(c)) return true;
        if (c.nodeType === 3 && textBoxed(c)) return true;
      }
      return false;
    }
    if (!rendersContent(el)) return false;
    if (st.visibility !== 'visible') return false;
    if (!opaque(el) && !styledControl(el)) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  // Rendered at all: no display:none on it or an ancestor (flat tree), no content-visibility
  // or closed <details> hiding it. Visibility and size are not asked: a child may be visible
  // where its parent is not, and text may overflow an empty box.
  function rendersContent(el) {
    if (getComputedStyle(el).display === 'contents') return boxedAbove(el, rendersContent);
    if (el.checkVisibility) return el.checkVisibility();
    for (let n = el; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
      const st = getComputedStyle(n);
      if (st.display === 'none' || st.contentVisibility === 'hidden') return false;
      const details = n.parentElement;
      if (details && details.tagName === 'DETAILS' && !details.open && n.tagName !== 'SUMMARY') return false;
    }
    return true;
  }

  // No opacity 0 on el or its ancestors (flat tree).
  function opaque(el) {
    if (getComputedStyle(el).display === 'contents') return boxedAbove(el, opaque);
    if (el.checkVisibility) return el.checkVisibility({ opacityProperty: true });
    for (let n = el; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
      if (getComputedStyle(n).opacity === '0') return false;
    }
    return true;
  }

  // A box of no size that clips what overflows it shows nothing of its content.
  function clipsAway(el, style) {
    if (!/hidden|clip/.test(style.overflowX) || !/hidden|clip/.test(style.overflowY)) return false;
    const r = el.getBoundingClientRect();
    return r.width === 0 || r.height === 0;
  }

  // A display: contents element has no box for checkVisibility to ask about: ask its parent.
  function boxedAbove(el, test) {
    const up = el.parentElement || hostOf(el);
    return !up || test(up);
  }

  function textBoxed(node) {
    if (!norm(node.nodeValue)) return false;
    const range = node.ownerDocument.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
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

  // A pointer handler written in the markup: onclick and the like, or a framework's binding
  // left in the DOM (Polymer on-dblclick, Alpine @click and x-on:click, Vue v-on:click,
  // AngularJS ng-click, Knockout data-bind click or event, jQuery UI data-event="click").
  const POINTER_EVENTS = '(?:click|dblclick|mousedown|mouseup|pointerdown|pointerup|touchstart|touchend|tap|contextmenu)';
  const HANDLER_ATTR = new RegExp('^(?:on|on-|@|x-on:|v-on:|ng-|data-ng-|\\()' + POINTER_EVENTS + '\\)?(?:\\..*)?$');
  function handlerAttr(el) {
    for (const a of list(el.attributes)) {
      if (HANDLER_ATTR.test(a.name)) return true;
      if (a.name === 'data-bind' && /(?:^|[,{\s])(?:click|event)\s*:/.test(a.value)) return true;
      // jQuery UI's own (a date picker's Prev and Next); a cell holding a link is not
      if (a.name === 'data-event' && a.value === 'click' && el.hasAttribute('data-handler') &&
          !el.querySelector('a[href], button')) return true;
    }
    return false;
  }

  // Widgets a script library made of plain elements with no ARIA role: their class says
  // what they are (jQuery UI's sortable and draggable items, its slider handle).
  const DRAGGED_CLASSES = ['ui-sortable-handle', 'ui-draggable-handle', 'ui-draggable'];
  function dragged(el) {
    if (el.getAttribute('draggable') === 'true') return true;
    const c = el.classList;
    return !!c && DRAGGED_CLASSES.some((name) => c.contains(name));
  }
  function widgetRole(el) {
    const c = el.classList;
    return c && c.contains('ui-slider-handle') ? 'slider' : null;
  }

  function isInteractive(el, tag, style, parentPointer) {
    if (handlerAttr(el)) return true;
    if (dragged(el) || widgetRole(el)) return true;
    if (INTERACTIVE_TAGS.has(tag)) {
      if (tag === 'a') return el.hasAttribute('href') || style.cursor === 'pointer';
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
    if (el.isContentEditable && el.getAttribute('contenteditable') !== null) return true;
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
  // Pictures (a canvas chart, an SVG, an image) get ids too, so a visual claim or a point
  // action can name one; only ones big enough to show something (not an icon in a button).
  const PICTURE_TAGS = new Set(['canvas', 'svg', 'img', 'video']);
  function isPicture(el, tag) {
    if (!PICTURE_TAGS.has(tag)) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 24 && r.height >= 24;
  }

  // Which way an element's own content scrolls ("down", "up|down", "up"; "" for none): a
  // list or text area taller inside than its box, whose rest a scroll inside it reaches
  // (rows loaded on scroll, terms read to the end). The page's own scrolling is not its.
  function scrollWay(el, style) {
    if (el === document.scrollingElement || el === document.body) return '';
    if (!/^(auto|scroll|overlay)$/.test(style.overflowY)) return '';
    const max = el.scrollHeight - el.clientHeight;
    if (max <= 2) return '';
    const up = el.scrollTop > 1;
    const down = el.scrollTop < max - 1;
    return up && down ? 'up|down' : (down ? 'down' : (up ? 'up' : ''));
  }

  function keyAttrs(el, tag, own, way) {
    const out = [];
    const add = (k, v, n = 80) => { if (v !== null && v !== undefined && v !== '') out.push(k + '=' + q(clip(String(v), n))); };
    const role = el.getAttribute('role') || widgetRole(el);
    if (role) add('role', role);
    if (role === 'slider' && tag !== 'input') {
      add('value', el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow'), 40);
      add('min', el.getAttribute('aria-valuemin'), 20);
      add('max', el.getAttribute('aria-valuemax'), 20);
    }
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
      if (el.multiple) out.push('multiple');
      add('options', opts.join('|'), 200);
      if (el.multiple) add('selected', Array.from(el.selectedOptions).map((o) => norm(o.text)).join('|'));
      else if (el.selectedIndex >= 0 && el.options[el.selectedIndex]) add('selected', norm(el.options[el.selectedIndex].text));
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
    if (dragged(el)) out.push('draggable');
    const revealed = state.hover && state.hover.get(el);
    if (revealed) add('hover-reveals', revealed.join('|'));
    if (way) add('scrolls', way);
    // how far: a scroll inside it changes its line, as it changes what the page shows
    if (way && way !== 'down') add('scrolled', Math.round(100 * el.scrollTop / Math.max(1, el.scrollHeight - el.clientHeight)) + '%');
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') out.push('disabled');
    if ((tag === 'input' || tag === 'textarea') && el.readOnly) out.push('readonly');
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

  // The children a walk enters: a closed <details> shows only its summary; an element with
  // content-visibility: hidden shows none (its own box stays).
  function shownChildren(el, tag, style) {
    if (style.contentVisibility === 'hidden' || clipsAway(el, style)) return [];
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
    // shows: its text nodes are visible; op: no opacity 0 above (opacity is not inherited,
    // but an ancestor's hides the whole subtree)
    const visit = (node, shows, op) => {
      if (node.nodeType === 3) { if (shows) add(textRun(node)); return; }
      if (node.nodeType !== 1) return;
      const el = node;
      const tag = el.tagName.toLowerCase();
      const style = getComputedStyle(el);
      if (!rendered(el, tag, style) || tag === 'select' || tag === 'textarea') return;
      const kidsOp = op && style.opacity !== '0';
      const vis = style.visibility === 'visible' && kidsOp;
      const block = breaksLine(style);
      if (block) add({ s: '', pre: true, post: true });
      if (tag === 'iframe') {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc && doc.body) visit(doc.body, true, true);
      } else if (tag === 'slot') {
        const assigned = el.assignedNodes({ flatten: true });
        for (const c of (assigned.length ? assigned : el.childNodes)) visit(c, vis, kidsOp);
      } else {
        for (const c of shownChildren(el, tag, style)) visit(c, vis, kidsOp);
      }
      if (block) add({ s: '', pre: true, post: true });
    };
    visit(root, true, true);
    return acc.s;
  }

  // Controls a stylesheet shows only while their container is hovered ("li:hover .destroy
  // {display: inline-block}"), by container: not rendered now, so the page state names them
  // on the container's line (which gets an id to hover), and the model knows to hover it
  // first. The document's sheets and every open shadow root's own (a custom element's
  // <style>, adopted sheets): ".view:hover .destroy" inside todo-item, ":host(:hover) .x".
  function hoverReveals(doc) {
    const hosts = new Map();
    const shows = (st) => (st.display && st.display !== 'none') || st.visibility === 'visible' ||
      (st.opacity && st.opacity !== '0');
    const sheetsOf = (root) => {
      const sheets = Array.from(root.styleSheets || []);
      try { sheets.push(...(root.adoptedStyleSheets || [])); } catch (e) { /* none */ }
      return sheets;
    };
    const rulesOf = (root) => {
      const rules = [];
      const collectRules = (list) => {
        for (const r of list) {
          if (r.cssRules && !r.selectorText) collectRules(r.cssRules); // @media, @supports
          else if (r.selectorText && r.selectorText.includes(':hover') && shows(r.style)) rules.push(r);
        }
      };
      for (const sheet of sheetsOf(root)) {
        try { collectRules(sheet.cssRules); } catch (e) { /* a cross-origin sheet */ }
      }
      return rules;
    };
    const reveal = (host, t) => {
      const st = getComputedStyle(t);
      if (st.display !== 'none' && st.visibility !== 'hidden') return; // shown already
      const name = clip(accessibleName(t) || t.getAttribute('title') || t.tagName.toLowerCase(), 40);
      // keyed by the node the page state walks: a ShadowDOM polyfill's queries return its
      // wrappers of the document's nodes
      const poly = window.ShadowDOMPolyfill;
      const key = poly && poly.unwrapIfNeeded ? poly.unwrapIfNeeded(host) : host;
      const list = hosts.get(key) || [];
      if (!list.includes(name) && list.length < 5) list.push(name);
      hosts.set(key, list);
    };
    const scan = (root, rules) => {
      for (const rule of rules) {
        for (const sel of rule.selectorText.split(',')) {
          // ":host(:hover) .destroy": the shadow root's host shows a descendant
          const own = root.host && /^\s*:host\(([^)]*):hover([^)]*)\)\s+(\S.*)$/.exec(sel);
          if (own) {
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
    // (a polyfilled DOM's shadow roots may lack what a real one has: skip what fails). A
    // root with no style sheets of its own is a polyfill's (webcomponents' ShadowDOM shim,
    // as in Polymer 0.5's TodoMVC): its elements' styles were rewritten into the document's
    // sheets ("[is=td-item] .view:hover .destroy"), so the enclosing scope's rules apply.
    const roots = (root, inherited) => {
      let rules = inherited;
      if (root === doc || root.styleSheets !== undefined) {
        try { rules = rulesOf(root); } catch (e) { rules = []; }
      }
      try { scan(root, rules); } catch (e) { /* not a real root */ }
      let all = [];
      try { all = Array.from(root.querySelectorAll('*')); } catch (e) { return; }
      for (const el of all) if (el.shadowRoot) roots(el.shadowRoot, rules);
    };
    roots(doc, []);
    return hosts;
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

  function collect(opts) {
    state.hover = hoverReveals(document);
    for (const el of state.els) { try { el.removeAttribute(ID_ATTR); } catch (e) { /* gone */ } }
    for (const f of state.frames) { try { f.removeAttribute(FRAME_ATTR); } catch (e) { /* gone */ } }
    state.els = []; state.frames = []; state.byId = new Map(); state.snap += 1;
    for (const el of Array.from(state.found.keys())) if (!el.isConnected) state.found.delete(el);
    const counters = Object.assign({}, opts.counters || {});
    const elements = {};
    const away = [];  // iframes of another origin, read apart
    const frameStart = opts.frameStart || 0;
    const maxText = opts.maxText || 200;

    function register(el, tag, frames, fixed) {
      let id = fixed;
      if (id === undefined) {
        const n = counters[tag] || 0;
        counters[tag] = n + 1;
        id = tag + '-' + n;
      }
      el.setAttribute(ID_ATTR, id);
      state.els.push(el);
      state.byId.set(id, el);
      elements[id] = { frames };
      return id;
    }

    // Returns a list of nodes: strings (text) or {head, kids}. parentShows: the parent's text
    // is visible; op: no ancestor has opacity 0.
    function walk(node, frames, parentShows, parentPointer, op) {
      if (node.nodeType === 3) return parentShows ? [textRun(node)] : [];
      if (node.nodeType !== 1) return [];
      const el = node;
      const tag = el.tagName.toLowerCase();
      if (SKIP.has(tag)) return [];
      const style = getComputedStyle(el);
      if (!rendered(el, tag, style)) return [];
      const kidsOp = op && style.opacity !== '0';
      const shows = style.visibility === 'visible' && kidsOp;
      const pointer = style.cursor === 'pointer';

      let kids = [];
      if (tag === 'iframe') {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        const fid = 'f' + (frameStart + state.frames.length);
        if (doc && doc.body) {
          el.setAttribute(FRAME_ATTR, fid);
          state.frames.push(el);
          kids = walk(doc.body, frames.concat([fid]), true, false, true);
        } else if (!doc) {
          // another origin's document: its lines go where the placeholder is
          el.setAttribute(FRAME_ATTR, fid);
          state.frames.push(el);
          away.push({ id: fid, frames, css: frameChain(el).concat([cssPath(el)]) });
          kids = [{ head: '', slot: fid, kids: [], ids: 0, tag, pos: null }];
        }
      } else if (tag === 'slot') {
        for (const c of el.assignedNodes({ flatten: true })) kids.push(...walk(c, frames, shows, pointer, kidsOp));
        if (!el.assignedNodes().length) for (const c of el.childNodes) kids.push(...walk(c, frames, shows, pointer, kidsOp));
      } else {
        for (const c of shownChildren(el, tag, style)) kids.push(...walk(c, frames, shows, pointer, kidsOp));
      }
      if (tag === 'select' || tag === 'textarea') kids = []; // options shown as an attribute
      const ids = kids.reduce((sum, k) => sum + (k.ids || 0), 0);

      // an element find gave an id keeps it while it is visible
      const foundId = state.found.get(el);
      // A plain wrapper whose hover shows a control (".view:hover .destroy" in a custom
      // element) would collapse away with its hint: it gets an id, to be hovered. An element
      // kept on its own line anyway (li) shows the hint there, as before.
      const hoverHost = !KEEP.has(tag) && state.hover && state.hover.has(el);
      const way = scrollWay(el, style);  // its own content scrolls: an id, to scroll inside
      const interactive = (foundId !== undefined || hoverHost || way ||
        isInteractive(el, tag, style, parentPointer)) && visible(el);
      const own = interactive ? kids.filter(isText).map((k) => k.s).join(' ') : undefined;
      const attrs = (interactive || KEEP.has(tag) || el.getAttribute('role')) ? keyAttrs(el, tag, own, way) : '';
      // Where it is, for long pages: only the top document's boxes (frames follow their iframe).
      const box = frames.length ? null : el.getBoundingClientRect();
      const pos = box && (box.width || box.height) ? [box.top, box.bottom] : null;
      if (interactive) {
        return [{ head: register(el, tag, frames, foundId) + attrs, kids, pos, ids: ids + 1, tag }];
      }
      const picture = isPicture(el, tag);
      if (KEEP.has(tag) || attrs || picture) {
        if (!kids.length && !attrs && tag !== 'img' && !picture) return [];
        // Containers get ids too, so evidence can name a scope ("within": "ul-0").
        const head = isContainer(el, tag) || picture ? register(el, tag, frames) : tag;
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
    const tree = merge(walk(body, [], true, false, true));

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
      truncated: out.truncated, windowed, away, counters, frames: state.frames.length };
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
        if (n.slot) { emit(pad + '@frame:' + n.slot); continue; }
        if (n.kids.length === 1 && typeof n.kids[0] === 'string') {
          emit(pad + '- ' + n.head + ' ' + q(n.kids[0]));
        } else if (n.kids.length === 1 && !n.kids[0].slot && !n.head.includes('-') &&
            !n.head.includes(' ')) {
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

  // Elements matching ``text`` (case-insensitive) and/or ``role``, best first, one line each.
  // Two kinds: the elements of the last reading (what can be acted on; containers only when
  // a role is asked), and, for a text, any visible element whose own text holds it (a text
  // node's parent: a label, a cell, a card title), which gets an id (text-N) that later
  // readings keep while it is visible, so the pointer tools can use it. Ranked by its own
  // text (its name, text, label, placeholder, value or title): the whole of it, whole words,
  // part of a word; then, last, controls whose row (list item, table row, card: never a form
  // or section around the whole app) holds the text. Document order among equals.
  const ROW = 'tr, li, [role=row], [role=listitem], [role=option], [role=treeitem], article';
  function find(text, role, limit) {
    const want = norm(text).toLowerCase();
    const words = new RegExp('(^|\\W)' + want.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '($|\\W)');
    const ownScore = (vals) => {
      if (vals.includes(want)) return 6;
      if (vals.some((v) => words.test(v))) return 5;
      return vals.some((v) => v.includes(want)) ? 4 : 0;
    };
    const rowOf = (el) => {
      const row = el.closest(ROW);
      if (row) return row;
      // else its parent, when that is no more than a row: not the page, not a container,
      // not something holding a list (an app's wrapper around its field and its list)
      const parent = el.parentElement;
      if (!parent || ['BODY', 'HTML'].includes(parent.tagName) || isContainer(parent, parent.tagName.toLowerCase())) return null;
      if (parent.querySelector('ul, ol, table, [role=list], [role=listbox], [role=grid], [role=table], [role=tree]')) return null;
      return parent;
    };
    const rowText = new Map();
    const textOf = (b) => { if (!rowText.has(b)) rowText.set(b, renderedText(b).toLowerCase()); return rowText.get(b); };
    const lower = (vals) => vals.filter((v) => v).map((v) => norm(String(v)).toLowerCase());
    const score = (el) => {
      if (!want) return 1;
      const own = ownScore(lower([accessibleName(el), renderedText(el), labelText(el),
        el.getAttribute('placeholder'), el.value, el.getAttribute('title')]));
      if (own) return own;
      const row = rowOf(el);
      const around = row ? textOf(row) : '';
      return words.test(around) ? 2 : (around.includes(want) ? 1 : 0);
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
    hits.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
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
      const b = el.closest(ROW);
      const ctx = b && b !== el ? renderedText(b) : '';
      return '- ' + id + keyAttrs(el, tag, t) + (t ? ' ' + q(clip(t, 80)) : '') +
        (ctx && ctx !== t ? ' in ' + q(clip(ctx, 80)) : '');
    });
    return { lines, scores, total: hits.length, ids };
  }

  function hostOf(el) {
    const root = el.getRootNode && el.getRootNode();
    return root && root.host ? root.host : null;
  }

  // The iframe chain (frame ids of the last reading) from this document to el, or null when
  // an iframe on the way has none.
  function framesOf(el) {
    const chain = [];
    let win = el.ownerDocument.defaultView;
    while (win && win !== w && win.frameElement) {
      const fid = win.frameElement.getAttribute(FRAME_ATTR);
      if (!fid) return null;
      chain.unshift(fid);
      win = win.parent;
    }
    return chain;
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
    for (const layer of state.boxLayers || []) layer.remove();
    state.boxLayers = [];
    const stray = document.getElementById('__webtask_boxes');
    if (stray) stray.remove();
    if (!show) return 0;
    // each box in its element's own document: a same-origin frame's over the frame
    const layers = new Map();
    let n = 0;
    for (const [id, el] of state.byId) {
      const doc = el.ownerDocument;
      const view = doc.defaultView;
      if (!el.isConnected || !view) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 0 || r.bottom < 0 || r.top > view.innerHeight) continue;
      let layer = layers.get(doc);
      if (!layer) {
        layer = doc.createElement('div');
        layer.id = '__webtask_boxes';
        layer.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647';
        layers.set(doc, layer);
      }
      const b = doc.createElement('div');
      b.style.cssText = `position:fixed;left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;outline:2px solid #e0245e;`;
      const tagEl = doc.createElement('span');
      tagEl.textContent = id;
      tagEl.style.cssText = 'position:absolute;left:0;top:-14px;font:11px monospace;background:#e0245e;color:#fff;padding:0 2px';
      b.appendChild(tagEl);
      layer.appendChild(b);
      n++;
    }
    for (const [doc, layer] of layers) {
      doc.documentElement.appendChild(layer);
      state.boxLayers.push(layer);
    }
    return n;
  }

  // Every element of the document, open shadow roots and same-origin iframes included.
  function deepAllFrames(doc) {
    const out = [];
    for (const el of deepAll(doc)) {
      out.push(el);
      if (el.tagName === 'IFRAME') {
        let inner = null;
        try { inner = el.contentDocument; } catch (e) { inner = null; }
        if (inner && inner.documentElement) out.push(...deepAllFrames(inner));
      }
    }
    return out;
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
  const FOUND_BY_ROLE = ['main', 'navigation', 'banner', 'contentinfo', 'complementary', 'region', 'form', 'search', 'list', 'table', 'grid', 'tablist', 'menu', 'menubar', 'listbox', 'tree', 'dialog', 'article', 'group'];
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
    // A container cited by its role alone (a claim "within main"): wrappers added around it
    // break its CSS path and XPath, not what it is. The one visible element of that tag and
    // role is it; several are ambiguous (a failure that says so), never a guess.
    if (fp.role && !fp.name && FOUND_BY_ROLE.includes(fp.role)) by('role alone', (el) => tagged(el) && roleOf(el) === fp.role);
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
      const lists = list(c.querySelectorAll('ul, ol, table, [role=list], [role=listbox], [role=grid], [role=table]')).filter(visible);
      const outer = lists.filter((l) => !lists.some((o) => o !== l && o.contains(l)));
      if (outer.length === 1) return itemsOf(outer[0]);
      items = list(c.children);
    }
    return items.filter((k) => tag === 'SELECT' || visible(k));
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
        const found = findTarget(item.element);
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
        return { ok: n === c.count, got: 'there are ' + n };
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

  // The page as static HTML, so a check can be evaluated later on the page as it was: "did
  // this check hold before the step?" Kept: form state (as attributes), open shadow roots
  // (declarative shadow DOM), same-origin iframes (srcdoc, their state frozen the same way),
  // stylesheets as the CSSOM has them now (rules a script inserted, constructed sheets a
  // document or shadow root adopted), custom elements as defined (empty definitions, so
  // :defined styles apply), open popovers and modal dialogs. Left out: scripts, inline
  // handlers, our own attributes. An iframe of another origin, which cannot be read from
  // here, gets data-webtask-freeze="<tag><n>" on the page and
  // srcdoc="webtask-frozen-frame-<tag><n>" in the copy: the caller freezes that frame in
  // its own context (another tag) and puts it there.
  let frozenFrames = 0;
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link',
    'meta', 'source', 'track', 'wbr']);
  const OURS = /^(?:data-webtask-(?:id|frame|target|scope|freeze)|on.*)$/i;
  function freeze(doc) {
    const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const escAttr = (v) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    const names = new Set();
    const rules = (sheet) => {
      try { return list(sheet.cssRules).map((r) => r.cssText).join('\n'); } catch (e) { return null; }
    };
    const adopted = (root) => list(root.adoptedStyleSheets || [])
      .map((sheet) => '<style>' + (rules(sheet) || '') + '</style>').join('');
    const children = (node) => list(node.childNodes).map(ser).join('');
    function ser(node) {
      if (node.nodeType === 3) return esc(node.nodeValue);
      if (node.nodeType !== 1) return '';
      const el = node;
      const tag = el.localName;
      if (tag === 'script' || tag === 'noscript') return '';
      if (tag.includes('-')) names.add(tag);
      let attrs = '';
      const set = new Map();
      for (const a of list(el.attributes)) if (!OURS.test(a.name)) set.set(a.name, a.value);
      if (tag === 'input') {
        const type = (el.type || '').toLowerCase();
        if (type === 'checkbox' || type === 'radio') { if (el.checked) set.set('checked', ''); else set.delete('checked'); }
        else if (type !== 'file') set.set('value', el.value);
      } else if (tag === 'option') {
        if (el.selected) set.set('selected', ''); else set.delete('selected');
      } else if (tag === 'iframe') {
        set.delete('src');
        let inner = null;
        try { inner = el.contentDocument; } catch (e) { inner = null; }
        if (inner && inner.documentElement) set.set('srcdoc', freeze(inner));
        else if (!inner) {
          const n = (args.tag || '') + frozenFrames++;
          el.setAttribute('data-webtask-freeze', n);
          set.set('srcdoc', 'webtask-frozen-frame-' + n);
        } else set.delete('srcdoc');
      }
      let reopen = false;
      try { reopen = el.matches(':popover-open'); } catch (e) { reopen = false; }
      if (tag === 'dialog' && el.open) {
        try { reopen = el.matches(':modal'); } catch (e) { reopen = false; }
        if (reopen) set.delete('open');
      }
      if (reopen) set.set('data-webtask-reopen', '');
      for (const [k, v] of set) attrs += ' ' + k + (v === '' ? '' : '="' + escAttr(v) + '"');
      if (VOID.has(tag)) return '<' + tag + attrs + '>';
      let inside;
      if (tag === 'style') inside = el.sheet ? (rules(el.sheet) ?? el.textContent) : el.textContent;
      else if (tag === 'textarea') inside = esc(el.value);
      else if (tag === 'template') inside = el.innerHTML;
      else {
        inside = '';
        if (el.shadowRoot) {
          inside += '<template shadowrootmode="open">' + adopted(el.shadowRoot) +
            children(el.shadowRoot) + '</template>';
        }
        inside += children(el);
        if (tag === 'head') inside = '\n' + inside + adopted(el.ownerDocument);
      }
      return '<' + tag + attrs + '>' + inside + '</' + tag + '>';
    }
    const body = ser(doc.documentElement);
    // run in the copy only: define the custom elements the page had, reopen what was open
    const base = /^(https?|file):/.test(doc.location.href) ? '<base href="' + escAttr(doc.location.href) + '">' : '';
    const boot = base + '<script>' +
      JSON.stringify([...names]) + '.forEach((n) => { try { customElements.get(n) || customElements.define(n, class extends HTMLElement {}); } catch (e) {} });' +
      'addEventListener("DOMContentLoaded", () => document.querySelectorAll("[data-webtask-reopen]").forEach((el) => {' +
      ' try { el.tagName === "DIALOG" ? el.showModal() : el.showPopover(); } catch (e) {} }));</script>';
    const at = body.indexOf('<head');
    const headEnd = at < 0 ? -1 : body.indexOf('>', at) + 1;
    return '<!DOCTYPE html>' + (headEnd > 0 ? body.slice(0, headEnd) + boot + body.slice(headEnd)
      : '<head>' + boot + '</head>' + body);
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

  switch (args.op) {
    case 'mark':
      if ((args.textStart || 0) > state.texts) state.texts = args.textStart;  // as find's
      return mark(args.text || '');
    case 'reveal': return reveal(args.texts || [], args.task || '');
    case 'resolve': return resolve(args.fp, args.slot, !!args.keep);
    case 'target': return findTarget(args.fp).el || null; // the selector engine's answer
    case 'check': return check(args.check, args.el, args.scope, !!args.vacuous);
    case 'checks': return checks(args.checks, !!args.vacuous);
    case 'freeze': return freeze(document);
    case 'bind': return bindResolve(args.scope || document, args);
    case 'details': return readDetails(args);
    case 'ready': return ready(args.sel);
    case 'items': return items(args);
    case 'probe': return probe(args);
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
    // as one JSON string when asked: Playwright's serializer walks a returned object value
    // by value, which cost more than the reading itself on a 3,000-element page
    case 'collect': { const r = collect(args); return args.json ? JSON.stringify(r) : r; }
    case 'find':
      // text-N ids go on from those every document of the page gave (frames of other origins)
      if ((args.textStart || 0) > state.texts) state.texts = args.textStart;
      return find(args.text || '', args.role || '', args.limit || 20);
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
