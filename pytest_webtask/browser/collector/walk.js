// walk.js: the walk: the page state's one pass over the DOM, its lines and their text.
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
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
    if (tag === 'a') {
      // a link; one with no address is a control only by its role, tabindex or cursor
      if (el.hasAttribute('href') || style.cursor === 'pointer') return true;
    } else if (INTERACTIVE_TAGS.has(tag)) {
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
    // the best outward sign. Only where the cursor starts, not on every child inheriting it,
    // but for an icon of its own inside a clickable row.
    return style.cursor === 'pointer' && (!parentPointer || iconTarget(el, tag));
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

  function collect(opts) {
    const [hover, enterShadow, docRules, hoverPointers] = hoverReveals(document);
    state.hover = hover;
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

    // An item: a wrapper among two or more siblings of its tag and class, holding a
    // control that is no field and a text of its own (not only the controls' own words).
    const kinds = new Map();  // parent -> (tag.class -> how many of its children)
    const ITEM_FIELDS = new Set(['input', 'select', 'textarea']);
    const kindOf = (el) => el.tagName + '.' + (el.getAttribute('class') || '').trim();
    function isItem(el, kids) {
      const parent = el.parentElement;
      if (!parent || !(el.getAttribute('class') || '').trim()) return false;
      // a control to press (a field's wrapper with its label, a form group, stays as it was)
      if (!kids.some((k) => k.control && !ITEM_FIELDS.has(k.tag)) ||
          !kids.some((k) => isText(k) && k.s.trim())) return false;
      let counts = kinds.get(parent);
      if (!counts) {
        counts = new Map();
        for (const c of parent.children) counts.set(kindOf(c), (counts.get(kindOf(c)) || 0) + 1);
        kinds.set(parent, counts);
      }
      return (counts.get(kindOf(el)) || 0) >= 2;
    }

    // Returns a list of nodes: strings (text) or {head, kids}. parentShows: the parent's text
    // is visible; op: no ancestor has opacity 0; scope: the hover rules of the shadow root
    // (or document) it is in, which a polyfilled shadow root inside it inherits.
    function walk(node, frames, parentShows, parentPointer, op, scope) {
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
          kids = walk(doc.body, frames.concat([fid]), true, false, true, []);
        } else if (!doc) {
          // another origin's document: its lines go where the placeholder is
          el.setAttribute(FRAME_ATTR, fid);
          state.frames.push(el);
          away.push({ id: fid, frames, css: frameChain(el).concat([cssPath(el)]) });
          kids = [{ head: '', slot: fid, kids: [], ids: 0, tag, pos: null }];
        }
      } else if (tag === 'slot') {
        for (const c of el.assignedNodes({ flatten: true })) kids.push(...walk(c, frames, shows, pointer, kidsOp, scope));
        if (!el.assignedNodes().length) for (const c of el.childNodes) kids.push(...walk(c, frames, shows, pointer, kidsOp, scope));
      } else {
        // a shadow root of the page's document: its hover rules, before what is in it
        const inner = el.ownerDocument === document ? enterShadow(el, scope) : scope;
        for (const c of shownChildren(el, tag, style)) kids.push(...walk(c, frames, shows, pointer, kidsOp, inner));
      }
      if (tag === 'select' || tag === 'textarea') kids = []; // options shown as an attribute
      const ids = kids.reduce((sum, k) => sum + (k.ids || 0), 0);

      // an element find gave an id keeps it while it is visible
      const foundId = state.found.get(el);
      // A plain wrapper whose hover shows a control (".view:hover .destroy" in a custom
      // element) would collapse away with its hint: it gets an id, to be hovered. An element
      // kept on its own line anyway (li) shows the hint there, as before.
      const hoverHost = !KEEP.has(tag) && state.hover && state.hover.has(el);
      let rect = null;  // its box, read once: for its visibility and its position
      const rectOf = () => rect || (rect = el.getBoundingClientRect());
      const way = scrollWay(el, style);  // its own content scrolls: an id, to scroll inside
      const interactive = (foundId !== undefined || hoverHost || way || hoverPointers.has(el) ||
        isInteractive(el, tag, style, parentPointer)) && visibleInWalk(el, tag, style, kidsOp, rectOf);
      const own = interactive ? kids.filter(isText).map((k) => k.s).join(' ') : undefined;
      const attrs = (interactive || KEEP.has(tag) || el.getAttribute('role')) ? keyAttrs(el, tag, own, way) : '';
      // Where it is, for long pages: only the top document's boxes (frames follow their iframe);
      // asked only of an element that has a line (a wrapper that collapses needs none).
      const posOf = () => {
        const box = frames.length ? null : rectOf();
        return box && (box.width || box.height) ? [box.top, box.bottom] : null;
      };
      if (interactive) {
        return [{ head: register(el, tag, frames, foundId) + attrs, kids, pos: posOf(), ids: ids + 1, tag, control: true }];
      }
      const picture = isPicture(el, tag);
      if (KEEP.has(tag) || attrs || picture) {
        if (!kids.length && !attrs && tag !== 'img' && !picture) return [];
        // Containers get ids too, so evidence can name a scope ("within": "ul-0").
        const head = isContainer(el, tag) || picture ? register(el, tag, frames) : tag;
        return [{ head: head + attrs, kids, pos: posOf(), ids: ids + (head === tag ? 0 : 1), tag }];
      }
      // One of a run of like wrappers (a feed's posts, a list of cards built of divs) that
      // holds text and controls keeps a line with an id: which post an icon is under is
      // what the page shows by its boxes, and what a flat list of lines would lose.
      if (kids.length && breaksLine(style) && isItem(el, kids)) {
        const head = register(el, tag, frames);
        return [{ head, kids, pos: posOf(), ids: ids + 1, tag }];
      }
      // collapse a plain wrapper into its parent; a block wrapper separates its text
      if (kids.length && breaksLine(style)) {
        kids.unshift({ s: '', pre: true, post: true });
        kids.push({ s: '', pre: true, post: true });
      }
      return kids;
    }

    // visible(el) for an element the walk reached, from what the walk knows: its flat-tree
    // ancestors are rendered (the walk enters no display:none, no content-visibility:hidden
    // and only the summary of a closed <details>, as checkVisibility() asks), and
    // ``kidsOp`` says that neither it nor one of them down from the body has opacity 0 (the
    // root element's is asked once per document). Left to ask: its own visibility and box,
    // with the style the walk read. A display:contents element and a file input ask
    // visible() itself.
    const rootOpaque = new Map();
    function visibleInWalk(el, tag, style, kidsOp, rectOf) {
      if (style.display === 'contents' || tag === 'input' &&
          (el.getAttribute('type') || '').toLowerCase() === 'file') return visible(el);
      if (style.visibility !== 'visible') return false;
      const doc = el.ownerDocument;
      if (!rootOpaque.has(doc)) rootOpaque.set(doc, getComputedStyle(doc.documentElement).opacity !== '0');
      if (!(kidsOp && rootOpaque.get(doc)) && !styledControl(el)) return false;
      const r = rectOf();
      return r.width > 0 && r.height > 0;
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
    const tree = merge(walk(body, [], true, false, true, docRules));

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
  // Does ``n``, a control (an element the walk found interactive), hold one text and,
  // beside it, only elements that hold none and are no fields (icons)?
  // (a field, a box or a radio button is no icon: the text beside it is its label's)
  const NOT_ICONS = /^(?:input|select|textarea)-|role="(?:checkbox|radio|switch|textbox|combobox|slider|spinbutton|searchbox)"/;
  function textless(n) {
    return typeof n !== 'string' && !n.slot && !NOT_ICONS.test(n.head.split(' > ').pop()) &&
      n.kids.every(textless);
  }
  function ownText(n) {
    const texts = n.kids.filter((k) => typeof k === 'string');
    return !!n.control && texts.length === 1 && n.kids.length > 1 &&
      n.kids.every((k) => typeof k === 'string' || textless(k));
  }

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
        } else if (ownText(n)) {
          // a control whose text sits beside icons of its own (a menu item's disk icon and
          // "Save", a mail row's text and its trash and star): its text on its own line,
          // the icons under it, so its line says what it is
          emit(pad + '- ' + n.head + ' ' + q(n.kids.filter((k) => typeof k === 'string').join(' ')));
          render(n.kids.filter((k) => typeof k !== 'string'), depth + 1);
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

