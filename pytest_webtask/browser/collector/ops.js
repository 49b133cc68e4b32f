// ops.js: the ops: one call, one op (the list is in core.js).
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
  // One call: its arguments, and what lasts only as long as it (the secrets to mask, the
  // look-alike counts, the freeze's frame numbers), then its op.
  function call(a) {
    args = a || {};
    SECRETS = args.secrets || [];
    lookAlikes.clear();
    frozenFrames = 0;
    return op();
  }

  function op() {
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
