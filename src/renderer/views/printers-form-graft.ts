/**
 * Redrawing the printers form around the control that has the caret: everything is built
 * anew, but the focused control and its ancestors stay the same nodes. Replacing a focused
 * select would blur it (a screen reader starts over, and typing "A4" in it would land on
 * "4×4 in label" after the redraw on "A").
 */

/**
 * Makes `target`'s children look like `fresh`'s, keeping `keep` (a descendant of `target`)
 * and its ancestors in place. Fresh nodes are moved over from `fresh`; `keep` itself is left
 * as it is (its value is what was just chosen or typed).
 */
export function graftKeeping(target: Element, fresh: Element, keep: Element): void {
  const path = Array.from(target.children).find((child) => child === keep || child.contains(keep));
  const twin = keep.id
    ? Array.from(fresh.children).find((child) => child.id === keep.id || child.querySelector(`#${CSS.escape(keep.id)}`))
    : undefined;
  if (!path || !twin) {
    target.replaceChildren(...Array.from(fresh.childNodes));
    return;
  }
  for (const node of Array.from(target.childNodes)) if (node !== path) node.remove();
  const nodes = Array.from(fresh.childNodes);
  const at = nodes.indexOf(twin);
  path.before(...nodes.slice(0, at));
  path.after(...nodes.slice(at + 1));
  if (path === keep) return;
  // Attributes are only set, never removed: an open <details> around the caret stays open.
  for (const { name, value } of Array.from(twin.attributes)) if (name !== 'open') path.setAttribute(name, value);
  graftKeeping(path, twin, keep);
}
