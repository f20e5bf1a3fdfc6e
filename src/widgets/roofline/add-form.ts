/**
 * The roofline widget's "Add an operation of your own" form: a <details> (closed at first) with the
 * operation kind, its three whole-number fields (labels follow the kind) and an "Add to chart"
 * button. It reads and validates the fields (src/figures/roofline-custom-ops.ts) and marks each bad
 * field with its message; what happens to a valid operation is the caller's `onAdd`, which returns
 * a refusal to show under the button (the chart is full, the model cannot place it) or undefined.
 */
import { CUSTOM_OP_KINDS, customOpKind, readCustomOp, type CustomOp } from "../../figures/roofline-custom-ops.ts";
import { dom } from "../../figures/kit/dom.ts";
import { setFieldProblem } from "../../figures/kit/field.ts";

export interface AddOperationFormOptions {
  /** The widget's element id; the fields get `${idBase}-op-…` ids. */
  idBase: string;
  /** Puts the form in the page (before it is filled: a field finds its message by id). */
  place: (details: HTMLDetailsElement) => void;
  /** Takes a valid operation; returns why it was refused, or undefined when it was added. */
  onAdd: (op: CustomOp) => string | undefined;
}

/** Builds the form, places it and wires it; returns a function that focuses its "Add to chart" button. */
export function addOperationForm(doc: Document, o: AddOperationFormOptions): () => void {
  const idBase = o.idBase;
  const { el } = dom(doc);
  const details = el("details", { class: "roofline-add-details" });
  details.append(el("summary", {}, "Add an operation of your own"));
  const add = el("fieldset", { class: "roofline-add" });
  add.append(el("legend", { class: "visually-hidden" }, "Add an operation"));
  details.append(add);
  const kindField = el("div", { class: "widget-field" });
  const kind = el("select", { id: `${idBase}-op-kind`, name: "op-kind" });
  for (const k of CUSTOM_OP_KINDS) kind.append(el("option", { value: k.kind }, k.name));
  kindField.append(el("label", { for: kind.id }, "Operation"), kind);
  add.append(kindField);
  const opInputs: HTMLInputElement[] = [];
  const opLabels: HTMLLabelElement[] = [];
  for (const slot of ["a", "b", "c"]) {
    const f = el("div", { class: "widget-field" });
    const input = el("input", {
      id: `${idBase}-op-${slot}`,
      name: `op-${slot}`,
      type: "text",
      inputmode: "numeric",
      autocomplete: "off",
      spellcheck: "false",
      size: "8",
      "aria-describedby": `${idBase}-op-${slot}-message`,
    });
    const label = el("label", { for: input.id });
    f.append(label, input, el("p", { class: "widget-message", id: `${idBase}-op-${slot}-message`, role: "alert" }));
    opInputs.push(input);
    opLabels.push(label);
    add.append(f);
  }
  const addAction = el("div", { class: "widget-field roofline-add-action" });
  const addButton = el(
    "button",
    { type: "button", class: "roofline-button", "aria-describedby": `${idBase}-op-add-message` },
    "Add to chart",
  );
  const addMessage = el("p", { class: "widget-message", id: `${idBase}-op-add-message`, role: "alert" });
  addAction.append(addButton, addMessage);
  add.append(addAction);
  o.place(details);

  const kindInfo = () => customOpKind(kind.value) ?? CUSTOM_OP_KINDS[0]!;
  const showKind = (resetValues: boolean) => {
    kindInfo().fields.forEach((f, i) => {
      opLabels[i]!.textContent = f.label;
      if (resetValues) opInputs[i]!.value = String(f.initial);
      setFieldProblem(opInputs[i]!, undefined);
    });
    addMessage.textContent = "";
  };
  const readAdd = () => {
    const info = kindInfo();
    const raw: Record<string, string> = {};
    info.fields.forEach((f, i) => (raw[f.key] = opInputs[i]!.value));
    const result = readCustomOp(info.kind, raw);
    info.fields.forEach((f, i) => setFieldProblem(opInputs[i]!, result.ok ? undefined : result.errors[f.key]));
    return result;
  };
  const addOp = () => {
    const result = readAdd();
    if (!result.ok) return;
    addMessage.textContent = o.onAdd(result.op) ?? "";
  };
  kind.addEventListener("change", () => showKind(true));
  for (const input of opInputs) {
    input.addEventListener("input", () => {
      readAdd();
      addMessage.textContent = "";
    });
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        addOp();
      }
    });
  }
  addButton.addEventListener("click", addOp);
  showKind(true);
  return () => addButton.focus();
}
