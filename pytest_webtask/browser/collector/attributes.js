// attributes.js: what an element's line says of it: its kind's attributes (a field's type
// and value, a dropdown's options), its name where its text does not show it, its states,
// and for a control nothing names (an icon), its picture's file and its classes.
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
  const CONTROL_FIELDS = new Set(['input', 'select', 'textarea']);
  const ends = (s, n) => {
    s = hide(s);
    if (s.length <= n) return s;
    return s.slice(0, Math.round(n * 0.6)).trimEnd() + ' … ' + s.slice(-Math.round(n * 0.4)).trimStart();
  };
  const NOT_TYPED = new Set(['checkbox', 'radio', 'submit', 'button', 'reset', 'hidden', 'file', 'image']);
  const FIELD_SEL = 'input, select, textarea, button';
  // The text a reader takes for the label of a field nothing names (no label element, no
  // aria, title or placeholder): in a table row holding no other field, the row's one other
  // cell of text ("Director" in its th); else a short text right before it ("Last name:"
  // in a label element not tied to it). Said as ``beside``: no accessible name, and a
  // replay never finds the field by it.
  function besideText(el) {
    const cell = el.closest('td, th');
    const row = cell && cell.parentElement;
    const short = (t) => { t = norm(t || ''); return t && t.length <= 40 ? t.replace(/\s*:$/, '') : null; };
    if (row && row.tagName === 'TR') {
      if (row.querySelectorAll(FIELD_SEL).length !== 1) return null;
      const texts = Array.from(row.cells).filter((c) => c !== cell && norm(c.textContent));
      return texts.length === 1 ? short(texts[0].textContent) : null;
    }
    let n = el.previousSibling;
    while (n && n.nodeType === 3 && !n.nodeValue.trim()) n = n.previousSibling;
    if (!n) return null;
    if (n.nodeType === 3) return short(n.nodeValue);
    if (n.nodeType !== 1 || n.querySelector(FIELD_SEL) || !visible(n)) return null;
    return ['LABEL', 'SPAN', 'B', 'STRONG', 'DIV', 'P', 'DT', 'TH', 'TD'].includes(n.tagName) ? short(n.textContent) : null;
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
      // its type always, "text" too: a bare "input-3" does not say that it takes text
      const t = (el.getAttribute('type') || 'text').toLowerCase();
      add('type', t);
      add('name', el.getAttribute('name'));
      add('placeholder', el.getAttribute('placeholder'));
      if (t === 'checkbox' || t === 'radio') { if (el.checked) out.push('checked'); add('value', el.getAttribute('value'), 40); }
      else if (el.hasAttribute(SECRET_ATTR) && el.value) add('value', '••••');
      else if (t !== 'password' && t !== 'file' && el.value) add('value', el.value, 60);
      if (t === 'password' && el.value) add('value', '••••');
    } else if (tag === 'textarea') {
      add('name', el.getAttribute('name'));
      add('placeholder', el.getAttribute('placeholder'));
      // its whole text up to 200 characters; a longer one's start and end, the middle left
      // out (its last words are as often what a task asks about as its first)
      if (el.value) add('value', el.hasAttribute(SECRET_ATTR) ? '••••' : ends(el.value, 200), 210);
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
    // (a box that scrolls, with no text of its own, is named by nothing: its content has
    // lines of its own)
    if (own !== undefined && !(way && !own && !el.hasAttribute('aria-labelledby')) &&
        (!own || el.hasAttribute('aria-labelledby') ||
        tag === 'input' || tag === 'select' || tag === 'textarea')) {
      const name = accessibleName(el);
      const flat = (v) => norm(v).replace(/\s/g, '').toLowerCase();
      const shown = [own, el.getAttribute('aria-label'), el.getAttribute('title'),
        el.getAttribute('placeholder'), el.getAttribute('alt'), tag === 'input' ? el.value : ''];
      if (name && !shown.some((v) => v && flat(v).includes(flat(name)))) add('label', name);
      if (!name && CONTROL_FIELDS.has(tag) && !NOT_TYPED.has((el.getAttribute('type') || '').toLowerCase())) {
        add('beside', besideText(el), 40);
      }
      // a control that nothing names (an icon): its picture's file and its classes
      if (!name && !own && !shown.some((v) => v) && !CONTROL_FIELDS.has(tag)) {
        add('icon', pictureName(el, tag), 40);
        if (typeof el.className === 'string') add('class', el.className.trim(), 40);
      }
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

  // What a text-less control's picture is called: the file its image comes from (an img's
  // src, a stylesheet's content or background url, an svg's <use href="#icon-trash">),
  // without its folder and extension: "delete" for .../email-inbox/delete.png.
  function pictureName(el, tag) {
    let url = '';
    if (tag === 'img') url = el.getAttribute('src') || '';
    else {
      const style = getComputedStyle(el);
      const m = /url\(["']?([^"')]+)["']?\)/.exec(style.content + ' ' + style.backgroundImage);
      if (m) url = m[1];
      else if (tag === 'svg') {
        const use = el.querySelector('use');
        url = use ? use.getAttribute('href') || use.getAttribute('xlink:href') || '' : '';
      }
    }
    if (!url || url.startsWith('data:')) return '';
    const file = url.split(/[?#]/)[0].split('/').pop() || url.split('#').pop() || '';
    return norm(file.replace(/\.(png|svg|gif|jpe?g|webp|ico)$/i, '').replace(/[-_.]+/g, ' '));
  }
