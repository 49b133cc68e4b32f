// Keeps secrets out of pixels. ({op, values}) where values are the secret values.
// op "mark":    set data-webtask-secret on every field whose value holds a secret and every
//               element whose own text does (a screenshot masks them).
// op "scrub":   replace what shows a secret, field values and text, with dots.
// op "exposed": the visible elements that show a secret unmasked (text the page wrote, a
//               field the secret was not typed into by webtask), described without their
//               value; each is masked from now on (earlier pictures may show it).
({ op, values }) => {
  const ATTR = 'data-webtask-secret';
  const has = (s) => typeof s === 'string' && values.some((v) => s.includes(v));
  const hide = (s) => { for (const v of values) s = s.split(v).join('••••'); return s; };
  const exposed = [];
  const expose = (el) => {
    if (!el || exposed.includes(el)) return;
    if (el.checkVisibility && !el.checkVisibility()) return;  // painted nowhere
    if (getComputedStyle(el).webkitTextSecurity !== 'none') return;  // drawn as discs
    exposed.push(el);
  };
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    const walker = document.createTreeWalker(roots[i],
      NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walker.currentNode; n; n = walker.nextNode()) {
      if (n.nodeType === 3) {
        if (!has(n.textContent)) continue;
        if (op === 'scrub') n.textContent = hide(n.textContent);
        else if (op === 'exposed') expose(n.parentElement);
        else if (n.parentElement) n.parentElement.setAttribute(ATTR, '');
        continue;
      }
      if (n.shadowRoot) roots.push(n.shadowRoot);
      const field = 'value' in n && typeof n.value === 'string';
      if (op === 'exposed') { if (field && has(n.value)) expose(n); continue; }
      if (!field || !(n.hasAttribute(ATTR) || has(n.value))) continue;
      if (op === 'scrub') { if (n.type !== 'password') n.value = '••••'; }
      else n.setAttribute(ATTR, '');
    }
  }
  return exposed.map((el) => {
    el.setAttribute(ATTR, '');
    el.style.setProperty('-webkit-text-security', 'disc', 'important');
    const id = el.id ? '#' + el.id : (el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : '');
    return `<${el.tagName.toLowerCase()}${id}>`;
  });
}
