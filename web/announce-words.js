// The words of the boards' live regions (what each action did, for screen readers), from the
// catalogue's "announce." keys (issue 22), used only through `words(key, values)`. Every
// value put into a template comes from Python's answer (a colour index, a direction, a
// count, Python's own sentence); nothing here decides what happened.
import { has, t } from "./i18n.js";

/**
 * The words of `announce.<key>` with each {name} replaced by `values[name]`. With a number
 * in `values.count` of 1 the key's ".one" form is used where there is one.
 */
export function words(key, values = {}) {
  const one = values.count === 1 && has(`announce.${key}.one`);
  return t(`announce.${key}${one ? ".one" : ""}`, values);
}
