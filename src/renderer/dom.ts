/**
 * A tiny element builder. Text always goes in through textContent, never innerHTML:
 * shipment data comes from other people's systems.
 */
export type Child = Node | string | number | null | undefined | false;
export type Attrs = Readonly<Record<string, string | number | boolean | null | undefined>>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

export function option(value: string, label: string, selected = false): HTMLOptionElement {
  const o = h('option', { value }, label);
  o.selected = selected;
  return o;
}
