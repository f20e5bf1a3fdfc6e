/**
 * Shared input helpers for widgets: show a problem next to a field the accessible way
 * (`aria-invalid="true"` on the field, the message in an element with `role="alert"` that the
 * field's `aria-describedby` points at), and clear it again.
 */

/** The message element for a field: the one its aria-describedby names, created if missing. */
export function messageFor(input: HTMLElement): HTMLElement {
  const id = input.getAttribute("aria-describedby")?.split(/\s+/)[0];
  const existing = id ? input.ownerDocument.getElementById(id) : null;
  if (existing) return existing;
  const msg = input.ownerDocument.createElement("p");
  msg.className = "widget-message";
  msg.setAttribute("role", "alert");
  msg.id = `${input.id || "field"}-message`;
  input.setAttribute("aria-describedby", msg.id);
  input.insertAdjacentElement("afterend", msg);
  return msg;
}

/** Marks a field invalid with a message, or valid (message cleared) when `message` is undefined. */
export function setFieldProblem(input: HTMLElement, message: string | undefined): void {
  const msg = messageFor(input);
  if (message === undefined) {
    input.removeAttribute("aria-invalid");
    msg.textContent = "";
  } else {
    input.setAttribute("aria-invalid", "true");
    msg.textContent = message;
  }
}
