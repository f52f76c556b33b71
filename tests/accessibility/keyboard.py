"""Playing a page with the keyboard alone, and what must hold at every step of it.

`focus_problem` says what is wrong with the focus (nothing focused, not visibly marked, out of
sight, covered by something else, or behind an open dialog); `small_targets` lists the
controls under 24×24 CSS pixels that WCAG 2.2's spacing exception does not excuse (2.5.8);
`tab_to` moves the focus with Tab (or Shift+Tab) until it reaches an element, checking the
focus on the way.
"""

from __future__ import annotations

from typing import Any

FOCUS = """() => {
  const active = document.activeElement;
  if (!active || active === document.body) return 'nothing has the focus';
  const label = active.getAttribute('aria-label') ?? active.textContent.trim().slice(0, 40);
  const what = `${active.tagName.toLowerCase()} ${label}`;
  const dialog = document.querySelector('dialog[open]');
  if (dialog && !dialog.contains(active)) return `${what}: behind the open dialog`;
  const box = active.getBoundingClientRect();
  if (box.width < 1 || box.height < 1) return `${what}: not shown`;
  const style = getComputedStyle(active);
  const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  const ringed = style.boxShadow !== 'none';
  if (!active.matches(':focus-visible') || !(outlined || ringed)) {
    return `${what}: focus not visible`;
  }
  if (box.bottom < 0 || box.top > innerHeight || box.right < 0 || box.left > innerWidth) {
    return `${what}: out of sight`;
  }
  const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(box.top + Math.min(box.height / 2, 12), 0), innerHeight - 1);
  const hit = document.elementFromPoint(x, y);
  if (!hit || !(active.contains(hit) || hit.contains(active))) {
    const under = hit ? `${hit.tagName.toLowerCase()}.${hit.className}` : 'nothing';
    return `${what}: covered by ${under}`;
  }
  return null;
}"""

TARGETS = """(root) => {
  const scope = document.querySelector('dialog[open]') ?? document.querySelector(root);
  const selector = 'button, a[href], input, select, summary, [tabindex="0"]';
  const shown = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden';
  const controls = [...scope.querySelectorAll(selector)]
    .filter((e) => !e.disabled && shown(e))
    // A link inside a sentence is excused (its size is the text's).
    .filter((e) => !(e.tagName === 'A' && e.closest('p, li, dd')));
  const boxes = controls.map((e) => [e, e.getBoundingClientRect()]);
  const small = [];
  for (const [e, r] of boxes) {
    if (r.width >= 24 && r.height >= 24) continue;
    // The spacing exception: a 24 px circle on the control's centre meets no other control.
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    const near = boxes.some(([o, b]) => {
      if (o === e || o.contains(e) || e.contains(o)) return false;
      const dx = Math.max(b.left - cx, 0, cx - b.right);
      const dy = Math.max(b.top - cy, 0, cy - b.bottom);
      return Math.hypot(dx, dy) < 12;
    });
    const name = e.getAttribute('aria-label') ?? e.textContent.trim();
    const size = `${Math.round(r.width)}×${Math.round(r.height)}`;
    if (near) small.push(`${e.tagName.toLowerCase()}.${e.className} ${name} ${size}`);
  }
  return small;
}"""


def focus_problem(page: Any) -> str | None:
    problem: str | None = page.evaluate(FOCUS)
    return problem


def assert_focus(page: Any, where: str) -> None:
    problem = focus_problem(page)
    assert problem is None, f"{where}: {problem}"


def small_targets(page: Any, root: str) -> list[str]:
    found: list[str] = page.evaluate(TARGETS, root)
    return found


def active_matches(page: Any, selector: str) -> bool:
    found: bool = page.evaluate("(s) => !!document.activeElement?.matches(s)", selector)
    return found


def tab_to(page: Any, selector: str, backwards: bool = False, limit: int = 120) -> None:
    """Tab (or Shift+Tab) until the focus is on an element matching ``selector``; the focus is
    checked at every stop."""
    key = "Shift+Tab" if backwards else "Tab"
    for _ in range(limit):
        page.keyboard.press(key)
        if active_matches(page, "body"):
            continue
        assert_focus(page, f"tabbing to {selector}")
        if active_matches(page, selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def focused_code(page: Any) -> str | None:
    code: str | None = page.evaluate("() => document.activeElement?.dataset?.code ?? null")
    return code


def arrow_to(page: Any, container: str, code: str) -> None:
    """With the focus in a hand or rack, the arrow keys to the card (or tile) ``code``."""
    codes: list[str] = page.eval_on_selector_all(
        f"{container} [data-code]", "els => els.map((e) => e.dataset.code)"
    )
    now = focused_code(page)
    assert now in codes, f"the focus is not in {container}: {now}"
    steps = codes.index(code) - codes.index(now)
    for _ in range(abs(steps)):
        page.keyboard.press("ArrowRight" if steps > 0 else "ArrowLeft")
    assert focused_code(page) == code
    assert_focus(page, f"on {code}")


def select_by_keyboard(page: Any, container: str, code: str) -> None:
    """Arrows to ``code`` and Space: the card is selected (pressed)."""
    arrow_to(page, container, code)
    page.keyboard.press("Space")
    pressed = page.get_attribute(f'{container} [data-code="{code}"]', "aria-pressed")
    assert pressed == "true", code
